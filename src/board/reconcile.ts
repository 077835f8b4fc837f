import { sql } from "drizzle-orm";
import { pruneReceipts } from "../events/receipts";
import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { shardOf } from "../shards/bindings";
import { employerNames, employersMovedAway, leftBoardPage, visibleJobRevisions, visibleJobs } from "../jobs/published";
import { all, batch, createBoardDatabase, type BoardDatabase } from "./database/client";
import { boardReceipts } from "./database/tables";
import { boardEmployersPage, boardRevisionsPage } from "./database/reads";
import { recordTombstones, removeStrayJobs, renameEmployer } from "./database/writes";
import { applyJobChanges } from "./feed";
import { BOARD_CHANGES_PER_MESSAGE } from "./subscriber";

// DESIGN 17: the cron's repair of the board. It compares `(job id, revision)` of every job that
// should be on the board with the board's own, a page at a time (memory holds one page), and
// repairs every difference, so a lost message, or a board wiped by hand, costs one cron run.
// The comparison costs two reads per 5 000 jobs; the repairs themselves go to the board queue,
// 10 jobs a message, so that each consumer invocation repairs within D1's 1 000 queries per
// invocation however much the board lost (a rebuild of every job included).

/** Jobs compared per read: two small rows of numbers each, about 100 KB a page. */
const PAGE = 5_000;
/**
 * A job changed this recently is left to its message, on its way through the queue: repairing
 * it here would only do the consumer's work twice (the cron's own refreshes included). Should
 * the message be lost, the next run repairs it.
 */
const IN_FLIGHT_SECONDS = 60;
/** Whole jobs read at once for a repair: descriptions may be large, memory holds these only. */
const JOBS_PER_READ = 50;
/** Jobs a repair message names, as many as events in a notice (src/board/subscriber.ts). */
const JOBS_PER_REPAIR_MESSAGE = BOARD_CHANGES_PER_MESSAGE;
/** Messages per sendBatch (its limit is 100 messages and 256 KB). */
const MESSAGES_PER_SEND = 100;
const END = Number.MAX_SAFE_INTEGER;

/** What the board queue carries besides event notices: jobs of one shard whose board rows the cron found wrong. */
export interface RepairNotice {
  repair: number[];
  /** DESIGN 22: the shard the jobs live in (absent: 0, as in messages sent before shards). */
  shard?: number;
}

/** Where the jobs to repair go: to the board queue (the cron, a rebuild), or repaired at once (tests). */
export type RepairSink = (jobIds: number[]) => Promise<void>;

/** Hands the jobs of `env`'s shard to the board queue, 10 a message. */
export const repairThroughQueue =
  (env: Pick<Env, "BOARD_QUEUE" | "SHARD">): RepairSink =>
  async (jobIds) => {
    const messages: { body: RepairNotice }[] = [];
    for (let i = 0; i < jobIds.length; i += JOBS_PER_REPAIR_MESSAGE) messages.push({ body: { repair: jobIds.slice(i, i + JOBS_PER_REPAIR_MESSAGE), shard: shardOf(env) } });
    for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND) await env.BOARD_QUEUE.sendBatch(messages.slice(i, i + MESSAGES_PER_SEND));
  };

/**
 * Puts each job on the board as jobs has it now, whatever the board says it applied (a row lost
 * by hand still has its revision recorded), unless a newer change came meanwhile. A job no
 * longer on the board's side is left to its own message.
 */
export async function repairJobs(env: Pick<Env, "DB" | "BOARD_DB" | "SHARD">, jobIds: number[], nowMs: number): Promise<number> {
  const db = createDatabase(env.DB);
  const board = createBoardDatabase(env.BOARD_DB);
  const now = Math.floor(nowMs / 1000);
  let repaired = 0;
  for (let i = 0; i < jobIds.length; i += JOBS_PER_READ) {
    const rows = await visibleJobs(db, jobIds.slice(i, i + JOBS_PER_READ), now);
    await applyJobChanges(board, rows.map((row) => ({ jobId: row.id, revision: row.revision, row, shard: shardOf(env) })), "not older", now);
    repaired += rows.length;
  }
  return repaired;
}

