import { sql, type SQL } from "drizzle-orm";
import { toStatement, type Database } from "../../db/client";
import { guard, guardReason } from "../../db/guards";
import { recordedEventsOf, type RecordedEvent } from "../../events/outbox";
import type { EmployerBand } from "../../postingrules";
import { EmployerSuspendedError } from "../../http/problem";

// How every job statement runs: reads, atomic write batches, and the guards that stop them.

const statement = toStatement;

export async function all<T>(db: Database, query: SQL): Promise<T[]> {
  return (await statement(db, query).all<T>()).results;
}

/** One round trip, atomic: D1 runs a batch as one transaction. */
export async function batch(db: Database, queries: SQL[]): Promise<D1Result[]> {
  return db.$client.batch(queries.map((query) => statement(db, query)));
}

/** Which job a statement means: by id, by referenceId, or the one this batch just inserted. */
export type JobKey = { id: number } | { referenceId: string } | { justInserted: true };

export function jobIdOf(employerId: number, key: JobKey): SQL {
  if ("id" in key) return sql`${key.id}`;
  if ("referenceId" in key) {
    return sql`(SELECT id FROM jobs WHERE employer_id = ${employerId} AND reference_id = ${key.referenceId})`;
  }
  // Inside one atomic batch no other write interleaves and ids only grow (AUTOINCREMENT), so
  // the table's newest row is ours: max(id) over the whole table is one seek on the rowid
  // b-tree, where filtering by employer would walk all of that employer's index entries.
  return sql`(SELECT max(id) FROM jobs)`;
}

// A guard (src/db/guards.ts) that stopped a batch is rethrown as what it means for a job.

/** The batch stopped because the job's revision was not the expected one (or it is gone). */
export class RevisionMismatch extends Error {}
/** The batch stopped because the employer has as many places of its own as allowed. */
export class PlaceLimitReached extends Error {}

/** The batch stopped because the owner's settings changed since the write was judged by them. */
export class EmployerChanged extends Error {}
/** The batch stopped because its owner enforces the posting rules and the job would break one. */
export class PostingRulesRefused extends Error {}

/** Stops the batch unless the owner's settings are still at the revision the write was judged by (DESIGN 19). */
export const employerGuard = (employerId: number, revision: number) =>
  guard(sql`(SELECT revision FROM employers WHERE id = ${employerId}) = ${revision}`, "employer");

// An unknown headcount counts as more than any threshold (DESIGN 19).
const headcount = sql`coalesce(ontario_employees, 2147483647)`;

/** Stops the batch when the owner enforces the posting rules and is of a kind the job breaks a rule for. */
export function postingRulesGuard(employerId: number, bands: readonly EmployerBand[]): SQL[] {
  if (bands.length === 0) return [];
  const inBand = bands.map(
    (band) =>
      sql`(federally_regulated = ${Number(band.federallyRegulated)} AND ${headcount} >= ${band.from}${band.below === null ? sql`` : sql` AND ${headcount} < ${band.below}`})`,
  );
  return [
    guard(
      sql`NOT EXISTS (SELECT 1 FROM employers WHERE id = ${employerId} AND posting_rules = 'enforce' AND (${sql.join(inBand, sql` OR `)}))`,
      "posting_rules",
    ),
  ];
}

const FAILURES = {
  revision: RevisionMismatch,
  place_limit: PlaceLimitReached,
  employer: EmployerChanged,
  posting_rules: PostingRulesRefused,
  suspended: EmployerSuspendedError,
};

function guardFailure(error: unknown): Error | undefined {
  const reason = guardReason(error);
  return reason ? new FAILURES[reason]() : undefined;
}

/**
 * Runs a write batch (one round trip, atomic); a guard that stopped it is rethrown as what it
 * means. The events it recorded are added to `events`, for their subscribers.
 */
export async function writeBatch(db: Database, queries: SQL[], events?: RecordedEvent[]): Promise<D1Result[]> {
  let results: D1Result[];
  try {
    results = await batch(db, queries);
  } catch (error) {
    throw guardFailure(error) ?? error;
  }
  events?.push(...recordedEventsOf(results));
  return results;
}
