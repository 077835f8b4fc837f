import { createDatabase } from "../db/client";
import type { EventNotice } from "../events/dispatch";
import { takeEvents } from "../events/receipts";
import { findEvents } from "../events/repository";
import { EMPLOYER_RENAMED } from "../events/types";
import { findEmployer } from "../employers/repository";
import type { Env } from "../env";
import { jobChangesOf, newestPerJob, type JobChangeOfEvent } from "../jobs/event-data";
import { atShard } from "../shards/bindings";
import { alertReceipts } from "./database/tables";
import { buildDueEmails, matchJobChanges, renameEmployerOnMatches, sendLedgerRows, type AlertWork } from "./service";

type DueWork = Extract<AlertWork, { due: number[] }>;

/** What the alerts queue carries: job events to match, emails to send, alerts whose email may be due. */
export type AlertsQueueBody = EventNotice | AlertWork;

/**
 * The alerts queue's consumer (DESIGN 23). Job events, read through the events capability from the
 * outbox of the shard each notice names (read only: alerts write nothing there), are matched as
 * one reverse search per batch; the batch's due alerts are built together, and its ledger rows
 * sent together (set-based: a few round trips per batch, not per alert). Should matching fail,
 * the queue delivers the batch again: storing a match is idempotent (one per alert and job).
 */
export async function consumeAlertsBatch(batch: MessageBatch<AlertsQueueBody>, env: Env): Promise<void> {
  const now = Date.now();
  const notices = batch.messages.filter((message) => "events" in message.body);
  const changes: JobChangeOfEvent[] = [];
  for (const [shard, group] of Map.groupBy(notices, (message) => (message.body as EventNotice).shard ?? 0)) {
    const db = createDatabase(atShard(env, shard).DB);
    const events = await findEvents(db, group.flatMap((message) => (message.body as EventNotice).events));
    // The employer's name now, not the event's: renames handed over out of order end on the latest.
    for (const employerId of new Set(events.filter((e) => e.type === EMPLOYER_RENAMED).map((e) => e.employerId))) {
      const employer = await findEmployer(db, employerId);
      if (employer) await renameEmployerOnMatches(env, employerId, employer.name);
    }
    changes.push(...jobChangesOf(events));
  }
  const newest = newestPerJob(changes);
  // DESIGN 16a: the receipts of every event handed over, in the batch of the matches.
  const receipts = [...Map.groupBy(notices, (message) => (message.body as EventNotice).shard ?? 0)].map(([shard, group]) =>
    takeEvents(alertReceipts, shard, group.flatMap((message) => (message.body as EventNotice).events), now),
  );
  if (newest.length || receipts.length) await matchJobChanges(env, newest, now, receipts);
  for (const message of notices) message.ack();
  const work = batch.messages.filter((message) => !("events" in message.body)) as Message<AlertWork>[];
  const due = work.filter((message): message is Message<DueWork> => "due" in message.body);
  // A cron run's messages carry its scheduledTime; an instant alert's gathering, none (now).
  for (const [at, group] of Map.groupBy(due, (message) => message.body.now ?? now)) {
    await buildDueEmails(env, [...new Set(group.flatMap((message) => message.body.due))], at);
    for (const message of group) message.ack();
  }
  const sends = work.filter((message) => "send" in message.body);
  if (sends.length) await sendLedgerRows(env, sends);
}
