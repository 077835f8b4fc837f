import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { consumeWebhookBatch, type WebhookQueueBody } from "../src/webhooks/consumer";
import { createEmployer, type TestEmployer } from "./support/api";
import { jobBody } from "./support/jobs";
import { handedOverUpTo } from "./support/relay";
import { batchOf, call, fanOut, messageIdsIn, recordingQueue } from "./support/webhook-queue";

// DESIGN 16: events record every change in their own outbox, whoever listens, and hand each one
// to every subscriber's queue; webhooks react through their own consumer and their own tables.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface OutboxRow {
  seq: number;
  id: string;
  type: string;
  subjectId: number;
  revision: number | null;
}

const outboxOf = async (employerId: number) =>
  (
    await env.DB.prepare(
      "SELECT seq, id, type, subject_id AS subjectId, revision FROM events WHERE employer_id = ? ORDER BY seq",
    )
      .bind(employerId)
      .all<OutboxRow>()
  ).results;

const messagesOf = async (employerId: number) =>
  (await env.DB.prepare("SELECT id, type, status FROM webhook_messages WHERE employer_id = ? ORDER BY rowid").bind(employerId).all<any>()).results;


/** The Cron Trigger at `scheduledTime` (ms), handing over to `queue`. */
const cron = (scheduledTime: number, queue: Queue<WebhookQueueBody>) =>
  worker.scheduled({ cron: "0 * * * *", scheduledTime } as ScheduledController, { ...env, WEBHOOK_QUEUE: queue });

async function subscribe(who: TestEmployer, events: string[] = []) {
  return (await call(who, "/webhooks", { method: "POST", json: { url: "https://receiver.example/hooks", events } })).res.json<any>();
}

function receiver() {
  const received: { headers: Record<string, string>; body: string }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
    return new Response(null, { status: 200 });
  });
  return received;
}

afterEach(() => vi.restoreAllMocks());

