import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { PRUNED_PER_CHUNK, runAlertsUpkeep } from "../src/alerts/scheduled";
import { tokenOf } from "../src/alerts/tokens";
import { request } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { alertWithEmailBuilt as emailBuilt, activeAlert, alertBody, alertsEnv, consume, deliverPending, lastEventSeq, linkIn, matchEventsSince, matchesOf, page, postAlert, sentMail } from "./support/alerts";

// DESIGN 23: the confirmation email's "this was not me" link; List-Unsubscribe's mailto: where
// inbound mail is set up (ALERTS_UNSUBSCRIBE_MAILTO, the Worker's email handler); old matches
// pruned by the alerts' cron stage in bounded chunks, a job still never sent twice.

const MAILTO = "unsubscribe@jobs.example.com";
const statusOf = async (id: number) => (await env.ALERTS_DB.prepare("SELECT status FROM alerts WHERE id = ?").bind(id).first<{ status: string }>())?.status;
const changesOf = async (id: number) => (await env.ALERTS_DB.prepare("SELECT change FROM alert_changes WHERE alert_id = ? ORDER BY id").bind(id).all<{ change: string }>()).results.map((row) => row.change);
const word = () => `qd${Math.random().toString(36).slice(2, 8)}`;

/** An instant alert with one email built (its ledger row pending, not sent yet), and the job it holds. */
const alertWithEmailBuilt = (q = word()) => emailBuilt(q, {}, "Pruning Ltd.");

/** Sends the pending ledger rows of one alert with these settings; returns its emails sent now. */
async function sendPending(alertId: number, overrides: Record<string, unknown> = {}) {
  const before = sentMail.length;
  const { results } = await env.ALERTS_DB.prepare("SELECT id FROM alert_sends WHERE alert_id = ? AND status = 'pending' ORDER BY id").bind(alertId).all<{ id: number }>();
  if (results.length) await consume(results.map((row) => ({ send: row.id })), overrides);
  return sentMail.slice(before);
}

