import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { createEmployer, request, type TestEmployer } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { countingD1 } from "./support/count-d1";
import { activeAlert, alertsBatch, alertsEnv, consume, deliverPending, lastEventSeq, linkIn, matchEventsSince, page, queued, sentMail } from "./support/alerts";
import type { AlertsQueueBody } from "../src/alerts/consumer";

// DESIGN 23, 23a: sending — instant, daily, weekly; the email (≤ 15 jobs, ≤ 2 per employer, only
// open jobs, never a job twice, no empty email, HTML and text, the alert's language, one-click
// unsubscribe headers, the sender); the ledger, so a retry never sends twice.

/** A cron run at `scheduledTime` through the Worker's entry, its queue recorded; then the due alerts' messages consumed (as the queue would). */
async function cronAt(scheduledTime: number) {
  const from = queued.length;
  await worker.scheduled!({ cron: "0 * * * *", scheduledTime } as ScheduledController, alertsEnv());
  const due = queued.slice(from).map((message) => message.body).filter((body): body is AlertsQueueBody => "due" in body);
  if (due.length) await consume(due);
  return deliverPending();
}

const dueAtOf = async (id: number) => (await env.ALERTS_DB.prepare("SELECT due_at AS dueAt FROM alerts WHERE id = ?").bind(id).first<{ dueAt: number | null }>())!.dueAt;
const word = () => `qz${Math.random().toString(36).slice(2, 8)}`;

async function jobsFor(employer: TestEmployer, title: string, count: number) {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await postJob(employer, { title: `${title} ${i}`, status: "active" })).id);
  return ids;
}

