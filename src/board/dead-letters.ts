import { giveBackEvents, type EventNotice } from "../events/dispatch";
import type { Env } from "../env";
import type { BoardQueueBody } from "./consumer";
import { boardSubscriber } from "./subscriber";

/**
 * DESIGN 16a: the board queue's dead letters are handed back, never dropped: a notice's events to
 * the relay of their shard, which hands them to the board again. A repair the cron asked for
 * needs nothing: the next run's comparison finds the same difference. Should this fail, its own
 * queue retries it.
 */
export async function consumeBoardDeadLetters(batch: MessageBatch<BoardQueueBody>, env: Env): Promise<void> {
  const notices = batch.messages.map((message) => message.body).filter((body): body is EventNotice => "events" in body);
  await giveBackEvents(env, boardSubscriber.name, notices);
  console.error(JSON.stringify({ level: "error", message: "dead letters handed back", queue: batch.queue, notices: notices.length, repairs: batch.messages.length - notices.length }));
  batch.ackAll();
}
