import { sql } from "drizzle-orm";
import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { visibleJobsOfEmployer } from "../jobs/published";
import { all, batch, type BoardDatabase } from "./database/client";
import { recordSuspension, removeEmployerJobs } from "./database/writes";
import { repairThroughQueue } from "./reconcile";

// DESIGN 26: an employer suspended by the operator leaves the board at once, every job of it (their
// pages answer 410, their tombstones kept), and none comes back while it is (src/board/database/
// writes.ts putJob); reinstated, its jobs that should be on the board are put back by the repair
// (the employer side's public reads say which: removed ones are archived, so not among them).

/** A suspension or a reinstatement, as its event told it. */
export interface SuspensionChange {
  employerId: number;
  suspended: boolean;
  /** The event's time (ms). */
  at: number;
}

/** Board rows deleted per statement: each fires the triggers that clear its lists and words. */
const REMOVED_PER_STATEMENT = 1_000;
/**
 * Statements per suspension, at most (100 000 jobs), so that one consumer invocation stays within
 * D1's 1 000 queries: an employer with more has the rest removed by the cron's repair, which finds
 * them on the board but not among the jobs that should be (src/board/reconcile.ts).
 */
const MAX_REMOVALS = 100;
/** The employer's jobs read per page when it is reinstated: two numbers each. */
const PAGE = 5_000;

/**
 * Records the changes (the newest per employer wins, whatever their order), then brings the board
 * in line with each employer's state as recorded: off it, in bounded statements, or its jobs
 * handed to the repair (10 a message on the board queue; `shardEnv` is the shard the events came from).
 */
export async function applySuspensions(board: BoardDatabase, shardEnv: Env, changes: SuspensionChange[], nowMs: number): Promise<void> {
  if (changes.length === 0) return;
  await batch(board, changes.map((change) => recordSuspension(change.employerId, change.suspended, change.at)));
  const employers = [...new Set(changes.map((change) => change.employerId))];
  const states = await all<{ employerId: number; suspended: number }>(
    board,
    sql`SELECT employer_id AS employerId, suspended FROM board_suspensions WHERE employer_id IN (SELECT value FROM json_each(${JSON.stringify(employers)}))`,
  );
  for (const { employerId, suspended } of states) {
    if (suspended) {
      await takeOff(board, employerId);
    } else {
      await putBack(shardEnv, employerId, nowMs);
    }
  }
}

/** A suspended employer's jobs off the board, a bounded statement at a time. */
async function takeOff(board: BoardDatabase, employerId: number): Promise<void> {
  for (let i = 0; i < MAX_REMOVALS; i++) {
    const [deleted] = await batch(board, [removeEmployerJobs(employerId, REMOVED_PER_STATEMENT)]);
    if (deleted.meta.changes === 0) return;
  }
}

/** Every job of the employer that should be on the board, handed to the repair, a page of ids at a time in memory. */
async function putBack(shardEnv: Env, employerId: number, nowMs: number): Promise<void> {
  const db = createDatabase(shardEnv.DB);
  const repair = repairThroughQueue(shardEnv);
  for (let after = { publishDate: -1, id: 0 }; ; ) {
    const page = await visibleJobsOfEmployer(db, employerId, after, PAGE, Math.floor(nowMs / 1000));
    if (page.length) await repair(page.map((job) => job.id));
    if (page.length < PAGE) return;
    after = page[page.length - 1];
  }
}
