import { sql } from "drizzle-orm";
import { toStatement, type Database } from "../db/client";
import type { Chunk, ChunkWork, Query } from "../db/windows";
import { recordedEventsOf, type RecordedEvent } from "../events/outbox";

// DESIGN 22, a bounded cron: no D1 call of the cron holds the database for long. Each rule works
// through its rows a chunk at a time, each chunk in one atomic batch with its events, until a
// chunk comes back short or the run's time budget is spent. A rule's own condition leaves out the
// rows it has changed, so the next run, starting again from the first row still eligible,
// continues where this one stopped: nothing is skipped, nothing done twice.

/**
 * Rows one round trip changes at most, shared by the rules in it: at 100 000 eligible jobs a round
 * of 800 (400 expired and 400 refreshed jobs, with their events) took 108 ms (median), 182 ms at
 * most, under DESIGN 22's 250 ms per D1 call (docs/scaling.md, "Bounded cron").
 */
export const ROUND_ROWS = 800;
/** How long a run starts new rounds: with the stages that follow, the whole run stays inside 10 s. */
export const RUN_BUDGET_MS = 5_000;
/** How much one run does: rows per round, and the time (Date.now()) after which it starts no more. */
export interface Bounds {
  rows: number;
  deadline: number;
}

/** A run's bounds, its budget counted from now. */
export function cronBounds({ rows = ROUND_ROWS, budgetMs = RUN_BUDGET_MS }: { rows?: number; budgetMs?: number } = {}): Bounds {
  return { rows, deadline: Date.now() + budgetMs };
}

export const firstChunk = (rows = ROUND_ROWS): Chunk => ({ rows, after: null });

export interface ChunkedRule {
  rule: string;
  chunk(chunk: Chunk): ChunkWork;
}

/** What a run did of a rule, for the cron's log line: `finished` false leaves the rest to the next run. */
export interface RuleProgress {
  rule: string;
  changed: number;
  chunks: number;
  finished: boolean;
}

// D1's meta.changes also counts rows that triggers write (job_counts, the search index), so each
// change is followed by SQLite's changes(): the rows that statement itself changed.
const CHANGED = sql`SELECT changes() AS changed`;
/** Between two rounds of a run: about 1 s over the 127 rounds of 100 000 jobs. */
export const ROUND_PAUSE_MS = 10;

/**
 * Runs `rules` chunk by chunk, in rounds: a round is one batch holding the next chunk of every rule
 * still running, in the order of `rules`, sharing the round's rows (so a quiet run costs one round
 * trip, and a busy one never changes more than `bounds.rows` rows in one). A rule runs until its
 * chunk comes back short or the budget is spent, but not before it has changed a row: each run
 * starts a rule from its first row, so rows it leaves as they are (jobs already noticed, of
 * standard-plan employers) must never hold it back a whole run. The chunks' events are added to
 * `recorded`. `alongside` ride in the first round's batch (a stage's other upkeep, in the same
 * round trip); their results are returned.
 */
export async function runChunked(
  db: Database,
  rules: ChunkedRule[],
  bounds: Bounds,
  { recorded = [], alongside = [] }: { recorded?: RecordedEvent[]; alongside?: Query[] } = {},
): Promise<{ rules: RuleProgress[]; alongside: D1Result[] }> {
  const progress = rules.map(({ rule }) => ({ rule, changed: 0, chunks: 0, finished: false }));
  const after: Chunk["after"][] = rules.map(() => null);
  const running = () => rules.flatMap((_, i) => (!progress[i].finished && (progress[i].changed === 0 || Date.now() < bounds.deadline) ? [i] : []));
  let riding = alongside;
  let ridden: D1Result[] | undefined;
  for (let round = running(); round.length > 0; round = running()) {
    const rows = Math.max(1, Math.floor(bounds.rows / round.length));
    const works = round.map((i) => rules[i].chunk({ rows, after: after[i] }));
    const statements = [...riding, ...works.flatMap((work) => [work.last, ...work.statements, CHANGED, ...(work.after ?? [])])];
    const results = await db.$client.batch(statements.map((statement) => toStatement(db, statement)));
    ridden ??= results.slice(0, riding.length);
    let at = riding.length;
    round.forEach((i, n) => {
      const own = results.slice(at, (at += works[n].statements.length + 2));
      at += works[n].after?.length ?? 0;
      recorded.push(...recordedEventsOf(own.slice(1, -1)));
      after[i] = (own[0].results[0] as Chunk["after"]) ?? null;
      progress[i].changed += (own.at(-1)!.results[0] as { changed: number }).changed;
      progress[i].chunks++;
      progress[i].finished = after[i] === null;
    });
    riding = [];
    // The database serves one query at a time: a pause before the next round lets the queries
    // queued meanwhile (other tenants' requests) go first. Without it, back-to-back rounds held
    // every other query of the shard for the whole run (docs/performance.md).
    await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
  }
  return { rules: progress, alongside: ridden! };
}
