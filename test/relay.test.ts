import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../src/db/client";
import { handOver, type EventSubscriber } from "../src/events/dispatch";
import { retireEvents } from "../src/events/repository";
import type { Env } from "../src/env";
import worker from "../src/index";
import { atShard } from "../src/shards/bindings";
import { API, createEmployer, request, shardDb, type TestEmployer } from "./support/api";
import { eventually, settleBoard } from "./support/board";
import { jobBody, postJob } from "./support/jobs";
import { handedOverUpTo, relayOf, seqOf } from "./support/relay";

// DESIGN 22: one relay per shard (a Durable Object) drains the shard's outbox in recording order
// after a cursor of its own; a request writes nothing but its own batch and pokes the relay after
// the answer; the relay's alarm finds the events even when a poke is lost. At least once.

const DAY = 86_400_000;

/** The newest event of `who`'s shard that `who` recorded. */
async function lastEventOf(who: TestEmployer): Promise<{ id: string; seq: number }> {
  return (await shardDb(who.shard).prepare("SELECT id, seq FROM events WHERE employer_id = ? ORDER BY seq DESC LIMIT 1").bind(who.employerId).first())!;
}

/** Relays that never answer: the Worker died between its answer and the poke. */
const lostRelays = { idFromName: (name: string) => env.RELAY.idFromName(name), get: () => ({ poke: async () => Promise.reject(new Error("poke lost")) }) } as unknown as Env["RELAY"];

/** A write through the Worker whose poke is lost. */
async function writeWithoutPoke(who: TestEmployer, json: unknown): Promise<Response> {
  const pending: Promise<unknown>[] = [];
  const res = await worker.fetch(
    new Request(`${API}/jobs`, { method: "POST", headers: { "API-Key": who.apiKey, "Content-Type": "application/json" }, body: JSON.stringify(json) }),
    { ...env, RELAY: lostRelays },
    { waitUntil: (work: Promise<unknown>) => void pending.push(work), passThroughOnException: () => {} } as unknown as ExecutionContext,
  );
  await Promise.all(pending);
  return res;
}

interface RelayState {
  shard: number;
  cursor: number;
  activeAt: number;
  retiredAt: number;
}
const relayState = (shard: number) => runInDurableObject(relayOf(shard), (_, state) => state.storage.get<RelayState>("state"));
const setRelayState = (shard: number, change: Partial<RelayState>) =>
  runInDurableObject(relayOf(shard), async (_, state) => state.storage.put("state", { ...(await state.storage.get<RelayState>("state")), ...change }));

