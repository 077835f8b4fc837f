import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { webhookEndpoints } from "../webhooks/tables";

// DESIGN 13: the outbox. One row per (event, subscribed endpoint): a message, whose id is the
// `webhook-id` of every attempt. Written in the same atomic batch as the change that caused it,
// delivered through the queue from here; it is also the delivery log (kept 30 days).
export const webhookMessages = sqliteTable(
  "webhook_messages",
  {
    id: text("id").primaryKey(),
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
  ],
);