export const repairAtOnce =
  (env: Pick<Env, "DB" | "BOARD_DB" | "SHARD">, nowMs: number): RepairSink =>
  async (jobIds) => {
    await repairJobs(env, jobIds, nowMs);
  };

export interface RepairOutcome {
  /** Jobs that should be on the board. */
  checked: number;
  /** Jobs to put back, or to bring up to date (handed to the sink). */
  repaired: number;
  /** Rows that should not have been there. */
  removed: number;
  /** Employers' names corrected. */
  renamed: number;
  /** The consumer's receipts past their retention, deleted (DESIGN 16a). */
  receiptsPruned: number;
}

/** The repair of the board rows of `env`'s shard (DESIGN 22: the cron runs it per shard). */
export async function repairBoard(
  env: Pick<Env, "DB" | "BOARD_DB" | "BOARD_QUEUE" | "SHARD">,
  nowMs: number,
  { inFlightSeconds = IN_FLIGHT_SECONDS, repair = repairThroughQueue(env) }: { inFlightSeconds?: number; repair?: RepairSink } = {},
): Promise<RepairOutcome> {
  const db = createDatabase(env.DB);
  const board = createBoardDatabase(env.BOARD_DB);
  const now = Math.floor(nowMs / 1000);
  const outcome: RepairOutcome = { checked: 0, repaired: 0, removed: 0, renamed: 0, receiptsPruned: 0 };
  for (let after = 0; after < END; ) {
    // The board first: a job that changes between the two reads is then seen newer in jobs, and
    // repaired with what jobs say, never with what the board said.
    const onBoard = await boardRevisionsPage(board, shardOf(env), after, PAGE);
    const expected = await visibleJobRevisions(db, after, PAGE, now);
    // The two pages compare up to where both are complete.
    const upTo = Math.min(onBoard.length === PAGE ? onBoard[PAGE - 1].jobId : END, expected.length === PAGE ? expected[PAGE - 1].id : END);
    const boardRevision = new Map(onBoard.filter((row) => row.jobId <= upTo).map((row) => [row.jobId, row.revision]));
    const compared = expected.filter((job) => job.id <= upTo);
    const settled = now - inFlightSeconds;
    const wanted = compared.filter((job) => job.updatedAt < settled || inFlightSeconds === 0);
    outcome.checked += wanted.length;
    const stale = wanted.filter((job) => boardRevision.get(job.id) !== job.revision).map((job) => job.id);
    if (stale.length) await repair(stale);
    outcome.repaired += stale.length;
    const wantedIds = new Set(compared.map((job) => job.id));
    const missing = onBoard.filter((row) => row.jobId <= upTo && !wantedIds.has(row.jobId));
    // DESIGN 22: a row naming this shard for a job whose employer moved away is no stray: the
    // shard it moved to repairs it (finding it missing from its own rows), naming itself.
    const movedAway = await employersMovedAway(db, [...new Set(missing.map((row) => row.employerId))]);
    const strays = missing.filter((row) => !movedAway.has(row.employerId)).map(({ jobId, revision }) => ({ jobId, revision }));
    if (strays.length) {
      await batch(board, [removeStrayJobs(strays)]);
      outcome.removed += strays.length;
    }
    after = upTo;
  }
  outcome.renamed = await repairEmployerNames(db, board, nowMs);
  outcome.receiptsPruned = await pruneReceipts(boardReceipts, nowMs, async (statement) => (await batch(board, [statement]))[0].meta.changes);
  return outcome;
}

async function repairEmployerNames(db: ReturnType<typeof createDatabase>, board: BoardDatabase, nowMs: number): Promise<number> {
  let renamed = 0;
  for (let after = 0; ; ) {
    const shown = await boardEmployersPage(board, after, PAGE);
    if (shown.length === 0) return renamed;
    const current = new Map((await employerNames(db, shown.map((e) => e.employerId))).map((e) => [e.id, e.name]));
    const wrong = shown.filter((e) => current.has(e.employerId) && current.get(e.employerId) !== e.name);
    for (const employer of wrong) await batch(board, renameEmployer(employer.employerId, current.get(employer.employerId)!, nowMs));
    renamed += wrong.length;
    after = shown[shown.length - 1].employerId;
  }
}

