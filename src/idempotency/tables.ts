import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// DESIGN 11: one row per (employer, Idempotency-Key), kept 24 hours (the cron removes older
// ones). While the first request runs the row is `processing`; the write that completes it is
// in the same atomic batch as the job it created, so no crash leaves one without the other.
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    employerId: integer("employer_id").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the request (operation and canonical JSON body). */
    requestHash: text("request_hash").notNull(),
    /** The request that holds the key while processing; its completion must match it. */
    holder: text("holder").notNull(),
    state: text("state", { enum: ["processing", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseLocation: text("response_location"),
    /** What the replay renders: the stored job row(s) as JSON, taken in the writing batch. */
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.employerId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
