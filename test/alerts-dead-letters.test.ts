import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { createEmployer, shardDb } from "./support/api";
import { eventually } from "./support/board";
import { postJob } from "./support/jobs";
import { handedOverUpTo, withRelayBindings } from "./support/relay";
import { recordingQueue } from "./support/webhook-queue";
import { alertBody, postAlert } from "./support/alerts";

// DESIGN 16a, 23: the alerts queue (job-posting-alerts) has a dead-letter queue whose consumer
// gives a notice's events back to the relay of their shard, never dropping them; an email to send
// stays pending in the ledger, and the cron's sweep hands it over again.

async function deliverDeadLetters(queue: string, bodies: unknown[]) {
  const batch = createMessageBatch(queue, bodies.map((body, i) => ({ id: `d${i}`, timestamp: new Date(), attempts: 1, body })));
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch, env);
  return getQueueResult(batch, ctx);
}
const entry = exports.default as typeof exports.default & { scheduled(controller: { scheduledTime: number; cron: string }): Promise<void> };

describe("alerts' dead letters are handed back, never dropped (DESIGN 16a)", () => {
  it("job-posting-alerts-dlq: a notice's events are given back to the relay of the shard it names, which hands them to the alerts queue again", async () => {
    const employer = await createEmployer({ shard: 1 });
    const job = await postJob(employer, { title: "Dead Letter Alert Clerk", status: "active" });
    const { id: event, seq } = (await shardDb(1).prepare("SELECT id, seq FROM events WHERE subject_id = ? ORDER BY seq DESC").bind(job.id).first<{ id: string; seq: number }>())!;
    await handedOverUpTo(1, seq);
    const handedOver = recordingQueue();
    await withRelayBindings(1, { ALERTS_QUEUE: handedOver.queue as never }, async () => {
      const result = await deliverDeadLetters("job-posting-alerts-dlq", [{ events: [event], shard: 1 }]);
      expect(result.ackAll).toBe(true);
      await eventually(async () => expect(handedOver.bodies).toContainEqual({ events: [event], shard: 1 }));
    });
  });

  it("job-posting-alerts-dlq: an email to send is acknowledged and stays pending in the ledger; the cron's sweep hands it to the queue again", async () => {
    const body = alertBody();
    expect((await postAlert(body)).status).toBe(202);
    const { id } = (await env.ALERTS_DB.prepare("SELECT s.id FROM alert_sends s JOIN alerts a ON a.id = s.alert_id WHERE a.email = ?").bind(body.email).first<{ id: number }>())!;
    const result = await deliverDeadLetters("job-posting-alerts-dlq", [{ send: id }]);
    expect(result.ackAll).toBe(true);
    expect(await env.ALERTS_DB.prepare("SELECT status FROM alert_sends WHERE id = ?").bind(id).first()).toEqual({ status: "pending" });
    const log = await new Promise<unknown>((resolve) => {
      const original = console.log;
      console.log = (line: string) => {
        console.log = original;
        resolve(JSON.parse(line));
      };
      void entry.scheduled({ cron: "0 * * * *", scheduledTime: Date.now() + 120_000 });
    });
    expect((log as { alerts: { alertEmails: { requeued: number } } }).alerts.alertEmails.requeued).toBeGreaterThanOrEqual(1);
  });
});