describe("the outbox records every change (DESIGN 16)", () => {
  it("every change records exactly its events in the outbox, in recording order, even with no endpoint; its shard's relay hands them over", async () => {
    const employer = await createEmployer({ plan: "unlimited" });
    const noticed: string[] = [];
    const write = async (path: string, init: { method: string; json?: unknown }) => {
      const result = await call(employer, path, init);
      noticed.push(...result.noticed);
      return result.res;
    };
    const created = await (await write("/jobs", { method: "POST", json: jobBody({ referenceId: "OUT-1", status: "active" }) })).json<any>();
    await write(`/jobs/${created.id}`, { method: "PUT", json: { title: "Renamed" } });
    await write(`/jobs/${created.id}`, { method: "PUT", json: { title: "Renamed" } });
    await write(`/jobs/${created.id}`, { method: "PUT", json: { status: "archived" } });
    const batch = await (await write("/jobs/batch", { method: "POST", json: { upsert: [jobBody({ referenceId: "OUT-2" })], delete: [{ referenceId: "OUT-1" }] } })).json<any>();
    const second = batch.results[0].job.id;
    await write(`/jobs/${second}`, { method: "DELETE" });

    const outbox = await outboxOf(employer.employerId);
    expect(outbox.map(({ type, subjectId, revision }) => ({ type, subjectId, revision }))).toEqual([
      { type: "job.created", subjectId: created.id, revision: 1 },
      { type: "job.published", subjectId: created.id, revision: 1 },
      { type: "job.updated", subjectId: created.id, revision: 2 },
      // (The PUT that changed nothing recorded nothing.)
      { type: "job.updated", subjectId: created.id, revision: 3 },
      { type: "job.archived", subjectId: created.id, revision: 3 },
      { type: "job.created", subjectId: second, revision: 1 },
      { type: "job.deleted", subjectId: created.id, revision: 3 },
      { type: "job.deleted", subjectId: second, revision: 1 },
    ]);
    expect(noticed).toEqual(outbox.map((event) => event.id));
    await handedOverUpTo(0, outbox.at(-1)!.seq);
    // Nobody listens: nothing to deliver.
    expect(await messagesOf(employer.employerId)).toEqual([]);
  });

  it("the cron records job.expired and job.refreshed for every employer, listening or not", async () => {
    const employer = await createEmployer({ plan: "unlimited" });
    const now = Date.now();
    const soon = new Date(now + MINUTE).toISOString().replace(/\.\d+Z$/, "Z");
    const expiring = await (await call(employer, "/jobs", { method: "POST", json: jobBody({ status: "active", closeDate: soon }) })).res.json<any>();
    const refreshing = await (await call(employer, "/jobs", { method: "POST", json: jobBody({ status: "active", autoRefresh: true }) })).res.json<any>();
    await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - 8 * 86400 WHERE id = ?").bind(refreshing.id).run();
    await cron(now + HOUR, recordingQueue().queue);
    const recorded = (await outboxOf(employer.employerId)).slice(-2);
    expect(recorded.map(({ type, subjectId, revision }) => ({ type, subjectId, revision })).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { type: "job.expired", subjectId: expiring.id, revision: 2 },
      { type: "job.refreshed", subjectId: refreshing.id, revision: 2 },
    ]);
    await handedOverUpTo(0, Math.max(...recorded.map((event) => event.seq)));
  });

  it("application.received is recorded with the application", async () => {
    const employer = await createEmployer();
    const job = await (
      await call(employer, "/jobs", { method: "POST", json: jobBody({ status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@outbox.example" }) })
    ).res.json<any>();
    const res = await worker.fetch(
      new Request(`https://api.test/api/v1.1/board/jobs/${job.id}/applications`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.7" },
        body: JSON.stringify({ name: "Ada", email: "ada@example.com" }),
      }),
      { ...env, WEBHOOK_QUEUE: recordingQueue().queue },
      { waitUntil: () => {} } as unknown as ExecutionContext,
    );
    const application = await res.json<any>();
    expect((await outboxOf(employer.employerId)).at(-1)).toMatchObject({ type: "application.received", subjectId: application.id, revision: null });
  });
});

describe("dispatch and fan-out (DESIGN 16)", () => {
  it("a repeated event id to the webhooks consumer makes no second message", async () => {
    const employer = await createEmployer();
    await subscribe(employer, ["job.created"]);
    const { noticed, sent } = await call(employer, "/jobs", { method: "POST", json: jobBody() });
    expect(sent).toHaveLength(1);
    expect(await fanOut([{ events: noticed }])).toEqual([]);
    expect(await fanOut([{ events: noticed }, { events: noticed }])).toEqual([]);
    expect(await messagesOf(employer.employerId)).toEqual([{ id: sent[0], type: "job.created", status: "pending" }]);
  });

  it("a stored pending webhook message from before the migration (no event id) is still delivered, by the queue and by the cron's sweep", async () => {
    const employer = await createEmployer();
    const endpoint = await subscribe(employer);
    const job = await (await call(employer, "/jobs", { method: "POST", json: jobBody({ title: "Stored before" }) })).res.json<any>();
    const snapshot = await env.DB.prepare("SELECT json_object('job', json(data) -> '$.job') AS data FROM events WHERE subject_id = ? AND type = 'job.created'")
      .bind(job.id)
      .first<{ data: string }>();
    // The row exactly as the outbox wrote it before events had their own table.
    const id = `msg_${"ab".repeat(16)}`;
    const occurredAt = Date.now() - DAY;
    await env.DB.prepare(
      `INSERT INTO webhook_messages (id, employer_id, endpoint_id, type, occurred_at, data, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, 'job.created', ?, ?, 'pending', 0, ?, ?)`,
    )
      .bind(id, employer.employerId, endpoint.id, occurredAt, snapshot!.data, occurredAt, occurredAt)
      .run();

    const queue = recordingQueue();
    await cron(Date.now(), queue.queue);
    expect(messageIdsIn(queue.bodies)).toContain(id);
    const received = receiver();
    await consumeWebhookBatch(batchOf([id]).batch, env);
    expect(received.map((delivery) => delivery.headers["webhook-id"])).toEqual([id]);
    const payload = JSON.parse(received[0].body);
    expect(payload).toMatchObject({ type: "job.created", timestamp: new Date(occurredAt).toISOString(), data: { job: { id: job.id, title: "Stored before" }, revision: 1 } });
    const log = await (await call(employer, `/webhooks/${endpoint.id}/deliveries`)).res.json<any>();
    expect(log.data.find((entry: any) => entry.id === id)).toMatchObject({ status: "delivered", attempts: 1 });
  });
});
