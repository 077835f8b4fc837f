import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { WebhookQueueBody } from "../src/webhooks/consumer";
import { RECEIPT_RETENTION_MS } from "../src/events/receipts";
import { TAKE_WITHIN_MS } from "../src/events/relay";
import worker from "../src/index";
import { consume } from "./support/alerts";
import { createEmployer, request, shardDb, type TestEmployer } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { handedOverUpTo, relayOf, withRelayBindings } from "./support/relay";
import { fanOut, recordingQueue } from "./support/webhook-queue";

// DESIGN 16a: handing over is not taking. Each subscriber's consumer records a receipt per event
// in the batch of its effect; the relay hands over again, every 5 minutes, every event it handed
// over at least 5 minutes ago that a subscriber accepts and has not taken, until it is taken or its
// retention ends. Every subscriber is idempotent, so an event taken twice has its effect once.

/** The events `who` recorded for job `jobId`, in recording order. */
async function eventsOfJob(who: TestEmployer, jobId: number): Promise<{ id: string; seq: number; type: string }[]> {
  const { results } = await shardDb(who.shard).prepare("SELECT id, seq, type FROM events WHERE subject_id = ? AND type LIKE 'job.%' ORDER BY seq").bind(jobId).all<{ id: string; seq: number; type: string }>();
  return results;
}

/** Of `ids`, those with a receipt in `table` of `db`. */
async function receipted(db: D1Database, table: string, ids: string[]): Promise<string[]> {
  const { results } = await db.prepare(`SELECT event_id AS id FROM ${table} WHERE shard = 0 AND event_id IN (SELECT value FROM json_each(?)) ORDER BY event_id`).bind(JSON.stringify(ids)).all<{ id: string }>();
  return results.map((row) => row.id);
}

interface Outstanding {
  id: string;
  seq: number;
  at: number;
}

/** Five minutes pass for shard 0's relay: what it handed over (and handed over again) is that much older, and its next alarm checks. */
async function fiveMinutesLater(): Promise<void> {
  await runInDurableObject(relayOf(0), async (_, state) => {
    const relay = (await state.storage.get<{ marks?: [number, number][] }>("state"))!;
    await state.storage.put("state", { ...relay, checkedAt: 0, marks: (relay.marks ?? []).map(([seq, at]) => [seq, at - TAKE_WITHIN_MS]) });
    for (const [key, list] of await state.storage.list<Outstanding[]>({ prefix: "outstanding:" })) {
      await state.storage.put(key, list.map((event) => ({ ...event, at: event.at - TAKE_WITHIN_MS })));
    }
  });
  await runInDurableObject(relayOf(0), (_, state) => state.storage.setAlarm(Date.now()));
  expect(await runDurableObjectAlarm(relayOf(0))).toBe(true);
}

const outstandingOf = (subscriber: string) => runInDurableObject(relayOf(0), async (_, state) => ((await state.storage.get<Outstanding[]>(`outstanding:${subscriber}`)) ?? []).map((event) => event.id));

/** A queue that loses everything handed to it (a local crash, an operator's purge). */
const losingQueue = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;

describe("receipts (DESIGN 16a)", () => {
  it("each consumer records a receipt for every event it took, in the batch of its effect: the board's, the alerts', the webhooks' fan-out", async () => {
    const employer = await createEmployer({ name: "Receipts Ltd." });
    const job = await postJob(employer, { title: "Receipt Clerk", status: "active" });
    const events = await eventsOfJob(employer, job.id);
    const ids = events.map((event) => event.id).sort();
    await handedOverUpTo(0, events.at(-1)!.seq);
    await settleBoard();
    expect(await receipted(env.BOARD_DB, "board_receipts", ids)).toEqual(ids);
    // Alerts and webhooks have no consumer behind the tests' back: driven here, as their queue would.
    expect(await receipted(env.ALERTS_DB, "alert_receipts", ids)).toEqual([]);
    await consume([{ events: ids, shard: 0 }]);
    expect(await receipted(env.ALERTS_DB, "alert_receipts", ids)).toEqual(ids);
    expect(await receipted(env.DB, "webhook_receipts", ids)).toEqual([]);
    await fanOut([{ events: ids, shard: 0 }]);
    expect(await receipted(env.DB, "webhook_receipts", ids)).toEqual(ids);
  });

  it("receipts are kept past the events' own retention (8 days), then the cron deletes them, in each subscriber's database", async () => {
    const now = Date.now();
    const tables: [D1Database, string][] = [[env.DB, "webhook_receipts"], [env.BOARD_DB, "board_receipts"], [env.ALERTS_DB, "alert_receipts"]];
    for (const [db, table] of tables) {
      await db.prepare(`INSERT INTO ${table} (shard, event_id, taken_at) VALUES (0, 'evt_old', ?), (0, 'evt_kept', ?)`).bind(now - RECEIPT_RETENTION_MS - 60_000, now - RECEIPT_RETENTION_MS + 3_600_000).run();
    }
    await worker.scheduled!({ cron: "0 * * * *", scheduledTime: now } as ScheduledController, env);
    for (const [db, table] of tables) {
      expect(await receipted(db, table, ["evt_old", "evt_kept"])).toEqual(["evt_kept"]);
    }
  });
});

