import { and, eq, gt, inArray, isNull, lt, lte, not, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { createDatabase, type Database } from "../db/client";
import { recordEvents, type RecordedEvent } from "../events/outbox";
import type { JobEventType } from "../events/types";
import { scheduledEventSource, unchangedJobEventSource } from "./repository";
import { APPLY_SEARCH_INDEX, DEFER_SEARCH_INDEX } from "./search-index";
import { employers, jobExpiryNotices, jobs } from "../db/schema";
import type { Env } from "../env";
import { expiredKeys } from "../idempotency/repository";
import { ofUnlockedEmployer } from "../shards/locks";
import { cronBounds, firstChunk, runChunked, type ChunkedRule, type RuleProgress } from "../scheduled/chunks";
import { windowOf, type Chunk, type Query } from "../db/windows";

export const AUTO_REFRESH_INTERVAL_SECONDS = 7 * 24 * 60 * 60;
/** DESIGN 21a: job.expiring goes out once a job closes within 72 hours. */
export const EXPIRING_NOTICE_SECONDS = 72 * 60 * 60;

/**
 * One chunk of a scheduled rule: its window's last row, its change, and the event of each job it
 * changes; `movesSearchEntries` when the change moves the jobs' entries in the list's search index
 * (their status or publishDate), which the chunk then defers to the end of its batch.
 */
interface RuleChunk {
  last: SQL;
  statement: Query;
  event?: { type: JobEventType; source: SQL };
  movesSearchEntries?: boolean;
}

/**
 * The jobs a rule changes in a chunk: those it reads of `range` (in `key` order) that meet its
 * `other` conditions, of an employer not locked by a move (DESIGN 22): the triggers would refuse
 * the whole chunk for one such job. Its jobs stay eligible, for a run once the move is done; the
 * window goes on past them, so they never hold the others back.
 */
function jobsOfChunk(range: SQL, key: SQLiteColumn, other?: SQL) {
  const window = windowOf({ table: jobs, key, range, other, id: jobs.id });
  return (chunk: Chunk) => {
    const { ids, last } = window(chunk);
    return { last, jobs: sql`${jobs.id} IN (${ids}) AND ${ofUnlockedEmployer(jobs.employerId)}` };
  };
}

/**
 * The scheduled rules in run order, each a function of its chunk: expiry first, so a job that
 * closes in this run is archived, not refreshed (the refresh's closeDate term skips it anyway,
 * even when the expiry is left unfinished; the order keeps the intent obvious).
 */
function jobRules(db: Database, nowSeconds: number): { rule: string; chunk(chunk: Chunk): RuleChunk }[] {
  // Never move updated_at backwards: a PUT may land between scheduledTime and the run.
  const touched = sql`max(${jobs.updatedAt}, ${nowSeconds})`;
  // A job closes AT closeDate: closeDate == now is still open, so strictly less than.
  const expiring = jobsOfChunk(and(eq(jobs.status, "active"), lt(jobs.closeDate, nowSeconds))!, jobs.closeDate);
  // DESIGN 26: a suspended employer's jobs are not refreshed (they are off the board until it is reinstated).
  const refreshedByTheCron = and(
    eq(jobs.autoRefresh, true),
    inArray(jobs.employerId, db.select({ id: employers.id }).from(employers).where(and(eq(employers.plan, "unlimited"), isNull(employers.suspendedAt)))),
  )!;
  const refreshing = jobsOfChunk(
    and(eq(jobs.status, "active"), eq(jobs.autoRefresh, true), lte(jobs.publishDate, nowSeconds - AUTO_REFRESH_INTERVAL_SECONDS))!,
    jobs.publishDate,
    and(
      // A job closing exactly now would get publishDate == closeDate, breaking "closeDate is
      // after publishDate". The unary + keeps this term off jobs_expiry_idx: the jobs read are
      // found by id.
      gt(sql`+${jobs.closeDate}`, nowSeconds),
      refreshedByTheCron,
    ),
  );
  // DESIGN 21a: open, closing within 72 hours, not kept open by the refresh, and not yet
  // noticed for this closeDate.
  const closingSoon = jobsOfChunk(
    and(eq(jobs.status, "active"), gt(jobs.closeDate, nowSeconds), lte(jobs.closeDate, nowSeconds + EXPIRING_NOTICE_SECONDS))!,
    jobs.closeDate,
    and(not(refreshedByTheCron), sql`NOT EXISTS (SELECT 1 FROM ${jobExpiryNotices} n WHERE n.job_id = ${jobs.id} AND n.close_date = ${jobs.closeDate})`),
  );
  return [
    {
      rule: "expiry",
      chunk(chunk) {
        const { last, jobs: expired } = expiring(chunk);
        return {
          last,
          statement: db.update(jobs).set({ status: "archived", updatedAt: touched, revision: sql`${jobs.revision} + 1` }).where(expired),
          // DESIGN 13: job.expired for each, recorded before the UPDATE, as the UPDATE leaves it.
          event: { type: "job.expired", source: scheduledEventSource(expired, sql`'$.status', 'archived'`) },
          movesSearchEntries: true,
        };
      },
    },
    {
      rule: "auto-refresh",
      chunk(chunk) {
        const { last, jobs: refreshed } = refreshing(chunk);
        return {
          last,
          statement: db.update(jobs).set({ publishDate: nowSeconds, updatedAt: touched, revision: sql`${jobs.revision} + 1` }).where(refreshed),
          event: { type: "job.refreshed", source: scheduledEventSource(refreshed, sql`'$.publishDate', ${nowSeconds}`) },
          movesSearchEntries: true,
        };
      },
    },
    {
      rule: "expiring-notices",
      // After the expiry's chunk: a job it expired is no longer active, and gets no notice.
      chunk(chunk) {
        const { last, jobs: noticed } = closingSoon(chunk);
        return {
          last,
          statement: sql`INSERT OR REPLACE INTO ${jobExpiryNotices} (job_id, close_date) SELECT id, close_date FROM ${jobs} WHERE ${noticed}`,
          event: { type: "job.expiring", source: unchangedJobEventSource(noticed) },
        };
      },
    },
    // DESIGN 11: keys are remembered 24 hours.
    { rule: "idempotency-keys", chunk: (chunk) => expiredKeys(db, nowSeconds, chunk) },
  ];
}

/** One chunk of each rule (by default the first), so that tests can EXPLAIN the very statements the cron runs. */
export function scheduledRules(db: Database, nowSeconds: number, chunk: Chunk = firstChunk()) {
  return jobRules(db, nowSeconds).map((rule) => ({ rule: rule.rule, ...rule.chunk(chunk) }));
}

/**
 * The hourly Cron Trigger's work on the jobs of one database (`env.DB`): every rule in bounded
 * chunks, each chunk one atomic batch with the events of the jobs it changes (inserted
 * set-based), until done or out of `bounds` (src/scheduled/chunks.ts). `now` comes from the
 * trigger, never the wall clock. The events recorded are then dispatched; `recorded` collects them.
 */
export async function runScheduledJobs(env: Pick<Env, "DB">, now: Date, recorded: RecordedEvent[] = [], bounds = cronBounds()): Promise<RuleProgress[]> {
  const db = createDatabase(env.DB);
  const rules: ChunkedRule[] = jobRules(db, Math.floor(now.getTime() / 1000)).map(({ rule, chunk }) => ({
    rule,
    chunk(at) {
      const { last, statement, event, movesSearchEntries } = chunk(at);
      const events = event ? [recordEvents(event.type, now.getTime(), event.source)] : [];
      if (!movesSearchEntries) return { last, statements: [...events, statement] };
      // The list's search index follows the chunk's jobs at the end of its batch, in rowid order (drizzle/0025).
      return { last, statements: [DEFER_SEARCH_INDEX, ...events, statement], after: APPLY_SEARCH_INDEX };
    },
  }));
  return (await runChunked(db, rules, bounds, { recorded })).rules;
}
