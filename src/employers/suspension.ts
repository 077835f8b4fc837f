import { sql, type SQL } from "drizzle-orm";
import { createDatabase, toStatement } from "../db/client";
import { guard } from "../db/guards";
import type { Env } from "../env";
import { pokeRelay } from "../events/dispatch";
import { recordEvents, recordedEventsOf } from "../events/outbox";
import type { EmployerEventType, OperatorReason } from "../events/types";
import { EmployerMovingError } from "../http/problem";
import { atShard, isShard, shardNumbers } from "../shards/bindings";
import { SHARD_ID_SPAN } from "../shards/identity";
import { MOVING_RETRY_AFTER_SECONDS } from "../shards/locks";

// DESIGN 26, 26a: the operator suspends an employer (every job off the board at once, its writes
// refused, its reads served) and reinstates it. The employer's row says so (suspended_at, its test
// space's row too), in the same batch as the `employer.suspended` / `employer.reinstated` event
// its webhooks and the board take: the board drops or puts back its jobs (src/board/consumer.ts),
// and the jobs' public reads leave a suspended employer's jobs out (src/jobs/on-board.ts).

/**
 * For a write's own batch (a job, a batch, a reconcile, the settings, an application's move):
 * stops it when its employer is suspended, answered 403 `/problems/employer-suspended` with
 * nothing stored (src/http/errors.ts). No read of its own: a guard statement in the batch.
 */
export const suspensionGuard = (employerId: number): SQL =>
  guard(sql`NOT EXISTS (SELECT 1 FROM employers WHERE id = ${employerId} AND suspended_at IS NOT NULL)`, "suspended");

/** What the operator's console records of the act (DESIGN 26), and whether it changed anything. */
export interface SuspensionOutcome {
  employerId: number;
  name: string;
  shard: number;
  /** False when the employer already was in the state asked for (the act is then a no-op). */
  changed: boolean;
}

/** A live employer's shard and name: from its id's range, following its moves (moved_to), else any shard that has it live. */
async function liveEmployer(env: Env, employerId: number): Promise<{ shard: number; name: string } | undefined> {
  const read = (shard: number) =>
    atShard(env, shard)
      .DB.prepare("SELECT name, moved_to AS movedTo, test_of AS testOf FROM employers WHERE id = ?")
      .bind(employerId)
      .first<{ name: string; movedTo: number | null; testOf: number | null }>();
  const home = Math.floor((employerId - 1) / SHARD_ID_SPAN);
  const seen = new Set<number>();
  for (let shard = isShard(env, home) ? home : 0; !seen.has(shard) && isShard(env, shard); ) {
    seen.add(shard);
    const row = await read(shard);
    if (!row) break;
    if (row.testOf !== null) return undefined;
    if (row.movedTo === null) return { shard, name: row.name };
    shard = row.movedTo;
  }
  // An employer created before shards, or a chain of moves not followed here: every shard is asked.
  for (const shard of shardNumbers(env).filter((k) => !seen.has(k))) {
    const row = await read(shard);
    if (row && row.movedTo === null && row.testOf === null) return { shard, name: row.name };
  }
  return undefined;
}

/**
 * One batch in the employer's shard: its event (when the row is in the state the act leaves) and
 * the change of the employer's row and its test space's. An employer being moved is refused for
 * now (503, retried): the move copies its row and would not see the change.
 */
async function setSuspension(env: Env, employerId: number, type: EmployerEventType, reason: OperatorReason, now: number): Promise<SuspensionOutcome | undefined> {
  const found = await liveEmployer(env, employerId);
  if (!found) return undefined;
  const shardEnv = atShard(env, found.shard);
  const db = createDatabase(shardEnv.DB);
  const suspending = type === "employer.suspended";
  const before = suspending ? sql`suspended_at IS NULL` : sql`suspended_at IS NOT NULL`;
  const data = sql`json_object('employer', json_object('id', id, 'name', name), 'reason', ${reason}, 'at', ${new Date(now).toISOString()})`;
  const results = await db.$client.batch(
    [
      sql`SELECT frozen_at IS NOT NULL AS frozen FROM employers WHERE id = ${employerId}`,
      recordEvents(type, now, sql`SELECT id AS employer_id, id AS subject_id, NULL AS revision, ${data} AS data
        FROM employers WHERE id = ${employerId} AND ${before} AND frozen_at IS NULL AND moved_to IS NULL`),
      sql`UPDATE employers SET suspended_at = ${suspending ? now : null}
        WHERE (id = ${employerId} OR test_of = ${employerId}) AND ${before} AND frozen_at IS NULL AND moved_to IS NULL`,
    ].map((statement) => toStatement(db, statement)),
  );
  if ((results[0].results[0] as { frozen: number } | undefined)?.frozen) throw new EmployerMovingError(MOVING_RETRY_AFTER_SECONDS);
  const events = recordedEventsOf(results);
  if (events.length) await pokeRelay(shardEnv);
  return { employerId, name: found.name, shard: found.shard, changed: events.length > 0 };
}

/**
 * DESIGN 26: suspends the employer (`reason`, sent in `employer.suspended`). Undefined when no live employer has this id.
 */
export function suspendEmployer(env: Env, act: { employerId: number; reason: OperatorReason }, now = Date.now()): Promise<SuspensionOutcome | undefined> {
  return setSuspension(env, act.employerId, "employer.suspended", act.reason, now);
}

/** DESIGN 26: reinstates the employer: its active jobs go back on the board (removed ones stay archived). */
export function reinstateEmployer(env: Env, act: { employerId: number; reason: OperatorReason }, now = Date.now()): Promise<SuspensionOutcome | undefined> {
  return setSuspension(env, act.employerId, "employer.reinstated", act.reason, now);
}
