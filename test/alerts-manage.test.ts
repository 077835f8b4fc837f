import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { activeAlert, alertWithEmailBuilt, alertsEnv, consume, deliverPending, linkIn, page, queued, sentMail } from "./support/alerts";

// DESIGN 23, 23a: the manage page per address, the Atom feed per alert, bounces and complaints from
// the email service's events queue, and the 12-month "keep this alert?" email.

const statusOf = async (id: number) => (await env.ALERTS_DB.prepare("SELECT status FROM alerts WHERE id = ?").bind(id).first<{ status: string }>())!.status;
const changesOf = async (id: number) => (await env.ALERTS_DB.prepare("SELECT change FROM alert_changes WHERE alert_id = ? ORDER BY id").bind(id).all<{ change: string }>()).results.map((row) => row.change);
const termsOf = async (id: number) => (await env.ALERTS_DB.prepare("SELECT term FROM alert_terms WHERE alert_id = ? ORDER BY term").bind(id).all<{ term: string }>()).results.map((row) => row.term);
const word = () => `qm${Math.random().toString(36).slice(2, 8)}`;

/** An alert with one email sent, so its manage, unsubscribe and feed links are at hand. */
async function alertWithEmail(overrides: Record<string, unknown> = {}) {
  const alert = await alertWithEmailBuilt(word(), overrides, "Manage Ltd.");
  const [mail] = (await deliverPending()).filter((m) => m.to === alert.email);
  return { ...alert, mail };
}

