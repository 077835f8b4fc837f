import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
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