describe("daily emails (DESIGN 23)", () => {
  it("at the chosen hour (the first cron run at or after it): one email, ≤ 15 jobs newest first, ≤ 2 per employer, HTML and text, List-Unsubscribe (https) and List-Unsubscribe-Post, the sender's name, address and contact, why, manage and unsubscribe links", async () => {
    const q = word();
    const alert = await activeAlert({ search: { q } });
    const employers = await Promise.all(Array.from({ length: 10 }, (_, i) => createEmployer({ name: `Sender Test ${i}`, plan: "unlimited" })));
    const before = await lastEventSeq();
    for (const employer of employers) await jobsFor(employer, `${q} Analyst`, 3);
    await settleBoard();
    await matchEventsSince(before);
    const dueAt = (await dueAtOf(alert.id))!;
    expect(await cronAt(dueAt - 3_600_000)).toEqual([]);
    const mails = (await cronAt(dueAt)).filter((mail) => mail.to === alert.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const ids = [...mail.text.matchAll(/\/jobs\/(\d+)-/g)].map((m) => Number(m[1]));
    expect(ids).toHaveLength(15);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const employerOf = new Map<number, number>();
    for (const row of (await env.DB.prepare("SELECT id, employer_id AS e FROM jobs WHERE id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(ids)).all<{ id: number; e: number }>()).results) employerOf.set(row.id, row.e);
    const perEmployer = Map.groupBy(ids, (id) => employerOf.get(id));
    expect(Math.max(...[...perEmployer.values()].map((list) => list.length))).toBeLessThanOrEqual(2);
    expect(mail.subject).toMatch(/^15 new jobs: /);
    expect(mail.subject).toContain(`${q} Analyst`);
    expect(mail.html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(mail.headers["List-Unsubscribe"]).toMatch(/^<https:\/\/api\.test\/alerts\/unsubscribe\/[A-Za-z0-9_-]{43}>$/);
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.headers["Content-Language"]).toBe("en");
    for (const text of [env.BOARD_NAME!, env.BOARD_POSTAL_ADDRESS!, env.BOARD_CONTACT!]) {
      expect(mail.text).toContain(text);
      expect(mail.html).toContain(text);
    }
    expect(mail.text).toMatch(/You get this email because on .* you asked for job alerts for: /);
    linkIn(mail, "manage");
    linkIn(mail, "unsubscribe");
    // No open or click tracking: every link goes straight to its page.
    expect(mail.html).not.toMatch(/<img/);
  });

  it("never a job twice, no empty email, and a retry or a second run of the same period never sends twice", async () => {
    const q = word();
    const alert = await activeAlert({ search: { q } });
    const employer = await createEmployer({ name: "Twice Ltd.", plan: "unlimited" });
    let before = await lastEventSeq();
    const [first] = await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    const dueAt = (await dueAtOf(alert.id))!;
    expect((await cronAt(dueAt)).filter((mail) => mail.to === alert.email)).toHaveLength(1);
    // The same period again (a second run, a retried message): the ledger holds it already.
    await consume([{ due: [alert.id], now: dueAt }]);
    const { results: ledger } = await env.ALERTS_DB.prepare("SELECT id FROM alert_sends WHERE alert_id = ? AND kind = 'alert'").bind(alert.id).all<{ id: number }>();
    expect(ledger).toHaveLength(1);
    const sentBefore = sentMail.length;
    await consume([{ send: ledger[0].id }]);
    expect(sentMail.length).toBe(sentBefore);
    // The next day: nothing new matched, no email.
    const next = (await dueAtOf(alert.id))!;
    expect(next).toBeGreaterThan(dueAt);
    expect((await cronAt(next)).filter((mail) => mail.to === alert.email)).toEqual([]);
    // A new job, and the first one changed (matched again): only the new one is sent.
    before = await lastEventSeq();
    expect((await request(`/jobs/${first}`, { method: "PUT", apiKey: employer.apiKey, json: { title: `${q} renamed` } })).status).toBe(200);
    const [second] = await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    const [mail] = (await cronAt((await dueAtOf(alert.id))!)).filter((m) => m.to === alert.email);
    expect([...mail.text.matchAll(/\/jobs\/(\d+)-/g)].map((m) => Number(m[1]))).toEqual([second]);
  });

  it("only jobs still on the board when the email is built: a job archived after it matched is not sent; none left, no email", async () => {
    const q = word();
    const alert = await activeAlert({ search: { q } });
    const employer = await createEmployer({ name: "Gone Ltd.", plan: "unlimited" });
    const before = await lastEventSeq();
    const [job] = await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    expect((await request(`/jobs/${job}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "archived" } })).status).toBe(200);
    await settleBoard();
    // Its own event not matched yet: the board itself says it left.
    expect((await cronAt((await dueAtOf(alert.id))!)).filter((mail) => mail.to === alert.email)).toEqual([]);
  });

  it("an employer's new name reaches the jobs it matched before the rename: the email names the employer as it is when the email is built", async () => {
    const q = word();
    const alert = await activeAlert({ search: { q } });
    const employer = await createEmployer({ name: "Oldname Widgets Ltd.", plan: "unlimited" });
    const before = await lastEventSeq();
    await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    const renamed = await lastEventSeq();
    expect((await request("/employer", { method: "PUT", apiKey: employer.apiKey, json: { name: "Newname Widgets Ltd." } })).status).toBe(200);
    await matchEventsSince(renamed);
    const [mail] = (await cronAt((await dueAtOf(alert.id))!)).filter((m) => m.to === alert.email);
    expect(mail.text).toContain("Newname Widgets Ltd.");
    expect(mail.html).toContain("Newname Widgets Ltd.");
    expect(mail.text).not.toContain("Oldname");
  });
});

describe("instant emails (DESIGN 23a)", () => {
  it("matches gather for 10 minutes (a message delayed 600 s), then one email with them", async () => {
    const q = word();
    const alert = await activeAlert({ frequency: "instant", search: { q } });
    expect(await dueAtOf(alert.id)).toBeNull();
    const employer = await createEmployer({ name: "Instant Ltd.", plan: "unlimited" });
    const before = await lastEventSeq();
    const from = queued.length;
    await jobsFor(employer, q, 2);
    await settleBoard();
    await matchEventsSince(before);
    const delayed = queued.slice(from).find((message) => "due" in message.body && message.body.due.includes(alert.id));
    expect(delayed?.delaySeconds).toBe(600);
    const dueAt = (await dueAtOf(alert.id))!;
    // Before the 10 minutes are up, nothing goes.
    await consume([{ due: [alert.id], now: dueAt - 1 }]);
    expect((await deliverPending()).filter((mail) => mail.to === alert.email)).toEqual([]);
    await consume([{ due: [alert.id], now: dueAt }]);
    const [mail] = (await deliverPending()).filter((m) => m.to === alert.email);
    expect(mail.subject).toMatch(/^2 new jobs: /);
    expect(await dueAtOf(alert.id)).toBeNull();
  });
});

describe("French alerts", () => {
  it("an alert in French gets its emails in French (Content-Language fr, <html lang=\"fr\">, French subject)", async () => {
    const q = word();
    const alert = await activeAlert({ language: "fr", frequency: "instant", search: { q } });
    const employer = await createEmployer({ name: "Français Ltée", plan: "unlimited" });
    const before = await lastEventSeq();
    await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    await consume([{ due: [alert.id], now: (await dueAtOf(alert.id))! }]);
    const [mail] = (await deliverPending()).filter((m) => m.to === alert.email);
    expect(mail.subject).toMatch(/^1 nouvelle offre : /);
    expect(mail.headers["Content-Language"]).toBe("fr");
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.text).toContain("/fr/emplois/");
  });
});

describe("one-click unsubscribe (RFC 8058)", () => {
  it("a POST of List-Unsubscribe=One-Click ends the alert at once: 200, no redirect, no cookie; no email is built after it; a GET changes nothing and an ended alert's link says \"unsubscribed\"", async () => {
    const q = word();
    const alert = await activeAlert({ frequency: "instant", search: { q } });
    const unsubscribe = linkIn(alert.confirmation, "confirm").replace("/confirm/", "/unsubscribe/");
    // The confirmation carries no unsubscribe link (the alert is not on yet): take the alert email's.
    const employer = await createEmployer({ name: "Unsub Ltd.", plan: "unlimited" });
    let before = await lastEventSeq();
    await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    await consume([{ due: [alert.id], now: (await dueAtOf(alert.id))! }]);
    const [mail] = (await deliverPending()).filter((m) => m.to === alert.email);
    const link = linkIn(mail, "unsubscribe");
    expect(link).not.toBe(unsubscribe);
    const shown = await page(link);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("Unsubscribe from all my alerts");
    expect((await env.ALERTS_DB.prepare("SELECT status FROM alerts WHERE id = ?").bind(alert.id).first())!.status).toBe("active");
    const res = await page(link, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Location")).toBeNull();
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect((await env.ALERTS_DB.prepare("SELECT status FROM alerts WHERE id = ?").bind(alert.id).first())!.status).toBe("ended");
    const changes = await env.ALERTS_DB.prepare("SELECT change FROM alert_changes WHERE alert_id = ? ORDER BY id").bind(alert.id).all();
    expect(changes.results.map((row) => row.change)).toEqual(["confirmed", "unsubscribed"]);
    before = await lastEventSeq();
    await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    await consume([{ due: [alert.id], now: Date.now() + 3_600_000 }]);
    expect((await deliverPending()).filter((m) => m.to === alert.email)).toEqual([]);
    const after = await page(link);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain("You are unsubscribed");
  });
});

describe("a day's digests, set-based (DESIGN 23's budget; DESIGN 6a)", () => {
  it("a queue batch of 10 messages of 10 due alerts is built in 3 round trips (2 to ALERTS_DB, 1 to the board), and its 100 emails sent in 2, whatever the number of alerts", async () => {
    const q = word();
    const model = await activeAlert({ search: { q } });
    const employer = await createEmployer({ name: "Digest Ltd.", plan: "unlimited" });
    const before = await lastEventSeq();
    const [job] = await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    const dueAt = (await dueAtOf(model.id))!;
    // 99 more alerts like it, each with the same match (as the job's matching would store them).
    await env.ALERTS_DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 99)
       INSERT INTO alerts (email, email_key, status, language, frequency, hour, weekday, time_zone, search, origin, token_nonce, confirm_hash, manage_hash, feed_hash,
         due_at, renewed_at, consent_text_version, consent_text_sha256, source, created_at, confirmed_at)
       SELECT 'digest' || i || '@example.com', 'digest' || i || '@example.com', status, language, frequency, hour, weekday, time_zone, search, origin,
         token_nonce || i, confirm_hash || i, manage_hash || i, feed_hash || i, due_at, renewed_at, consent_text_version, consent_text_sha256, source, created_at, confirmed_at
       FROM n, alerts WHERE alerts.id = ?`,
    ).bind(model.id).run();
    await env.ALERTS_DB.prepare(
      `INSERT INTO alert_matches (alert_id, job_id, matched_at, card, employer_id, publish_date, close_date)
       SELECT a.id, m.job_id, m.matched_at, m.card, m.employer_id, m.publish_date, m.close_date FROM alerts a, alert_matches m
       WHERE a.email_key LIKE 'digest%@example.com' AND m.alert_id = ? AND m.job_id = ?`,
    ).bind(model.id, job).run();
    const ids = (await env.ALERTS_DB.prepare("SELECT id FROM alerts WHERE id = ? OR email_key LIKE 'digest%@example.com' ORDER BY id").bind(model.id).all<{ id: number }>()).results.map((row) => row.id);
    expect(ids).toHaveLength(100);

    const counted = { ALERTS_DB: countingD1(env.ALERTS_DB), BOARD_DB: countingD1(env.BOARD_DB) };
    const from = queued.length;
    const dueMessages = Array.from({ length: 10 }, (_, i) => ({ due: ids.slice(i * 10, i * 10 + 10), now: dueAt }));
    await consume(dueMessages, { ALERTS_DB: counted.ALERTS_DB.db, BOARD_DB: counted.BOARD_DB.db });
    expect([counted.ALERTS_DB.count(), counted.BOARD_DB.count()]).toEqual([2, 1]);

    const sends = queued.slice(from).map((message) => message.body).filter((body) => "send" in body);
    expect(sends).toHaveLength(10);
    counted.ALERTS_DB.reset();
    const sentBefore = sentMail.length;
    await consume(sends, { ALERTS_DB: counted.ALERTS_DB.db });
    expect(counted.ALERTS_DB.count()).toBe(2);
    const mails = sentMail.slice(sentBefore);
    expect(new Set(mails.map((mail) => mail.to)).size).toBe(100);
    for (const mail of mails) expect([...mail.text.matchAll(/\/jobs\/(\d+)-/g)].map((m) => Number(m[1]))).toEqual([job]);
    // Recorded, so none goes again.
    const ledger = await env.ALERTS_DB.prepare("SELECT status, count(*) AS n FROM alert_sends WHERE kind = 'alert' AND alert_id IN (SELECT value FROM json_each(?)) GROUP BY status")
      .bind(JSON.stringify(ids))
      .all<{ status: string; n: number }>();
    expect(ledger.results).toEqual([{ status: "sent", n: 100 }]);
  });
});

describe("an email the email service refuses (DESIGN 23: retries through the queue)", () => {
  it("its message is retried, the other emails of the message are recorded sent and never sent again; after 5 attempts the refused one is recorded failed", async () => {
    const q = word();
    const refused = await activeAlert({ frequency: "instant", search: { q } });
    const accepted = await activeAlert({ frequency: "instant", search: { q } });
    const employer = await createEmployer({ name: "Refused Ltd.", plan: "unlimited" });
    const before = await lastEventSeq();
    await jobsFor(employer, q, 1);
    await settleBoard();
    await matchEventsSince(before);
    await consume([{ due: [refused.id, accepted.id], now: Math.max((await dueAtOf(refused.id))!, (await dueAtOf(accepted.id))!) }]);
    const pendingOf = async (alertId: number) => (await env.ALERTS_DB.prepare("SELECT id, status FROM alert_sends WHERE alert_id = ? AND kind = 'alert'").bind(alertId).first<{ id: number; status: string }>())!;
    expect([(await pendingOf(refused.id)).status, (await pendingOf(accepted.id)).status]).toEqual(["pending", "pending"]);
    const body = { send: [(await pendingOf(refused.id)).id, (await pendingOf(accepted.id)).id] };
    const delivered: string[] = [];
    const email = { send: async (mail: { to: string }) => { if (mail.to === refused.email) throw new Error("mail service down"); delivered.push(mail.to); } };
    const attempt = async (attempts: number) => {
      const { batch, outcomes } = alertsBatch([body], attempts);
      await worker.queue!(batch as MessageBatch<never>, alertsEnv({ EMAIL: email }));
      return outcomes;
    };
    expect(await attempt(1)).toEqual([{ index: 0, retryDelay: 30 }]);
    expect([(await pendingOf(refused.id)).status, (await pendingOf(accepted.id)).status]).toEqual(["pending", "sent"]);
    expect(await attempt(5)).toEqual([{ index: 0, ack: true }]);
    expect([(await pendingOf(refused.id)).status, (await pendingOf(accepted.id)).status]).toEqual(["failed", "sent"]);
    expect(delivered).toEqual([accepted.email]);
  });
});
