import { sql, type SQL } from "drizzle-orm";
import { toStatement, type Database } from "../../db/client";
import { withEmployer, type Employer } from "../../employers/service";
import { inList } from "../../db/lists";
import { throwIfMoved } from "../../shards/locks";
import type { RecordedEvent } from "../../events/outbox";
import { JOB_COLUMNS_OBJECT, JOB_FROM, selectedColumns } from "./columns";
import { withLaterMembers } from "./rows";
import type { JobRow } from "./rows";
import { all, jobIdOf, writeBatch, type JobKey } from "./statements";

/** The whole job in ONE statement: GET costs one round trip, and writes end with it in their batch. */
export function selectJob(employerId: number, key: JobKey): SQL {
  return sql`SELECT ${selectedColumns} ${JOB_FROM} WHERE j.id = ${jobIdOf(employerId, key)} AND j.employer_id = ${employerId}`;
}

/**
 * The job as a JSON text of its JobRow, as a scalar SQL expression: a statement in a write
 * batch stores what the job became (an idempotent replay, an event) without another read.
 * parseJobSnapshot of it is a JobRow, so the one representation (toJob) renders it later.
 */
export function jobSnapshot(employerId: number, key: JobKey): SQL {
  return sql`(SELECT ${JOB_COLUMNS_OBJECT} ${JOB_FROM}
    WHERE j.id = ${jobIdOf(employerId, key)} AND j.employer_id = ${employerId})`;
}

type Snapshot = Omit<JobRow, "locations" | "categories"> & { locations: unknown; categories: unknown };
const fromSnapshot = (row: Snapshot): JobRow =>
  withLaterMembers({ ...row, locations: JSON.stringify(row.locations), categories: JSON.stringify(row.categories) });

/** A jobSnapshot's text back as the JobRow it was taken from (SQLite nests the lists as JSON). */
export function parseJobSnapshot(text: string): JobRow {
  return fromSnapshot(JSON.parse(text) as Snapshot);
}

/** jobSnapshotsByReference's JSON (already parsed) back as JobRows. */
export function fromJobSnapshots(snapshots: unknown[]): JobRow[] {
  return (snapshots as Snapshot[]).map(fromSnapshot);
}

/**
 * The job, read with its employer's tombstone: a request a stale cache routed to a shard its
 * employer left is served again where it lives (src/shards/follow.ts) rather than from the rows
 * the move is still deleting there (a job whose places are gone already would fail validation).
 */
export async function findJob(db: Database, employerId: number, key: JobKey): Promise<JobRow | undefined> {
  const [found] = await all<JobRow & { movedTo: number | null }>(
    db,
    sql`SELECT ${selectedColumns}, e.moved_to AS movedTo ${JOB_FROM} WHERE j.id = ${jobIdOf(employerId, key)} AND j.employer_id = ${employerId}`,
  );
  if (!found) return undefined;
  const { movedTo, ...row } = found;
  throwIfMoved({ movedTo });
  return row;
}

/** The employer's jobs with these referenceIds: one statement, two bound values, whatever the count. */
function selectJobsByReference(employerId: number, referenceIds: string[]): SQL {
  return sql`SELECT ${selectedColumns} ${JOB_FROM}
    WHERE j.employer_id = ${employerId} AND ${inList(sql`j.reference_id`, referenceIds)}`;
}

/** The jobs with these referenceIds, with the owner's settings, in one round trip. */
export async function findJobsByReferenceWithOwner(db: Database, employerId: number, referenceIds: string[]): Promise<{ rows: JobRow[]; employer: Employer }> {
  const statements = referenceIds.length ? [toStatement(db, selectJobsByReference(employerId, referenceIds))] : [];
  const { results, employer } = await withEmployer(db, employerId, statements);
  return { rows: (results[0]?.results ?? []) as JobRow[], employer };
}

/** Like jobSnapshot, for many jobs: a JSON array of their JobRows, as a scalar SQL expression. */
export function jobSnapshotsByReference(employerId: number, referenceIds: string[]): SQL {
  return sql`(SELECT json_group_array(${JOB_COLUMNS_OBJECT}) ${JOB_FROM}
    WHERE j.employer_id = ${employerId} AND ${inList(sql`j.reference_id`, referenceIds)})`;
}

/** Runs the statements of many job writes in one atomic batch, then reads those jobs back. */
export async function writeJobs(
  db: Database,
  employerId: number,
  statements: SQL[],
  readBack: string[],
  events?: RecordedEvent[],
): Promise<JobRow[]> {
  const results = await writeBatch(db, [...statements, selectJobsByReference(employerId, readBack)], events);
  return results.at(-1)!.results as JobRow[];
}

