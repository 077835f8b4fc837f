import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { createEmployer, request, shardDb } from "./support/api";
import { eventually, settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { handedOverUpTo, withRelayBindings } from "./support/relay";
import { recordingQueue } from "./support/webhook-queue";

// DESIGN 16a: every consumed queue has a dead-letter queue (wrangler.toml), and what lands there
// is handed back, never dropped: a notice's events to its shard's relay, which hands them to that
// subscriber again; a webhook attempt to its still-pending message, which the cron's sweep sends
// again; an email to its still-pending row, which the cron's sweep queues again.

/** A batch of the dead-letter queue `queue`, through the Worker's own queue entry; its outcome. */
async function deliverDeadLetters(queue: string, bodies: unknown[]) {
  const batch = createMessageBatch(queue, bodies.map((body, i) => ({ id: `d${i}`, timestamp: new Date(), attempts: 1, body })));
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch, env);
  return getQueueResult(batch, ctx);
}

describe("dead letters are handed back, never dropped (DESIGN 16a)", () => {
  it("job-posting-board-dlq: a notice's events are given back to the relay of the shard it names, which hands them to the board again", async () => {
    const employer = await createEmployer({ shard: 1 });
    const job = await postJob(employer, { title: "Dead Letter Clerk", status: "active" });
    const { results } = await shardDb(1).prepare("SELECT id FROM events WHERE subject_id = ? ORDER BY seq").bind(job.id).all<{ id: string }>();
    await settleBoard();
    // As if the board never took them: its notice went to the dead-letter queue instead.
    await env.BOARD_DB.batch([env.BOARD_DB.prepare("DELETE FROM board_jobs WHERE job_id = ?").bind(job.id), env.BOARD_DB.prepare("DELETE FROM board_revisions WHERE job_id = ?").bind(job.id)]);

    const result = await deliverDeadLetters("job-posting-board-dlq", [{ events: results.map((event) => event.id), shard: 1 }]);
    expect(result.ackAll).toBe(true);
    await eventually(async () => expect(await env.BOARD_DB.prepare("SELECT title, shard FROM board_jobs WHERE job_id = ?").bind(job.id).first()).toEqual({ title: "Dead Letter Clerk", shard: 1 }));
  });

  it("job-posting-webhooks-dlq: a notice's events are given back to the relay of the shard it names, which hands them to the webhooks queue again", async () => {
    const employer = await createEmployer({ shard: 1 });
    const job = await postJob(employer, { title: "Dead Letter Clerk" });
    const { id: event, seq } = (await shardDb(1).prepare("SELECT id, seq FROM events WHERE subject_id = ?").bind(job.id).first<{ id: string; seq: number }>())!;
    // Handed over once already, as when its notice went on to fail every retry.
    await handedOverUpTo(1, seq);
    const handedOver = recordingQueue();
    // The relay's webhooks queue, recorded (the Worker's own has no consumer in tests).
    await withRelayBindings(1, { WEBHOOK_QUEUE: handedOver.queue }, async () => {
      const result = await deliverDeadLetters("job-posting-webhooks-dlq", [{ events: [event], shard: 1 }]);
      expect(result.ackAll).toBe(true);
      await eventually(async () => expect(handedOver.bodies).toContainEqual({ events: [event], shard: 1 }));
    });
  });

  it("job-posting-webhooks-dlq: an attempt is handed back to its pending message, which the cron's sweep sends again", async () => {
    const employer = await createEmployer();
    const hook = await (await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: { url: "https://receiver.example/dead" } })).json<any>();
    const id = `msg_${"dd".repeat(16)}`;
    const now = Date.now();
    // Due two minutes ago and marked as waiting in the queue since: the sweep would leave it there.
    await env.DB.prepare(
      `INSERT INTO webhook_messages (id, employer_id, endpoint_id, type, occurred_at, data, status, attempts, next_attempt_at, created_at, enqueued_at)
       VALUES (?, ?, ?, 'webhook.test', ?, '{}', 'pending', 3, ?, ?, ?)`,
    )
      .bind(id, employer.employerId, hook.id, now, now - 120_000, now, now)
      .run();

    expect((await deliverDeadLetters("job-posting-webhooks-dlq", [{ id, shard: 0 }])).ackAll).toBe(true);

    const swept = recordingQueue();
    await worker.scheduled({ cron: "0 * * * *", scheduledTime: now } as ScheduledController, { ...env, WEBHOOK_QUEUE: swept.queue });
    expect(swept.bodies).toContainEqual({ id, shard: 0 });
  });

  it("job-posting-emails-dlq: no email is sent from a dead letter; the copy stays pending and the cron's sweep queues it again", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { status: "active" });
    const received = Date.now() - 10 * 60_000;
    const { id } = (await env.DB.prepare(
      "INSERT INTO applications (job_id, employer_id, name, email, received_at, email_status) VALUES (?, ?, 'Dead Letter', 'dl@example.com', ?, 'pending') RETURNING id",
    )
      .bind(job.id, employer.employerId, received)
      .first<{ id: number }>())!;
    let sent = 0;
    const batch = createMessageBatch("job-posting-emails-dlq", [{ id: "e0", timestamp: new Date(), attempts: 1, body: { applicationId: id } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch as MessageBatch, { ...env, EMAIL: { send: async () => void sent++ } as unknown as SendEmail });
    expect((await getQueueResult(batch, ctx)).ackAll).toBe(true);
    expect(sent).toBe(0);
    expect(await env.DB.prepare("SELECT email_status AS status FROM applications WHERE id = ?").bind(id).first()).toEqual({ status: "pending" });

    const queued: unknown[] = [];
    const emailQueue = { sendBatch: async (messages: { body: unknown }[]) => void queued.push(...messages.map((m) => m.body)) } as unknown as Queue;
    await worker.scheduled({ cron: "0 * * * *", scheduledTime: Date.now() } as ScheduledController, { ...env, EMAIL_QUEUE: emailQueue });
    expect(queued).toContainEqual({ applicationId: id, shard: 0 });
  });
});
