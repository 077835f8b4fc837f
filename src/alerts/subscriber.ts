import type { EventSubscriber } from "../events/dispatch";
import { takenAmong } from "../events/receipts";
import { all, createAlertsDatabase } from "./database/client";
import { alertReceipts } from "./database/tables";
import { EMPLOYER_RENAMED, JOB_EVENT_TYPES } from "../events/types";

// job.expiring changes no job, so nothing an alert could newly match; a rename changes the
// employer's name on the cards of its matched jobs.
const matched = new Set<string>([...JOB_EVENT_TYPES.filter((type) => type !== "job.expiring"), EMPLOYER_RENAMED]);

/** At most this many events per notice: a batch of 10 messages then matches at most 100 job changes. */
export const ALERT_EVENTS_PER_NOTICE = 10;

/**
 * DESIGN 23: job alerts react to every job change (a job that is, or becomes, visible is matched;
 * one that leaves the board is never emailed), on a queue of their own (section 16), so that
 * neither webhooks nor the board wait for them.
 */
export const alertsSubscriber: EventSubscriber = {
  name: "alerts",
  queue: (env) => env.ALERTS_QUEUE,
  accepts: (type) => matched.has(type),
  eventsPerNotice: ALERT_EVENTS_PER_NOTICE,
  taken: async (env, shard, ids) => (await all<{ id: string }>(createAlertsDatabase(env.ALERTS_DB), takenAmong(alertReceipts, shard, ids))).map((row) => row.id),
};
