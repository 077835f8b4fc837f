import { createDatabase, type Database } from "../db/client";
import type { Env } from "../env";
import { afterResponse } from "../http/after-response";
import { disableFailingEndpoints } from "../webhooks/repository";
import { attemptDelivery } from "../webhooks/delivery";
import { DISABLE_AFTER_MS, LOG_RETENTION_MS, retryDelaySeconds } from "../webhooks/rules";
import { dueMessages, expiredMessages, findMessage, markEnqueued, recordAttempt } from "./repository";

export interface QueuedMessage {
  id: string;
}

/**
 * Hands recorded messages to the queue (after the write that recorded them is stored). With
 * `db`, the hand-over is recorded too (the sweep's and the log's re-sends); a request's own
 * hand-over is not, to spare it a write: its messages are delivered long before the sweep
 * would look at them, and a duplicate is what at-least-once allows.
 */
export async function enqueueMessages(env: Pick<Env, "WEBHOOK_QUEUE">, ids: string[], db?: Database): Promise<void> {
  if (ids.length === 0) return;
  for (let i = 0; i < ids.length; i += 100) {
    await env.WEBHOOK_QUEUE.sendBatch(ids.slice(i, i + 100).map((id) => ({ body: { id } })));
  }
  if (db) await markEnqueued(db, ids, Date.now());
}

/**
 * The queue consumer (DESIGN 13): one attempt per message; a failure is retried by the queue
 * after the schedule's delay, with the same message (the same `webhook-id`); after the last
 * attempt the message is failed. Messages already delivered or failed are acknowledged as is.
 */
export async function consumeWebhookBatch(batch: MessageBatch<QueuedMessage>, env: Env): Promise<void> {
  const db = createDatabase(env.DB);
  await Promise.all(
    batch.messages.map(async (message) => {
      const row = await findMessage(db, message.body.id);
      if (!row || row.status !== "pending") return message.ack();
      const now = Date.now();
      const outcome = await attemptDelivery(env, db, row, now);
      if (outcome.skipped) return message.ack();
      if (outcome.delivered) {
        await recordAttempt(db, row.id, { status: "delivered", statusCode: outcome.statusCode, nextAttemptAt: null });
        return message.ack();
      }
      const delay = retryDelaySeconds(row.attempts + 1);
      if (delay === null) {
        await recordAttempt(db, row.id, { status: "failed", statusCode: outcome.statusCode, nextAttemptAt: null });
        return message.ack();
      }
      await recordAttempt(db, row.id, { status: "pending", statusCode: outcome.statusCode, nextAttemptAt: now + delay * 1000 });
      message.retry({ delaySeconds: delay });
    }),
  );
}

/** How late (ms) a due message may be before the cron hands it over again. */
const SWEEP_GRACE_MS = 60_000;
const SWEEP_LIMIT = 1_000;

/**
 * The cron's share (DESIGN 13): messages due but not waiting in the queue are handed over
 * again (a Worker can die between a write and its enqueue), endpoints failing for 5 days are
 * disabled, and the log keeps 30 days. Set-based and bounded.
 */
export async function maintainWebhooks(env: Pick<Env, "DB" | "WEBHOOK_QUEUE">, now: number) {
  const db = createDatabase(env.DB);
  await db.batch([disableFailingEndpoints(db, now - DISABLE_AFTER_MS), expiredMessages(db, now - LOG_RETENTION_MS)]);
  const due = await dueMessages(db, now - SWEEP_GRACE_MS, SWEEP_LIMIT);
  await enqueueMessages(env, due, db);
  return { requeued: due.length };
}

/**
 * Hands a request's recorded messages to the queue once the answer is on its way. Should the
 * Worker die first, the messages are in the outbox and the cron's sweep hands them over.
 */
export function enqueueAfterResponse(c: { env: Env; executionCtx: { waitUntil(promise: Promise<unknown>): void } }, ids: string[]): void {
  if (ids.length) afterResponse(c, enqueueMessages(c.env, ids), "enqueue failed; the cron will sweep");
}
