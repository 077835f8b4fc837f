import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

// DESIGN 22: an employer being moved to another shard is locked: frozen while it moves
// (employers.frozen_at), then, in the shard it left, moved away (employers.moved_to: the row is a
// tombstone). Triggers refuse every write of a locked employer's rows (drizzle/0023), naming why
// in the error: 'employer-moving' or 'employer-moved'. What here helps the rest of the Worker live
// with that: the cron leaves locked employers' rows alone instead of failing a whole chunk on
// them, and errors are told apart.

/** The locked employers of this shard, read from employers_locked_idx (a handful of rows, usually none). */
export const LOCKED_EMPLOYERS = sql.raw("(SELECT id FROM employers WHERE frozen_at IS NOT NULL OR moved_to IS NOT NULL)");

/**
 * For a statement over many employers' rows (the cron's chunks): leaves out the locked
 * employers' rows, which their triggers would refuse, failing the whole batch with them.
 */
export const ofUnlockedEmployer = (employerId: SQLWrapper): SQL => sql`${employerId} NOT IN ${LOCKED_EMPLOYERS}`;

/**
 * For a read over the employer's rows that may find none (a list): where the employer moved,
 * read in the same statement (a search of its row by key), so that a shard it left answers
 * nothing stale and nothing empty (`movedToColumn` with `throwIfMoved`).
 */
export const movedToColumn = (employerId: number): SQL => sql`(SELECT moved_to FROM employers WHERE id = ${employerId}) AS movedTo`;

/** After a read with movedToColumn: the employer moved away from this shard, to be served where it lives (src/shards/follow.ts). */
export function throwIfMoved(row: { movedTo?: number | null } | undefined): void {
  if (row?.movedTo != null) throw new EmployerMovedError(row.movedTo);
}

/** Why the database refused a write: the employer is moving (frozen), or moved away. */
export type Lock = "moving" | "moved";

/** The lock named by an error (a D1 error, or one wrapping it), if any. */
export function lockOf(error: unknown): Lock | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const found = /employer-(moving|moved)/.exec(e.message)?.[1];
    if (found) return found as Lock;
  }
  return undefined;
}

/**
 * A read found the employer's row a tombstone: the employer lives in `shard` now. Thrown where an
 * employer's own row is read anyway (its settings, an application's job), so that the request is
 * served again there (src/shards/follow.ts); never answered as it is.
 */
export class EmployerMovedError extends Error {
  constructor(readonly shard: number) {
    super(`The employer moved to shard ${shard}.`);
  }
}

/** How long (s) a client waits before sending again a write refused while its employer moves (DESIGN 22b: frozen for seconds at most). */
export const MOVING_RETRY_AFTER_SECONDS = 1;

/** The locked ones among these employers of shard `d1`: each with the shard it moved to (null: moving). */
export async function lockedEmployers(d1: D1Database, employerIds: number[]): Promise<Map<number, number | null>> {
  if (employerIds.length === 0) return new Map();
  const { results } = await d1
    .prepare(
      `SELECT id, moved_to AS movedTo FROM employers
        WHERE id IN (SELECT value FROM json_each(?)) AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)`,
    )
    .bind(JSON.stringify(employerIds))
    .all<{ id: number; movedTo: number | null }>();
  return new Map(results.map((row) => [row.id, row.movedTo]));
}
