import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// DESIGN 13, 16 and 22: the outbox. One row per event of a stored change, written in the same
// atomic batch as the change, whoever listens (or nobody). The shard's relay (src/events/relay.ts)
// hands the events to every subscriber's queue in recording order, after a cursor of its own, and
// deletes them a week after it passed them.
export const events = sqliteTable(
  "events",
  {
    /**
     * The recording order. AUTOINCREMENT, so it only grows, even after the newest events were
     * deleted: a relay's cursor never points past an event still to come. D1 runs one write at a
     * time, so events become visible in this order.
     */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    /** `evt_` + 32 hex digits: the message id subscribers see. */
    id: text("id").notNull().unique(),
    type: text("type").notNull(),
    employerId: integer("employer_id").notNull(),
    /** The job or the application the event is about. */
    subjectId: integer("subject_id").notNull(),
    /** The job's revision as the change left it (null: not a job). */
    revision: integer("revision"),
    /**
     * When the change was stored, in ms (the cron: its scheduledTime), which is when the event was
     * recorded: the payload's `timestamp`; the retention counts from it.
     */
    occurredAt: integer("occurred_at").notNull(),
    /** JSON text, as the writer gave it; its capability knows how to render it. */
    data: text("data").notNull(),
  },
  (t) => [index("events_occurred_idx").on(t.occurredAt)],
);