describe("the relay hands over again what was not taken (DESIGN 16a)", () => {
  it("a notice the board queue lost: 5 minutes after the hand-over the relay hands its events over again, and the board shows the job once, at its revision", async () => {
    const employer = await createEmployer({ name: "Lost Notice Ltd." });
    const job = await withRelayBindings(0, { BOARD_QUEUE: losingQueue }, async () => {
      const created = await postJob(employer, { title: "Lost Notice Clerk", status: "active" });
      await handedOverUpTo(0, (await eventsOfJob(employer, created.id)).at(-1)!.seq);
      return created;
    });
    expect(await env.BOARD_DB.prepare("SELECT count(*) AS n FROM board_jobs WHERE job_id = ?").bind(job.id).first()).toEqual({ n: 0 });
    const ids = (await eventsOfJob(employer, job.id)).map((event) => event.id).sort();
    expect(await receipted(env.BOARD_DB, "board_receipts", ids)).toEqual([]);

    await fiveMinutesLater();
    await settleBoard();
    const { revision } = (await env.DB.prepare("SELECT revision FROM jobs WHERE id = ?").bind(job.id).first<{ revision: number }>())!;
    expect(await env.BOARD_DB.prepare("SELECT revision, title FROM board_jobs WHERE job_id = ?").bind(job.id).all()).toMatchObject({ results: [{ revision, title: "Lost Notice Clerk" }] });
    expect(await receipted(env.BOARD_DB, "board_receipts", ids)).toEqual(ids);
    // The next check finds them taken: nothing of them waits any more.
    await fiveMinutesLater();
    expect((await outstandingOf("board")).filter((id) => ids.includes(id))).toEqual([]);
  });

  it("an event not taken is handed over again every 5 minutes, never sooner, until taken; then never again, and the fan-out made one message per endpoint", async () => {
    const employer = await createEmployer({ name: "Until Taken Ltd." });
    expect((await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: { url: "https://receiver.example.com/hook" } })).status).toBe(201);
    const webhooks = recordingQueue();
    const handedAgain = async () => webhooks.bodies.splice(0).flatMap((body) => ("events" in body ? body.events : []));
    await withRelayBindings(0, { WEBHOOK_QUEUE: webhooks.queue }, async () => {
      const job = await postJob(employer, { title: "Until Taken Clerk", status: "active" });
      const ids = (await eventsOfJob(employer, job.id)).map((event) => event.id);
      await handedOverUpTo(0, (await eventsOfJob(employer, job.id)).at(-1)!.seq);
      // The first hand-over, lost with the queue.
      expect(await handedAgain()).toEqual(expect.arrayContaining(ids));
      await fiveMinutesLater();
      expect(await handedAgain()).toEqual(expect.arrayContaining(ids));
      expect(await outstandingOf("webhooks")).toEqual(expect.arrayContaining(ids));
      // A check within the 5 minutes hands nothing over again.
      await runInDurableObject(relayOf(0), async (_, state) => state.storage.put("state", { ...(await state.storage.get<object>("state")), checkedAt: 0 }));
      await runInDurableObject(relayOf(0), (_, state) => state.storage.setAlarm(Date.now()));
      await runDurableObjectAlarm(relayOf(0));
      expect((await handedAgain()).filter((id) => ids.includes(id)), "within 5 minutes").toEqual([]);
      // Taken (twice: the hand-over came again), then checked: never handed over again.
      const notice: WebhookQueueBody = { events: ids, shard: 0 };
      await fanOut([notice]);
      await fanOut([notice]);
      await fiveMinutesLater();
      expect((await handedAgain()).filter((id) => ids.includes(id)), "once taken").toEqual([]);
      expect((await outstandingOf("webhooks")).filter((id) => ids.includes(id))).toEqual([]);
      const { results } = await env.DB.prepare("SELECT event_id AS id, count(*) AS n FROM webhook_messages WHERE event_id IN (SELECT value FROM json_each(?)) GROUP BY event_id").bind(JSON.stringify(ids)).all<{ n: number }>();
      expect(results.map((row) => row.n)).toEqual(ids.map(() => 1));
    });
  });

  it("an event whose retention ended is no longer handed over", async () => {
    const employer = await createEmployer({ name: "Retired Ltd." });
    const webhooks = recordingQueue();
    await withRelayBindings(0, { WEBHOOK_QUEUE: webhooks.queue }, async () => {
      const job = await postJob(employer, { title: "Retired Clerk", status: "active" });
      const events = await eventsOfJob(employer, job.id);
      await handedOverUpTo(0, events.at(-1)!.seq);
      await fiveMinutesLater();
      expect(await outstandingOf("webhooks")).toEqual(expect.arrayContaining(events.map((event) => event.id)));
      await env.DB.prepare("DELETE FROM events WHERE subject_id = ? AND type LIKE 'job.%'").bind(job.id).run();
      webhooks.bodies.splice(0);
      await fiveMinutesLater();
      expect(webhooks.bodies.flatMap((body) => ("events" in body ? body.events : [])).filter((id) => events.some((event) => event.id === id))).toEqual([]);
      expect((await outstandingOf("webhooks")).filter((id) => events.some((event) => event.id === id))).toEqual([]);
    });
  });
});
