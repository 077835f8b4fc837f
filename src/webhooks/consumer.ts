import { createDatabase, type Database } from "../db/client";
import type { EventNotice } from "../events/dispatch";
import { takeEvents } from "../events/receipts";
import { findEvents, type EventRecord } from "../events/repository";
import { retryDelaySeconds } from "../events/retry-schedule";
import type { Env } from "../env";
import { atShard, isShard, shardOf } from "../shards/bindings";
import { attemptDelivery } from "./delivery";
import { findMessage, insertEventMessages, markEnqueued, recordAttempt } from "./messages";
import { employersWithEnabledEndpoints } from "./repository";
import { webhookReceipts } from "./tables";

/** A message to attempt, in the shard it names (DESIGN 22; absent: 0, as in messages sent before shards). */
export interface QueuedMessage {
  id: string;
  shard?: number;
}

/** What the webhooks queue carries: events to fan out, or a message to attempt. */
export type WebhookQueueBody = EventNotice | QueuedMessage;

/**
 * Hands messages to the queue. With `db`, the hand-over is recorded too (the sweep's and the
 * log's re-sends); the fan-out's is not, to spare it a write: its messages are delivered long
 * before the sweep would look at them, and a duplicate is what at-least-once allows.
 */
export async function enqueueMessages(env: Pick<Env, "WEBHOOK_QUEUE" | "SHARD">, ids: string[], db?: Database): Promise<void> {
  if (ids.length === 0) return;
  const shard = shardOf(env);
  for (let i = 0; i < ids.length; i += 100) {
    await env.WEBHOOK_QUEUE.sendBatch(ids.slice(i, i + 100).map((id): { body: QueuedMessage } => ({ body: { id, shard } })));
  }
  if (db) await markEnqueued(db, ids, Date.now());
}

/** Shards followed from the one an event was recorded in, at most (a chain of moves). */
const MAX_FOLLOWS = 3;
/** DESIGN 22: the events or attempts of an employer being moved wait this long, then come again. */
const WHILE_MOVING_DELAY_SECONDS = 30;

/**
 * Events handed over by events (DESIGN 16) become messages for the endpoints that listen, in the
 * shard `env` names, which go back to the queue for their first attempt. Should the hand-over fail
 * after the messages were written, the cron's sweep hands them over. DESIGN 22: an event stays in
 * the outbox of the shard it was recorded in, while its employer may have moved since: its
 * endpoints and messages are then in the shard it moved to, where it is fanned out. Returns the
 * events that waited for an employer being moved (the notice comes again for them; the others
 * make no second message then: one per event and endpoint).
 * DESIGN 16a: in the shard that recorded them, the events taken get their receipts in the batch
 * of their messages; those fanned out in the shard their employer moved to, once that is done.
 */
async function fanOut(env: Env, db: Database, events: EventRecord[], follows = 0): Promise<Set<string>> {
  const { listening, locked } = await employersWithEnabledEndpoints(db, events.map((event) => event.employerId));
  const here = events.filter((event) => !locked.has(event.employerId));
  const now = Date.now();
  const recording = follows === 0;
  const receipts = recording && here.length ? [takeEvents(webhookReceipts, shardOf(env), here.map((event) => event.id), now)] : [];
  const messages = await insertEventMessages(db, here.filter((event) => listening.has(event.employerId)), listening, now, receipts);
  await enqueueMessages(env, messages);
  const waiting = new Set(events.filter((event) => locked.get(event.employerId) === null).map((event) => event.id));
  const moved = Map.groupBy(
    events.filter((event) => locked.get(event.employerId) != null),
    (event) => locked.get(event.employerId)!,
  );
  for (const [shard, theirs] of moved) {
    if (follows >= MAX_FOLLOWS || !isShard(env, shard)) continue;
    const there = atShard(env, shard);
    for (const id of await fanOut(there, createDatabase(there.DB), theirs, follows + 1)) waiting.add(id);
  }
  if (recording && moved.size) {
    const taken = [...moved.values()].flat().filter((event) => !waiting.has(event.id)).map((event) => event.id);
    if (taken.length) await db.run(takeEvents(webhookReceipts, shardOf(env), taken, now));
  }
  return waiting;
}

/**
 * One attempt per message (DESIGN 13); a failure is retried by the queue after the schedule's
 * delay, with the same message (the same `webhook-id`); after the last attempt the message is
 * failed. Messages already delivered or failed are acknowledged as is.
 */
async function attempt(env: Env, db: Database, message: Message<QueuedMessage>): Promise<void> {
  const row = await findMessage(db, message.body.id);
  if (!row || row.status !== "pending") return message.ack();
  // DESIGN 22: not delivered while its outcome could not be recorded (a delivery made but not
  // recorded is made again). Moved away meanwhile, it is gone from here the next time, and the
  // cron's sweep of the shard it moved to hands it over (the copy cleared its hand-over).
  if (row.employerLocked) return message.retry({ delaySeconds: WHILE_MOVING_DELAY_SECONDS });
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
}

/** The consumer of the webhooks queue: each message is a notice of events or a message to attempt, in the shard it names. */
export async function consumeWebhookBatch(batch: MessageBatch<WebhookQueueBody>, env: Env): Promise<void> {
  const databases = new Map<number, Database>();
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body;
      const shardEnv = atShard(env, body.shard ?? 0);
      let db = databases.get(shardOf(shardEnv));
      if (!db) databases.set(shardOf(shardEnv), (db = createDatabase(shardEnv.DB)));
      if (!("events" in body)) return attempt(shardEnv, db, message as Message<QueuedMessage>);
      const waiting = await fanOut(shardEnv, db, await findEvents(db, body.events));
      if (waiting.size) message.retry({ delaySeconds: WHILE_MOVING_DELAY_SECONDS });
      else message.ack();
    }),
  );
}
