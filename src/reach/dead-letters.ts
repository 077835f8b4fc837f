import { giveBackEvents, type EventNotice } from "../events/dispatch";
import type { Env } from "../env";
import { reachSubscriber } from "./subscriber";

/**
 * DESIGN 16a: the reach queue's dead letters are handed back, never dropped: a notice's events to
 * the relay of their shard, which hands them to reach again. Should this fail, its own queue
 * retries it.
 */
export async function consumeReachDeadLetters(batch: MessageBatch<EventNotice>, env: Env): Promise<void> {
  const notices = batch.messages.map((message) => message.body).filter((body) => Array.isArray(body?.events));
  await giveBackEvents(env, reachSubscriber.name, notices);
  console.error(JSON.stringify({ level: "error", message: "dead letters handed back", queue: batch.queue, notices: notices.length }));
  batch.ackAll();
}
