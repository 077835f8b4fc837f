import type { EventSubscriber } from "../events/dispatch";
import { JOB_EVENT_TYPES } from "../events/types";
import { reachTakenEvents } from "./receipts";

// job.expiring changes no job, so no page: reach does not take it.
const announced = new Set<string>(JOB_EVENT_TYPES.filter((type) => type !== "job.expiring"));

/**
 * DESIGN 24: reach reacts to every change of a job (a page that appears, changes or goes), on a
 * queue of its own (section 16), so that neither the board nor webhooks wait for search engines.
 * A notice holds up to 100 events; a batch of 10 notices is one read per shard and one write to
 * the notifier.
 */
export const reachSubscriber: EventSubscriber = {
  name: "reach",
  queue: (env) => env.REACH_QUEUE,
  accepts: (type) => announced.has(type),
  // DESIGN 16a: the receipts the notifier records with each batch's changes.
  taken: reachTakenEvents,
};