const form = (fields: Record<string, string>) => ({ method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

describe("the manage page (one per address)", () => {
  it("lists every alert of the address; a GET changes nothing; its forms change the frequency, pause, resume and delete one alert, each recorded", async () => {
    const first = await alertWithEmail();
    const second = await activeAlert({ email: first.email, search: { province: "NS" } });
    const manage = linkIn(first.mail, "manage");
    const shown = await page(manage);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("Cache-Control")).toBe("no-store");
    const html = await shown.text();
    expect(html).toContain(first.q);
    expect(html).toContain("province NS");
    const path = new URL(manage).pathname;
    expect((await page(manage, form({ alert: String(second.id), action: "schedule", frequency: "weekly", hour: "7", weekday: "friday" }))).status).toBe(303);
    expect(await env.ALERTS_DB.prepare("SELECT frequency, hour, weekday FROM alerts WHERE id = ?").bind(second.id).first()).toEqual({ frequency: "weekly", hour: 7, weekday: "friday" });
    expect(await termsOf(second.id)).toEqual(["p:NS"]);
    expect((await page(manage, form({ alert: String(second.id), action: "pause" }))).headers.get("Location")).toBe(path);
    expect(await statusOf(second.id)).toBe("paused");
    // Paused, it matches nothing: out of the reverse-search index, so no job reads it; filed again on resume.
    expect(await termsOf(second.id)).toEqual([]);
    await page(manage, form({ alert: String(second.id), action: "resume" }));
    expect(await statusOf(second.id)).toBe("active");
    expect(await termsOf(second.id)).toEqual(["p:NS"]);
    await page(manage, form({ alert: String(second.id), action: "delete" }));
    expect(await statusOf(second.id)).toBe("ended");
    expect(await changesOf(second.id)).toEqual(["confirmed", "frequency:weekly", "paused", "resumed", "deleted"]);
    expect(await statusOf(first.id)).toBe("active");
  });

  it("an alert of another address cannot be changed from this address's page; \"delete all\" ends every alert of the address", async () => {
    const mine = await alertWithEmail();
    const other = await activeAlert();
    const manage = linkIn(mine.mail, "manage");
    await page(manage, form({ alert: String(other.id), action: "delete" }));
    expect(await statusOf(other.id)).toBe("active");
    const more = await activeAlert({ email: mine.email, search: { q: "second" } });
    await page(manage, form({ action: "delete-all" }));
    expect([await statusOf(mine.id), await statusOf(more.id)]).toEqual(["ended", "ended"]);
    // The link of an ended alert still answers a page, never an error.
    const after = await page(manage);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain("You have no job alerts.");
  });
});

describe("the Atom feed (one per alert, private)", () => {
  it("answers application/atom+xml with the alert's matches, each linking to its job's page", async () => {
    const alert = await alertWithEmail();
    const res = await page(linkIn(alert.mail, "feed"));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await res.text();
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">');
    expect(xml).toContain(`<title>${alert.q} Clerk</title>`);
    expect(xml).toContain(`https://api.test/jobs/${alert.job.id}-`);
    expect((await page(`/alerts/feed/${"B".repeat(43)}`)).status).toBe(404);
  });
});

describe("bounces and complaints (job-posting-email-events)", () => {
  const deliver = (bodies: unknown[]) => {
    const messages = bodies.map((body, i) => ({ id: `e${i}`, body, timestamp: new Date(), attempts: 1, ack: () => {}, retry: () => {} }));
    return worker.queue!({ queue: "job-posting-email-events", messages, ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<never>, env);
  };

  it("a hard bounce or a complaint ends every alert of that address, recorded with why; a soft bounce changes nothing", async () => {
    const bounced = await activeAlert();
    const complained = await activeAlert();
    const soft = await activeAlert();
    await deliver([
      { type: "bounced", recipient: bounced.email.toUpperCase(), bounceType: "hard" },
      { type: "complained", recipient: complained.email },
      { type: "bounced", recipient: soft.email, bounceType: "soft" },
      { type: "nonsense" },
    ]);
    expect([await statusOf(bounced.id), await statusOf(complained.id), await statusOf(soft.id)]).toEqual(["ended", "ended", "active"]);
    expect(await changesOf(bounced.id)).toEqual(["confirmed", "bounced:hard"]);
    expect(await changesOf(complained.id)).toEqual(["confirmed", "complained"]);
  });
});

describe("kept wanted, not tracked: the 12-month email", () => {
  it("after 12 months the alert asks once, by email, whether to keep it; the manage page's \"Keep\" renews it; without an answer in 30 days it ends, recorded", async () => {
    const kept = await alertWithEmail();
    const ignored = await alertWithEmail();
    const year = Date.now() + 366 * 86_400_000;
    const cron = async (scheduledTime: number) => {
      const from = queued.length;
      const sentBefore = sentMail.length;
      await worker.scheduled!({ cron: "0 * * * *", scheduledTime } as ScheduledController, alertsEnv());
      const sends = queued.slice(from).map((message) => message.body).filter((body) => "send" in body);
      if (sends.length) await consume(sends);
      await deliverPending();
      return sentMail.slice(sentBefore);
    };
    const asked = await cron(year);
    const keepMail = asked.find((mail) => mail.to === kept.email)!;
    expect(keepMail.subject).toMatch(/^Keep your job alert\?/);
    expect(keepMail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(asked.filter((mail) => mail.to === ignored.email)).toHaveLength(1);
    // Asked once: the next run does not ask again.
    expect((await cron(year + 3_600_000)).filter((mail) => mail.to === kept.email)).toEqual([]);
    const manage = linkIn(keepMail, "manage");
    expect(await (await page(manage)).text()).toContain("Keep this alert");
    await page(manage, form({ alert: String(kept.id), action: "keep" }));
    await cron(year + 31 * 86_400_000);
    expect(await statusOf(kept.id)).toBe("active");
    expect(await statusOf(ignored.id)).toBe("ended");
    expect(await changesOf(kept.id)).toEqual(["confirmed", "kept"]);
    expect(await changesOf(ignored.id)).toEqual(["confirmed", "expired-unanswered"]);
  });

  it("an alert asks once per year of consent: no second \"keep\" email at a later run (day 380 included), and without an answer it ends 30 days after the question, recorded (issue 46 item 3)", async () => {
    const alert = await activeAlert();
    const confirmedAt = (await env.ALERTS_DB.prepare("SELECT confirmed_at AS at FROM alerts WHERE id = ?").bind(alert.id).first<{ at: number }>())!.at;
    const day = 86_400_000;
    const keepMailsAt = async (days: number) => {
      const sentBefore = sentMail.length;
      const from = queued.length;
      await worker.scheduled!({ cron: "0 * * * *", scheduledTime: confirmedAt + days * day } as ScheduledController, alertsEnv());
      const sends = queued.slice(from).map((message) => message.body).filter((body) => "send" in body);
      if (sends.length) await consume(sends);
      await deliverPending();
      return sentMail.slice(sentBefore).filter((mail) => mail.to === alert.email && mail.subject.startsWith("Keep your job alert?")).length;
    };
    expect(await keepMailsAt(366)).toBe(1);
    for (const days of [367, 380, 395]) expect(await keepMailsAt(days), `day ${days}`).toBe(0);
    expect(await statusOf(alert.id)).toBe("active");
    // Asked on day 366: the first run past day 396 ends it, and asks nothing.
    expect(await keepMailsAt(397)).toBe(0);
    expect(await statusOf(alert.id)).toBe("ended");
    expect(await changesOf(alert.id)).toEqual(["confirmed", "expired-unanswered"]);
  });
});