describe("a relay per shard hands its events over (DESIGN 22)", () => {
  for (const shard of [0, 1]) {
    it(`shard ${shard}: a write pokes its shard's relay, whose cursor passes the write's events within seconds; the board has the job`, async () => {
      const employer = await createEmployer({ shard });
      const job = await postJob(employer, { title: `Relay Clerk ${shard}`, status: "active" });
      const event = await lastEventOf(employer);
      await handedOverUpTo(shard, event.seq, 5_000);
      expect((await relayOf(shard).position()).shard).toBe(shard);
      await settleBoard();
      expect(await env.BOARD_DB.prepare("SELECT shard FROM board_jobs WHERE job_id = ?").bind(job.id).first()).toEqual({ shard });
    });
  }

  it("a lost poke (the Worker died after its answer): the relay's own alarm finds the events within seconds", async () => {
    const employer = await createEmployer({ shard: 1 });
    await postJob(employer);
    await handedOverUpTo(1, (await lastEventOf(employer)).seq);
    expect((await writeWithoutPoke(employer, jobBody({ title: "Unpoked" }))).status).toBe(201);
    const event = await lastEventOf(employer);
    expect((await relayOf(1).position()).cursor).toBeLessThan(event.seq);
    await handedOverUpTo(1, event.seq, 5_000);
  });

  it("a relay whose alarm was lost too starts again at the cron's poke, and hands over what waited", async () => {
    const employer = await createEmployer();
    await postJob(employer);
    await handedOverUpTo(0, (await lastEventOf(employer)).seq);
    await runInDurableObject(relayOf(0), (_, state) => state.storage.deleteAlarm());
    await writeWithoutPoke(employer, jobBody({ title: "Waiting for the cron" }));
    const event = await lastEventOf(employer);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await relayOf(0).position()).cursor).toBeLessThan(event.seq);
    await worker.scheduled({ cron: "0 * * * *", scheduledTime: Date.now() } as ScheduledController, env);
    await handedOverUpTo(0, event.seq, 5_000);
  });

  it("a crash between the hand-over and the cursor: the same events are handed over again, and the board applies them once", async () => {
    const employer = await createEmployer({ shard: 1 });
    const job = await postJob(employer, { status: "active" });
    expect((await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Renamed Once" } })).status).toBe(200);
    const event = await lastEventOf(employer);
    await handedOverUpTo(1, event.seq);
    await settleBoard();
    const before = await env.BOARD_DB.prepare("SELECT revision, title FROM board_jobs WHERE job_id = ?").bind(job.id).first();
    // The cursor as if the relay died after handing the employer's events over, before moving it.
    await setRelayState(1, { cursor: (await seqOf(1, event.id)) - 3 });
    expect(await runDurableObjectAlarm(relayOf(1))).toBe(true);
    expect((await relayOf(1).position()).cursor).toBeGreaterThanOrEqual(event.seq);
    await settleBoard();
    expect(await env.BOARD_DB.prepare("SELECT revision, title FROM board_jobs WHERE job_id = ?").bind(job.id).first()).toEqual(before);
    expect(before).toMatchObject({ revision: 2, title: "Renamed Once" });
  });

  it("hand-over: each subscriber gets only the event types it accepts, in recording order, in notices naming the shard", async () => {
    const received: Record<string, unknown[]> = { a: [], b: [] };
    const subscriber = (name: string, accepts: (type: string) => boolean, eventsPerNotice?: number): EventSubscriber => ({
      name,
      accepts,
      eventsPerNotice,
      queue: () => ({ sendBatch: async (messages: { body: unknown }[]) => void received[name].push(...messages.map((m) => m.body)) }) as unknown as Queue,
      taken: async () => [],
    });
    const events = ["job.created", "application.received", "job.updated", "job.deleted"].map((type, i) => ({ id: `evt_${i}`, type }));
    await handOver(atShard(env, 1), [subscriber("a", (type) => type.startsWith("job."), 2), subscriber("b", (type) => type.startsWith("application."))], events);
    expect(received.a).toEqual([
      { events: ["evt_0", "evt_2"], shard: 1 },
      { events: ["evt_3"], shard: 1 },
    ]);
    expect(received.b).toEqual([{ events: ["evt_1"], shard: 1 }]);
  });
});

describe("retention by the relay (DESIGN 22)", () => {
  it("events the relay has passed are deleted once a week old; younger ones are kept", async () => {
    const employer = await createEmployer();
    await postJob(employer);
    const young = await lastEventOf(employer);
    const old = `evt_${"0e".repeat(16)}`;
    await env.DB.prepare("INSERT INTO events (id, type, employer_id, subject_id, revision, occurred_at, data) VALUES (?, 'test.retention', ?, 0, NULL, ?, '{}')")
      .bind(old, employer.employerId, Date.now() - 8 * DAY)
      .run();
    const oldSeq = await seqOf(0, old);
    await relayOf(0).poke(0);
    await handedOverUpTo(0, oldSeq);
    await setRelayState(0, { retiredAt: 0 });
    await eventually(async () => {
      await runDurableObjectAlarm(relayOf(0));
      expect((await relayState(0))!.retiredAt).toBeGreaterThan(0);
    });
    expect(await env.DB.prepare("SELECT id FROM events WHERE id IN (?, ?)").bind(old, young.id).all().then((r) => r.results)).toEqual([{ id: young.id }]);
  });

  it("an event the relay has not passed is kept, whatever its age", async () => {
    const employer = await createEmployer();
    const old = `evt_${"0f".repeat(16)}`;
    await env.DB.prepare("INSERT INTO events (id, type, employer_id, subject_id, revision, occurred_at, data) VALUES (?, 'test.retention', ?, 0, NULL, ?, '{}')")
      .bind(old, employer.employerId, Date.now() - 30 * DAY)
      .run();
    const seq = await seqOf(0, old);
    await retireEvents(createDatabase(env.DB), seq - 1, Date.now() - 7 * DAY, 1_000);
    expect(await env.DB.prepare("SELECT id FROM events WHERE id = ?").bind(old).first()).toEqual({ id: old });
    await retireEvents(createDatabase(env.DB), seq, Date.now() - 7 * DAY, 1_000);
    expect(await env.DB.prepare("SELECT id FROM events WHERE id = ?").bind(old).first()).toBeNull();
  });
});

