import { sql, type SQL } from "drizzle-orm";
import type { EventType } from "./types";

/** An event as its writer recorded it: the id to dispatch, the type subscribers filter on. */
export interface RecordedEvent {
  id: string;
  type: string;
}

/**
 * The one statement that records events (DESIGN 13, 16): set-based, for the same atomic batch as
 * the change that causes them. `source` is a SELECT yielding `employer_id`, `subject_id`,
 * `revision` and `data` (JSON text) — one row for a request's change, thousands for the cron's —
 * read once for all the `types` the change emits: each row becomes one event per type, in the
 * order of `types` (a single type needs no sort: the cron's thousands of rows are not sorted).
 * RETURNING gives the events to dispatch once the batch is stored.
 */
export function recordEvents(types: EventType | EventType[], occurredAt: number, source: SQL): SQL {
  const list = Array.isArray(types) ? types : [types];
  return sql`
    INSERT INTO events (id, type, employer_id, subject_id, revision, occurred_at, data)
    SELECT 'evt_' || lower(hex(randomblob(16))), t.value, s.employer_id, s.subject_id, s.revision, ${occurredAt}, s.data
    FROM (${source}) s
    JOIN json_each(${JSON.stringify(list)}) t
    ${list.length > 1 ? sql`ORDER BY t.key` : sql``}
    RETURNING id, type`;
}

/**
 * recordEvents for rows that each name their own types: `source` yields `types` (a JSON array)
 * besides the members above, and `position` (the rows' order); each row's events follow it in
 * that order. One statement for a whole batch of changes (DESIGN 12).
 */
export function recordEventsByRow(occurredAt: number, source: SQL): SQL {
  return sql`
    INSERT INTO events (id, type, employer_id, subject_id, revision, occurred_at, data)
    SELECT 'evt_' || lower(hex(randomblob(16))), t.value, s.employer_id, s.subject_id, s.revision, ${occurredAt}, s.data
    FROM (${source}) s
    JOIN json_each(s.types) t
    ORDER BY s.position, t.key
    RETURNING id, type`;
}

/** The events among a write batch's results (the rows recordEvents returned). */
export function recordedEventsOf(results: D1Result[]): RecordedEvent[] {
  return results.flatMap((result) =>
    (result.results as { id?: unknown; type?: unknown }[]).flatMap((row) =>
      typeof row.id === "string" && row.id.startsWith("evt_") && typeof row.type === "string" ? [{ id: row.id, type: row.type }] : [],
    ),
  );
}
