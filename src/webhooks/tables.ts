import { sql } from "drizzle-orm";
import { receiptsTable } from "../events/receipts";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { employers } from "../db/schema";

// DESIGN 13: an employer's webhook endpoints (at most 10). Signing secrets must be usable to
// sign, so they are stored encrypted (AES-GCM under WEBHOOK_ENCRYPTION_KEY), never hashed.
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    employerId: integer("employer_id")
      .notNull()
      .references(() => employers.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** JSON array of subscribed event types; `[]` means every job and application type. */
    events: text("events").notNull().default("[]"),
    description: text("description"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signing until previousSecretUntil (ms). */
    previousSecret: text("previous_secret"),
    previousSecretUntil: integer("previous_secret_until"),
    /** Since when (ms) every delivery has failed; null after a success. */
    failingSince: integer("failing_since"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhook_endpoints_employer_idx").on(t.employerId), check("webhook_endpoints_enabled", sql`${t.enabled} IN (0, 1)`)],
);

// DESIGN 13: one row per (event, subscribed endpoint): a message, whose id is the `webhook-id`
// of every attempt. Written by the fan-out of an event (src/webhooks/consumer.ts), delivered
// through the queue from here; it is also the delivery log (kept 30 days).
export const webhookMessages = sqliteTable(
  "webhook_messages",
  {
    id: text("id").primaryKey(),
    /** The event it delivers (null: webhook.test, or written before events had their own table). */
    eventId: text("event_id"),
    employerId: integer("employer_id").notNull(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** When the change was stored, in ms: the payload's `timestamp` on every attempt. */
    occurredAt: integer("occurred_at").notNull(),
    /** The event's data as stored with the change (rendered at delivery). */
    data: text("data").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    /** When it was last handed to the queue (ms); null: never, so the cron's sweep will. */
    enqueuedAt: integer("enqueued_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("webhook_messages_endpoint_log_idx").on(t.endpointId, t.createdAt),
    index("webhook_messages_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_messages_created_idx").on(t.createdAt),
    // An event handed over twice (at least once) fans out once.
    uniqueIndex("webhook_messages_event_endpoint_unique").on(t.eventId, t.endpointId),
  ],
);

/** DESIGN 16a: the events the fan-out took, in the batch of its messages; the relay reads them through webhooksSubscriber.taken. */
export const webhookReceipts = receiptsTable("webhook_receipts");
