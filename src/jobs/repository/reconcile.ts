import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { RecordedEvent } from "../../events/outbox";
import { recordEvents } from "../../events/outbox";
import { KEY_ACTOR } from "../../events/actor";
import { deletedJobSource, scheduledEventSource } from "./event-sources";
import { movedToColumn, throwIfMoved } from "../../shards/locks";
import { batch, writeBatch } from "./statements";
import { suspensionGuard } from "../../employers/suspension";

// DESIGN 21: reconcile, set-based. The list travels as one JSON parameter read with json_each,
// so 10 000 referenceIds are one bound parameter, and every statement is one pass over the
// employer's active jobs, whatever the count.

export type ReconcileAction = "archive" | "delete";
export interface Affected {
  id: number;
  referenceId: string;
}

/** The employer's active jobs with a referenceId the list does not name (on table `jobs`). */
function unlisted(employerId: number, referenceIds: string[]): SQL {
  return sql`employer_id = ${employerId} AND status = 'active' AND reference_id IS NOT NULL
    AND reference_id NOT IN (SELECT value FROM json_each(${JSON.stringify(referenceIds)}))`;
}

/** The answer's `affected`, oldest first, as one JSON array (SQL). */
const affectedJson = (condition: SQL) =>
  sql`(SELECT json_group_array(json_object('id', id, 'referenceId', reference_id)) FROM (SELECT id, reference_id FROM jobs WHERE ${condition} ORDER BY id))`;

/** The dry run: what reconcile would change, in one read. */
export async function unlistedJobs(db: Database, employerId: number, referenceIds: string[]): Promise<Affected[]> {
  const [result] = await batch(db, [sql`SELECT ${affectedJson(unlisted(employerId, referenceIds))} AS affected, ${movedToColumn(employerId)}`]);
  return answerOf(result);
}

/** The answer read first, with whether the employer moved away (DESIGN 22: nothing of it is here then, and nothing was changed). */
function answerOf(result: D1Result): Affected[] {
  const row = result.results[0] as { affected: string; movedTo: number | null };
  throwIfMoved(row);
  return JSON.parse(row.affected) as Affected[];
}

/**
 * One atomic batch: the answer read, each job's events as the single request records them
 * (archive: job.updated and job.archived; delete: job.deleted), then one UPDATE or DELETE.
 * `extras` (the Idempotency-Key's record) get the answer as SQL, read before the change.
 */
export async function reconcileJobs(
  db: Database,
  employerId: number,
  referenceIds: string[],
  action: ReconcileAction,
  now: number,
  extras: (answer: SQL) => SQL[],
  events: RecordedEvent[],
): Promise<Affected[]> {
  const condition = unlisted(employerId, referenceIds);
  const affected = affectedJson(condition);
  const answer = sql`json_object('affected', json(${affected}), 'count', json_array_length(${affected}))`;
  const occurredAt = now * 1000;
  const change =
    action === "archive"
      ? [
          recordEvents(["job.updated", "job.archived"], occurredAt, scheduledEventSource(condition, sql`'$.status', 'archived'`, KEY_ACTOR)),
          sql`UPDATE jobs SET status = 'archived', updated_at = max(updated_at, ${now}), revision = revision + 1 WHERE ${condition}`,
        ]
      : [recordEvents("job.deleted", occurredAt, sql`SELECT ${deletedJobSource(KEY_ACTOR)} FROM jobs WHERE ${condition}`), sql`DELETE FROM jobs WHERE ${condition}`];
  const results = await writeBatch(db, [sql`SELECT ${affected} AS affected, ${movedToColumn(employerId)}`, suspensionGuard(employerId), ...extras(answer), ...change], events);
  return answerOf(results[0]);
}
