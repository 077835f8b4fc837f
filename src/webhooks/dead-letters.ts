import { createDatabase } from "../db/client";
import { giveBackEvents, type EventNotice } from "../events/dispatch";
import type { Env } from "../env";
import { shardDatabase } from "../shards/bindings";
import type { QueuedMessage, WebhookQueueBody } from "./consumer";
import { unmarkEnqueued } from "./messages";
import { webhooksSubscriber } from "./subscriber";

/**
 * DESIGN 16a: the webhooks queue's dead letters (a notice or an attempt that failed past every
 * retry) are handed back, never dropped: a notice's events to the relay of their shard, which
 * hands them to the webhooks again; an attempt to its message row, still pending, which the
 * cron's sweep sends when due. Should this fail, its own queue retries it.
 */
export async function consumeWebhookDeadLetters(batch: MessageBatch<WebhookQueueBody>, env: Env): Promise<void> {
  const bodies = batch.messages.map((message) => message.body);
  const notices = bodies.filter((body): body is EventNotice => "events" in body);
  const attempts = bodies.filter((body): body is QueuedMessage => !("events" in body));
  await giveBackEvents(env, webhooksSubscriber.name, notices);
  for (const [shard, group] of Map.groupBy(attempts, (attempt) => attempt.shard ?? 0)) {
    await unmarkEnqueued(createDatabase(shardDatabase(env, shard)), group.map((attempt) => attempt.id));
  }
  console.error(JSON.stringify({ level: "error", message: "dead letters handed back", queue: batch.queue, notices: notices.length, attempts: attempts.length }));
  batch.ackAll();
}
