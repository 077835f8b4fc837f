import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { expiredReceipts } from "../events/receipts";
import { runChunked, type Bounds } from "../scheduled/chunks";
import { type Chunk } from "../db/windows";
import { enqueueMessages } from "./consumer";
import { dueMessages, expiredMessages } from "./messages";
import { disableFailingEndpoints } from "./repository";
import { webhookReceipts } from "./tables";
import { DISABLE_AFTER_MS, LOG_RETENTION_MS } from "./rules";

/** How late (ms) a due message may be before the cron hands it over again. */
const SWEEP_GRACE_MS = 60_000;
const SWEEP_LIMIT = 1_000;

/**
 * The cron's share (DESIGN 13): messages due but not waiting in the queue are handed over
 * again (a Worker can die between a fan-out and its enqueue), endpoints failing for 5 days are
 * disabled (in the same round trip as the log's first chunk), and the log keeps 30 days, a
 * chunk at a time; the fan-out's receipts (DESIGN 16a) are pruned. Set-based and bounded.
 */
export async function maintainWebhooks(env: Pick<Env, "DB" | "WEBHOOK_QUEUE">, now: number, bounds: Bounds) {
  const db = createDatabase(env.DB);
  const log = { rule: "webhook-log", chunk: (chunk: Chunk) => expiredMessages(db, now - LOG_RETENTION_MS, chunk) };
  const receipts = { rule: "webhook-receipts", chunk: (chunk: Chunk) => expiredReceipts(webhookReceipts, now, chunk) };
  const { rules } = await runChunked(db, [log, receipts], bounds, { alongside: [disableFailingEndpoints(db, now - DISABLE_AFTER_MS)] });
  const due = await dueMessages(db, now - SWEEP_GRACE_MS, SWEEP_LIMIT);
  await enqueueMessages(env, due, db);
  return { requeued: due.length, rules };
}
