import { giveBackEvents, type EventNotice } from "../events/dispatch";
import type { Env } from "../env";
import type { AlertsQueueBody } from "./consumer";
import { alertsSubscriber } from "./subscriber";

/**
 * DESIGN 16a: the alerts queue's dead letters are handed back, never dropped: a notice's events to
 * the relay of their shard, which hands them to alerts again. An email to send or an alert due
 * needs nothing: its ledger row stays pending (or the alert due) and the cron hands it over again.
 */
export async function consumeAlertsDeadLetters(batch: MessageBatch<AlertsQueueBody>, env: Env): Promise<void> {
  const notices = batch.messages.map((message) => message.body).filter((body): body is EventNotice => "events" in body);
  await giveBackEvents(env, alertsSubscriber.name, notices);
  console.error(JSON.stringify({ level: "error", message: "dead letters handed back", queue: batch.queue, notices: notices.length, other: batch.messages.length - notices.length }));
  batch.ackAll();
}
