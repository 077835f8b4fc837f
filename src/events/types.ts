// DESIGN 13: every event type. Writers record the job, application and employer ones; endpoints
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
  // DESIGN 26a: an operator took the job off the board (it is archived and may not be published
  // again), or allowed it to be published again (it stays archived).
  "job.removed",
  "job.restored",
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

export const APPLICATION_EVENT_TYPES = ["application.received", "application.status_changed", "application.decision_due"] as const;

/** DESIGN 26a: why the board's operator removes a job or suspends an employer, as its events say. */
export const OPERATOR_REASONS = ["fraud", "discrimination", "misleading", "not-a-job", "other"] as const;
export type OperatorReason = (typeof OPERATOR_REASONS)[number];

/** DESIGN 26a: an operator suspended the employer (every job off the board, writes refused), or reinstated it. `data`: `{ employer: { id, name }, reason, at }`. */
export const EMPLOYER_EVENT_TYPES = ["employer.suspended", "employer.reinstated"] as const;
export type EmployerEventType = (typeof EMPLOYER_EVENT_TYPES)[number];

export const SUBSCRIBABLE_EVENT_TYPES = [...JOB_EVENT_TYPES, ...APPLICATION_EVENT_TYPES, ...EMPLOYER_EVENT_TYPES] as const;
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = "webhook.test";
/** An employer's public name changed (DESIGN 17a): for the board, not for webhooks. `data`: `{ name }`. */
export const EMPLOYER_RENAMED = "employer.renamed";
export type EventType = SubscribableEventType | typeof TEST_EVENT_TYPE | typeof EMPLOYER_RENAMED;
