import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// DESIGN 11: one row per (employer, Idempotency-Key), kept 24 hours (the cron removes older
// ones). It is written only in the same atomic batch as the write it answers, so no crash leaves
// one without the other, and a second writer of the key aborts on the primary key.
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    employerId: integer("employer_id").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the request (operation and canonical JSON body). */
    requestHash: text("request_hash").notNull(),
    /** No longer used (always ''): rows were once claimed before the write. Kept to spare a migration. */
    holder: text("holder").notNull(),
    /** Always `done` now: a row exists only once its write is stored. Kept to spare a migration. */
    state: text("state", { enum: ["processing", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseLocation: text("response_location"),
    /** What the replay renders: the stored job row(s) as JSON, taken in the writing batch. */
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.employerId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
