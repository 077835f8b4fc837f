import { sql, type SQL } from "drizzle-orm";
import type { EventType } from "./types";

/**
 * The one statement that records events (DESIGN 13): set-based, for the same atomic batch as
 * the change that causes them. `source` is a SELECT yielding `employer_id` and `data` (JSON
 * text) — one row for a request's change, thousands for the cron's — read once for all the
 * `types` the change emits. Each row becomes one message per type and per enabled endpoint of
 * that employer subscribed to the type (`[]`: all); none when nobody listens. RETURNING gives
 * the message ids to hand to the queue once the batch is stored.
 */
export function outboxInsert(types: EventType | EventType[], occurredAt: number, source: SQL): SQL {
  const list = Array.isArray(types) ? types : [types];
  return sql`
    INSERT INTO webhook_messages (id, employer_id, endpoint_id, type, occurred_at, data, status, attempts, next_attempt_at, created_at)
    SELECT 'msg_' || lower(hex(randomblob(16))), s.employer_id, e.id, t.value, ${occurredAt}, s.data, 'pending', 0, ${occurredAt}, ${occurredAt}
    FROM (${source}) s
    JOIN json_each(${JSON.stringify(list)}) t
    JOIN webhook_endpoints e ON e.employer_id = s.employer_id AND e.enabled = 1
      AND (e.events = '[]' OR EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = t.value))
    ORDER BY t.key
    RETURNING id`;
}

/** Message ids among a write batch's results (the rows outboxInsert returned). */
export function messageIdsOf(results: D1Result[]): string[] {
  return results.flatMap((result) =>
    (result.results as { id?: unknown }[]).flatMap((row) => (typeof row.id === "string" && row.id.startsWith("msg_") ? [row.id] : [])),
  );
}

/** Employers with an enabled endpoint subscribed to `type`: for set-based sources to stay small. */
export function subscribedEmployers(type: EventType): SQL {
  return sql`SELECT employer_id FROM webhook_endpoints WHERE enabled = 1
    AND (events = '[]' OR EXISTS (SELECT 1 FROM json_each(events) WHERE value = ${type}))`;
}

/** True while the employer has an enabled endpoint: so that only listened-to writes pay for their event data. */
export function hasEnabledEndpoint(employerId: number): SQL {
  return sql`EXISTS (SELECT 1 FROM webhook_endpoints WHERE employer_id = ${employerId} AND enabled = 1)`;
}
