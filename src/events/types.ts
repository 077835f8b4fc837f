import { JOB_EVENT_TYPES } from "../jobs/events";

// DESIGN 13: every event type. Endpoints subscribe to the job and application ones;
// webhook.test is sent by POST /webhooks/{id}/test whatever the subscription.
export const SUBSCRIBABLE_EVENT_TYPES = [...JOB_EVENT_TYPES, "application.received"] as const;
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = "webhook.test";
export type EventType = SubscribableEventType | typeof TEST_EVENT_TYPE;
