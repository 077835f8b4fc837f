import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// DESIGN 13 and 16: the outbox. One row per event of a stored change, written in the same
// atomic batch as the change, whoever listens (or nobody); its id is handed to every
// subscriber's queue once the batch is stored. Kept a week after that hand-over.
export const events = sqliteTable(
  "events",
  {
    /** `evt_` + 32 hex digits. */
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    employerId: integer("employer_id").notNull(),
    /** The job or the application the event is about. */
    subjectId: integer("subject_id").notNull(),
    /** The job's revision as the change left it (null: not a job). */
    revision: integer("revision"),
    /**
     * When the change was stored, in ms (the cron: its scheduledTime), which is when the event was
     * recorded: the payload's `timestamp`; the re-dispatch and the retention count from it.
     */
    occurredAt: integer("occurred_at").notNull(),
    /** JSON text, as the writer gave it; its capability knows how to render it. */
    data: text("data").notNull(),
    /** When its id was handed to every subscriber's queue (ms); null: not yet, so the cron will. */
    dispatchedAt: integer("dispatched_at"),
  },
  (t) => [
    // The cron's re-dispatch, oldest first, reads only what is still waiting.
    index("events_undispatched_idx").on(t.occurredAt).where(sql`${t.dispatchedAt} IS NULL`),
    index("events_occurred_idx").on(t.occurredAt),
  ],
);