describe("\"this was not me\": the confirmation email's decline link", () => {
  it("in the email (text and HTML); a GET shows a button and changes nothing; its POST deletes the pending alert and its ledger; the links then do not work", async () => {
    const body = alertBody({ language: "fr" });
    expect((await postAlert(body)).status).toBe(202);
    const [mail] = (await deliverPending()).filter((m) => m.to === body.email);
    const decline = linkIn(mail, "decline");
    expect(mail.html).toContain(`<a href="${decline}">`);
    const { id } = (await env.ALERTS_DB.prepare("SELECT id FROM alerts WHERE email = ?").bind(body.email).first<{ id: number }>())!;
    const shown = await page(decline);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("Cache-Control")).toBe("no-store");
    const html = await shown.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain(`<form method="post" action="${new URL(decline).pathname}">`);
    expect(await statusOf(id)).toBe("pending");
    const res = await page(decline, { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Demande supprimée");
    expect(await statusOf(id)).toBeUndefined();
    expect(await env.ALERTS_DB.prepare("SELECT count(*) AS n FROM alert_sends WHERE alert_id = ?").bind(id).first()).toEqual({ n: 0 });
    expect((await page(linkIn(mail, "confirm"))).status).toBe(404);
    expect((await page(decline, { method: "POST" })).status).toBe(404);
  });

  it("an alert confirmed since: the link's POST ends it, recorded as an unsubscribe; an ended alert's link says \"unsubscribed\"", async () => {
    const alert = await activeAlert();
    const decline = linkIn(alert.confirmation, "decline");
    expect(await (await page(decline)).text()).toContain("Delete the request");
    expect(await statusOf(alert.id)).toBe("active");
    const res = await page(decline, { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("You are unsubscribed");
    expect(await statusOf(alert.id)).toBe("ended");
    expect(await changesOf(alert.id)).toEqual(["confirmed", "unsubscribed"]);
    expect(await (await page(decline)).text()).toContain("You are unsubscribed");
  });
});

describe("List-Unsubscribe's mailto: (where inbound mail is set up)", () => {
  it("unset: the https address alone; set: the https address, then mailto: with the manage token in the subject", async () => {
    const plain = await alertWithEmailBuilt();
    const [withoutMailto] = await sendPending(plain.id);
    expect(withoutMailto.headers["List-Unsubscribe"]).toMatch(/^<https:\/\/api\.test\/alerts\/unsubscribe\/[A-Za-z0-9_-]{43}>$/);
    const alert = await alertWithEmailBuilt();
    const [mail] = await sendPending(alert.id, { ALERTS_UNSUBSCRIBE_MAILTO: MAILTO });
    const token = linkIn(mail, "unsubscribe").split("/").pop()!;
    expect(mail.headers["List-Unsubscribe"]).toBe(`<https://api.test/alerts/unsubscribe/${token}>, <mailto:${MAILTO}?subject=unsubscribe%20${token}>`);
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("mail to that address with the token in its subject ends the alert, recorded; mail to another address, or naming no alert, changes nothing and is never bounced", async () => {
    const alert = await activeAlert();
    const token = linkIn(alert.confirmation, "confirm").split("/").pop()!;
    const other = await activeAlert();
    const rejected: string[] = [];
    const inbound = (to: string, subject: string) =>
      worker.email!(
        { to, from: alert.email, headers: new Headers({ Subject: subject }), setReject: (reason: string) => void rejected.push(reason) } as unknown as ForwardableEmailMessage,
        { ...env, ALERTS_UNSUBSCRIBE_MAILTO: MAILTO },
      );
    // The manage token (the unsubscribe link's): the confirmation email carries only the confirm
    // token, so it is derived here as the Worker derives it (src/alerts/tokens.ts).
    const { nonce } = (await env.ALERTS_DB.prepare("SELECT token_nonce AS nonce FROM alerts WHERE id = ?").bind(alert.id).first<{ nonce: string }>())!;
    const manageToken = await tokenOf(env.ALERTS_TOKEN_KEY, "manage", nonce);
    await inbound("someone-else@jobs.example.com", `unsubscribe ${manageToken}`);
    await inbound(MAILTO, `unsubscribe ${token}`); // a confirm token is no unsubscribe token
    await inbound(MAILTO, "unsubscribe please");
    expect(await statusOf(alert.id)).toBe("active");
    await inbound(MAILTO.toUpperCase(), `Re: unsubscribe ${manageToken}`);
    expect(await statusOf(alert.id)).toBe("ended");
    expect(await changesOf(alert.id)).toEqual(["confirmed", "unsubscribed"]);
    expect(await statusOf(other.id)).toBe("active");
    expect(rejected).toEqual([]);
  });
});

describe("old matches pruned by the alerts' cron stage", () => {
  it("a match sent more than 30 days before the alert's last email goes, an unsent one stays, and the job is never matched (so sent) again", async () => {
    const alert = await alertWithEmailBuilt();
    await sendPending(alert.id);
    const before = await lastEventSeq();
    const later = await postJob(alert.employer, { title: `${alert.q} Assistant`, status: "active" });
    await settleBoard();
    await matchEventsSince(before);
    expect(await matchesOf(alert.id)).toEqual([alert.job.id, later.id]);
    // A later email went 40 days on: the first match is now 40 days older than it; the second was never sent.
    await env.ALERTS_DB.prepare("UPDATE alerts SET last_sent_at = last_sent_at + ? WHERE id = ?").bind(40 * 86_400_000, alert.id).run();
    const run = await runAlertsUpkeep(alertsEnv(), Date.now());
    expect(run.stages.alertsMatchesPruned).toMatchObject({ outcome: "ok", pruned: expect.any(Number), chunks: expect.any(Number) });
    expect(await matchesOf(alert.id)).toEqual([later.id]);
    // The pruned job changes: it still matches, but is not stored (so not sent) again.
    const changed = await lastEventSeq();
    expect((await request(`/jobs/${alert.job.id}`, { method: "PUT", apiKey: alert.employer.apiKey, json: { title: `${alert.q} Clerk renamed` } })).status).toBe(200);
    await settleBoard();
    await matchEventsSince(changed);
    expect(await matchesOf(alert.id)).toEqual([later.id]);
  });

  it("an ended alert's matches all go (its consent record stays), in chunks of a bounded size", async () => {
    const alert = await alertWithEmailBuilt();
    const rows = PRUNED_PER_CHUNK * 2 + 37;
    await env.ALERTS_DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO alert_matches (alert_id, job_id, matched_at, card, employer_id, publish_date, close_date, send_id)
       SELECT ?, 900000000 + i, 0, '{}', 1, 0, 0, -1 FROM n`,
    ).bind(rows, alert.id).run();
    await page(linkIn(alert.confirmation, "decline"), { method: "POST" });
    expect(await statusOf(alert.id)).toBe("ended");
    const run = await runAlertsUpkeep(alertsEnv(), Date.now());
    const stage = run.stages.alertsMatchesPruned as unknown as { outcome: string; pruned: number; chunks: number };
    expect(stage.outcome).toBe("ok");
    expect(stage.pruned).toBeGreaterThanOrEqual(rows + 1);
    expect(stage.chunks).toBeGreaterThanOrEqual(3);
    expect(await matchesOf(alert.id)).toEqual([]);
    expect(await changesOf(alert.id)).toEqual(["confirmed", "unsubscribed"]);
  });
});

/** The rows D1 reports read (`meta.rows_read`) by every statement run through this binding: the work a run costs. */
function countingRowsRead(db: D1Database) {
  let rows = 0;
  const raw = new WeakMap<object, D1PreparedStatement>();
  const counted = <T extends D1Result>(result: T) => ((rows += result.meta.rows_read ?? 0), result);
  const statement = (prepared: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(prepared, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => statement(value.apply(target, args));
        if (prop === "all" || prop === "run") return async (...args: unknown[]) => counted(await value.apply(target, args));
        if (prop === "first" || prop === "raw") throw new Error(`${prop}() reports no rows read: count it another way`);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    raw.set(proxy, prepared);
    return proxy;
  };
  const binding = new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => statement(target.prepare(query));
      if (prop === "batch") return async (list: D1PreparedStatement[]) => (await target.batch(list.map((s) => raw.get(s) ?? s))).map(counted);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, rowsRead: () => rows };
}

describe("the alerts' cron stages cost what is due or changed, not the database (DESIGN 6a)", () => {
  it("a run over 3 000 alerts neither due, asked, pending nor ended, with 3 000 matches none of which may go, reads fewer than 200 rows", async () => {
    const now = Date.now();
    const seeded = 3_000;
    await env.ALERTS_DB.batch([
      env.ALERTS_DB.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
         INSERT INTO alerts (email, email_key, status, language, frequency, hour, weekday, time_zone, search, origin, token_nonce, confirm_hash, manage_hash, feed_hash,
           due_at, last_sent_at, renewed_at, consent_text_version, consent_text_sha256, source, created_at, confirmed_at)
         SELECT 'bounded' || i || '@example.com', 'bounded' || i || '@example.com', 'active', 'en', 'daily', 8, 'monday', 'America/Toronto', '{"q":"bounded"}',
           'https://api.test', 'bounded-' || i, 'bounded-c-' || i, 'bounded-m-' || i, 'bounded-f-' || i,
           ?2 + 3600000, ?2 - 86400000, ?2 - 86400000, '1', 'bounded', 'api', ?2 - 86400000, ?2 - 86400000 FROM n`,
      ).bind(seeded, now),
      env.ALERTS_DB.prepare(
        `INSERT INTO alert_matches (alert_id, job_id, matched_at, card, employer_id, publish_date, close_date, send_id)
         SELECT id, 800000000 + id, ?1 - 86400000, '{}', 1, 0, 0, -1 FROM alerts WHERE email_key LIKE 'bounded%'`,
      ).bind(now),
    ]);
    const counted = countingRowsRead(env.ALERTS_DB);
    const run = await runAlertsUpkeep(alertsEnv({ ALERTS_DB: counted.binding }), now);
    expect(run.errors).toEqual([]);
    expect((await env.ALERTS_DB.prepare("SELECT count(*) AS n FROM alert_matches WHERE job_id > 800000000").all<{ n: number }>()).results[0].n).toBe(seeded);
    expect(counted.rowsRead()).toBeLessThan(200);
  });
});
