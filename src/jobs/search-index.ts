import { sql } from "drizzle-orm";
import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { ROUND_PAUSE_MS } from "../scheduled/chunks";
import { type Query } from "../db/windows";

// The list's search index (job_search, drizzle/0025): its upkeep by the cron. The jobs triggers
// keep it as jobs change; a chunk of the cron, which changes hundreds of jobs in one statement,
// defers it to the end of its batch so that FTS5 writes the moved entries in rowid order; and the
// cron's last stage merges the index's b-trees (docs/performance.md, "`q`: an index in the list's
// order").

/**
 * The first statement of a batch that changes many jobs at once: from here to `APPLY_SEARCH_INDEX`
 * the update trigger records each entry's move in job_search_moves instead of moving it.
 */
export const DEFER_SEARCH_INDEX: Query = sql`INSERT INTO job_search_deferral (id) VALUES (1)`;

/**
 * The moves recorded since `DEFER_SEARCH_INDEX`, in the same batch: the old entries deleted, the
 * new ones added, each in rowid order (a rowid lower than the one before would make FTS5 start
 * another b-tree: row by row, one per job), then the records and the deferral removed.
 */
export const APPLY_SEARCH_INDEX: Query[] = [
  sql`DELETE FROM job_search WHERE rowid IN (SELECT old_rowid FROM job_search_moves)`,
  sql`INSERT INTO job_search (rowid, title, reference_id, e, s) SELECT new_rowid, title, reference_id, e, s FROM job_search_moves ORDER BY new_rowid`,
  sql`DELETE FROM job_search_moves`,
  sql`DELETE FROM job_search_deferral`,
];

// The index gains a b-tree with every write, and a change or a delete leaves a tombstone in the
// b-tree that held the entry; the writes themselves do not merge them (automerge is off: a write
// once paid seconds for it). Every `q` reads every b-tree and skips every tombstone, so the hourly
// cron merges them with FTS5's 'merge' command, a bounded statement at a time (DESIGN 22) with a
// pause between statements: a search then reads one large b-tree and a few small ones.

/**
 * Leaf pages one 'merge' statement writes at most (a term's whole list is written in one go, so a
 * statement may write somewhat more). At the bench's 222 000 jobs: 250 pages took 57 ms (median of
 * 3) with the machine loaded, 500 pages 120 ms, 1 000 pages 208 ms (docs/performance.md).
 */
export const MERGE_PAGES = 250;
/** Statements one run makes at most. */
export const MERGES_PER_RUN = 40;
/** How long a run starts new statements: the run's other stages and this stay inside DESIGN 22's 10 s. */
export const MERGE_BUDGET_MS = 2_000;

/**
 * A positive page count merges only what FTS5 finds worth merging: a merge already started, or a
 * level with at least `usermerge` b-trees, which drizzle/0025 sets to 2 (the least), so that runs
 * bring the index down to about one b-tree a level. A negative count would gather every b-tree
 * into one level first and start again whenever a write added one, so a merge cut short by a
 * run's end would never finish under steady writes.
 */
const MERGE = "INSERT INTO job_search (job_search, rank) VALUES ('merge', ?)";
// FTS5's own test of whether a merge did anything: total_changes() moves by 2 or more.
const CHANGES = "SELECT total_changes() AS n";

export interface MergeProgress {
  merges: number;
  /** Nothing was left to merge (else the next run goes on with it). */
  finished: boolean;
}

/**
 * Merges the search index's b-trees until nothing is left to merge, `maxMerges` statements have
 * run or `budgetMs` has passed, but at least once: one statement of at most `pages` pages per D1
 * call, with a pause between them so that other tenants' queries go first. Its own budget, not
 * what the job rules left of theirs: after a busy hour (the rules' chunks leave the most
 * tombstones) it would otherwise get one statement.
 */
export async function mergeSearchIndex(
  env: Pick<Env, "DB">,
  { pages = MERGE_PAGES, maxMerges = MERGES_PER_RUN, budgetMs = MERGE_BUDGET_MS }: { pages?: number; maxMerges?: number; budgetMs?: number } = {},
): Promise<MergeProgress> {
  const d1 = createDatabase(env.DB).$client;
  const deadline = Date.now() + budgetMs;
  for (let merges = 1; ; merges++) {
    const [before, , after] = await d1.batch([d1.prepare(CHANGES), d1.prepare(MERGE).bind(pages), d1.prepare(CHANGES)]);
    const worked = (after.results[0] as { n: number }).n - (before.results[0] as { n: number }).n >= 2;
    if (!worked) return { merges, finished: true };
    if (merges >= maxMerges || Date.now() >= deadline) return { merges, finished: false };
    await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
  }
}