/** Rows deleted per statement while wiping: each fires the triggers that clear its lists. */
const WIPE_CHUNK = 5_000;

/**
 * Every board row derived from jobs goes (the places a migration seeded stay), except what the
 * board heard of each job (board_revisions): its tombstones keep a page of a job that left the
 * board a 410 (DESIGN 18a), and the repair's "not older" puts a job back at the revision
 * recorded, so a kept revision never holds one back. Returns how many jobs were wiped.
 */
async function wipeBoard(env: Pick<Env, "BOARD_DB">): Promise<number> {
  const board = createBoardDatabase(env.BOARD_DB);
  const [{ wiped }] = await all<{ wiped: number }>(board, sql`SELECT count(*) AS wiped FROM board_jobs`);
  // The word index first, whole: deleting its rows one by one (the triggers below) would leave
  // every wiped row's postings in its segments, marked deleted, for every query to step over.
  await batch(board, [sql`INSERT INTO board_search (board_search) VALUES ('delete-all')`]);
  for (;;) {
    const [result] = await batch(board, [sql`DELETE FROM board_jobs WHERE seq IN (SELECT seq FROM board_jobs LIMIT ${WIPE_CHUNK})`]);
    if (result.meta.changes === 0) break;
  }
  await batch(board, [sql`DELETE FROM board_employers`]);
  return wiped;
}

/**
 * Jobs read per page while looking for tombstones: two numbers each, as the repair's pages, and
 * every job of the page is read (its status first, its revision only if it left the board).
 */
const TOMBSTONE_PAGE = 5_000;

/**
 * DESIGN 18a: the tombstones of `env`'s shard's jobs that left the board (archived, or past their
 * closeDate), for a board that lost them with its database: their pages answer 410 again, not
 * 404. Written at the job's revision, so a message older than its leaving still changes nothing.
 * A job the board still knows keeps what the board recorded. A deleted job is gone from the
 * employer side, so its tombstone, once lost, cannot come back. Memory holds one page of ids.
 */
export async function restoreTombstones(env: Pick<Env, "DB" | "BOARD_DB" | "SHARD">, nowMs: number, { page = TOMBSTONE_PAGE }: { page?: number } = {}): Promise<number> {
  const db = createDatabase(env.DB);
  const board = createBoardDatabase(env.BOARD_DB);
  const now = Math.floor(nowMs / 1000);
  let restored = 0;
  for (let after = 0; ; ) {
    const read = await leftBoardPage(db, after, page, now);
    const left = read.flatMap((job) => (job.revision === null ? [] : [{ jobId: job.id, revision: job.revision, shard: shardOf(env) }]));
    if (left.length) await batch(board, [recordTombstones(left)]);
    restored += left.length;
    if (read.length < page) return restored;
    after = read[read.length - 1].id;
  }
}

/**
 * Not a Cron Trigger: `npm run board:rebuild` invokes the scheduled handler under this name
 * (scripts/board-rebuild.mjs), and the board's declaration runs rebuildBoard for it.
 */
export const BOARD_REBUILD = "board:rebuild";

/**
 * `npm run board:rebuild`: the board wiped (its tombstones kept), then, shard by shard, the
 * tombstones of the jobs that left the board put back (a board whose database was lost has none),
 * and the shard repaired with no job left to its message, which hands every job that should be on
 * the board to the board queue, whose consumer puts them back (scripts/board-rebuild.mjs waits
 * for it). `shards`: each shard's bindings, from the runner.
 */
export async function rebuildBoard(env: Pick<Env, "BOARD_DB">, shards: Pick<Env, "DB" | "BOARD_DB" | "BOARD_QUEUE" | "SHARD">[], nowMs: number) {
  const wiped = await wipeBoard(env);
  const repaired = [];
  for (const shard of shards) {
    const tombstones = await restoreTombstones(shard, nowMs);
    repaired.push({ ...(await repairBoard(shard, nowMs, { inFlightSeconds: 0 })), tombstones });
  }
  return { wiped, shards: repaired };
}
