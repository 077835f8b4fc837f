// DESIGN 13: every event type. Writers record the job and application ones; endpoints
// subscribe to them. webhook.test is sent by POST /webhooks/{id}/test whatever the subscription.

export const JOB_EVENT_TYPES = [
  "job.created",
  "job.updated",
  "job.published",
  "job.archived",
  "job.expired",
  "job.expiring",
  "job.refreshed",
  "job.deleted",
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

export const APPLICATION_EVENT_TYPES = ["application.received", "application.status_changed", "application.decision_due"] as const;

export const SUBSCRIBABLE_EVENT_TYPES = [...JOB_EVENT_TYPES, ...APPLICATION_EVENT_TYPES] as const;
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = "webhook.test";
/** An employer's public name changed (DESIGN 17a): for the board, not for webhooks. `data`: `{ name }`. */
export const EMPLOYER_RENAMED = "employer.renamed";
export type EventType = SubscribableEventType | typeof TEST_EVENT_TYPE | typeof EMPLOYER_RENAMED;
