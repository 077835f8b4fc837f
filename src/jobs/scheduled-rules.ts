import { and, eq, gt, inArray, lt, lte, not, sql } from "drizzle-orm";
import { createDatabase, toStatement, type Database } from "../db/client";
import { recordEvents, recordedEventsOf, type RecordedEvent } from "../events/outbox";
import { scheduledEventSource, unchangedJobEventSource } from "./repository";
import { employers, jobExpiryNotices, jobs } from "../db/schema";
import type { Env } from "../env";
import { expiredKeys } from "../idempotency/repository";

export const AUTO_REFRESH_INTERVAL_SECONDS = 7 * 24 * 60 * 60;
/** DESIGN 21a: job.expiring goes out once a job closes within 72 hours. */
export const EXPIRING_NOTICE_SECONDS = 72 * 60 * 60;

export type RuleName = "expiry" | "auto-refresh" | "expiring-notices" | "idempotency-keys";

export interface RuleOutcome {
  rule: RuleName;
  changed: number;
}

/**
 * The scheduled rules, each one set-based UPDATE, in run order: expiry first, so a job that
 * closes in this run is archived, not refreshed (the refresh's closeDate term would skip it
 * anyway; the order keeps the intent obvious). Exported so tests can EXPLAIN the very
 * statements the cron runs.
 */
export function scheduledRules(db: Database, nowSeconds: number) {
  // Never move updated_at backwards: a PUT may land between scheduledTime and the run.
  const touched = sql`max(${jobs.updatedAt}, ${nowSeconds})`;
  // A job closes AT closeDate: closeDate == now is still open, so strictly less than.
  const expiring = and(eq(jobs.status, "active"), lt(jobs.closeDate, nowSeconds))!;
  const refreshedByTheCron = and(eq(jobs.autoRefresh, true), inArray(jobs.employerId, db.select({ id: employers.id }).from(employers).where(eq(employers.plan, "unlimited"))))!;
  const refreshing = and(
    eq(jobs.status, "active"),
    eq(jobs.autoRefresh, true),
    lte(jobs.publishDate, nowSeconds - AUTO_REFRESH_INTERVAL_SECONDS),
    // A job closing exactly now would get publishDate == closeDate, breaking "closeDate
    // is after publishDate". The unary + keeps this term off jobs_expiry_idx: without
    // it SQLite searches that index by close_date > now (nearly every open job)
    // instead of jobs_auto_refresh_idx.
    gt(sql`+${jobs.closeDate}`, nowSeconds),
    refreshedByTheCron,
  )!;
  // DESIGN 21a: open, closing within 72 hours, not kept open by the refresh, and not yet
  // noticed for this closeDate.
  const closingSoon = and(
    eq(jobs.status, "active"),
    gt(jobs.closeDate, nowSeconds),
    lte(jobs.closeDate, nowSeconds + EXPIRING_NOTICE_SECONDS),
    not(refreshedByTheCron),
    sql`NOT EXISTS (SELECT 1 FROM ${jobExpiryNotices} n WHERE n.job_id = ${jobs.id} AND n.close_date = ${jobs.closeDate})`,
  )!;
  return [
    {
      rule: "expiry",
      statement: db.update(jobs).set({ status: "archived", updatedAt: touched, revision: sql`${jobs.revision} + 1` }).where(expiring),
      // DESIGN 13: job.expired for each, recorded before the UPDATE, as the UPDATE leaves it.
      event: { type: "job.expired", source: scheduledEventSource(expiring, sql`'$.status', 'archived'`) },
    },
    {
      rule: "auto-refresh",
      statement: db.update(jobs).set({ publishDate: nowSeconds, updatedAt: touched, revision: sql`${jobs.revision} + 1` }).where(refreshing),
      event: { type: "job.refreshed", source: scheduledEventSource(refreshing, sql`'$.publishDate', ${nowSeconds}`) },
    },
    {
      rule: "expiring-notices",
      // Last of the job rules: a job this run expired is no longer active, and gets no notice.
      statement: sql`INSERT OR REPLACE INTO ${jobExpiryNotices} (job_id, close_date) SELECT id, close_date FROM ${jobs} WHERE ${closingSoon}`,
      event: { type: "job.expiring", source: unchangedJobEventSource(closingSoon) },
    },
    {
      rule: "idempotency-keys",
      // DESIGN 11: keys are remembered 24 hours.
      statement: expiredKeys(db, nowSeconds),
    },
  ] as const;
}

/**
 * The hourly Cron Trigger's work: every rule, and the events of the jobs it changes (inserted
 * set-based), in one D1 batch: one round trip and one transaction whatever the number of jobs.
 * `now` comes from the trigger, never the wall clock. The events recorded are then dispatched;
 * `recorded` collects them.
 */
export async function runScheduledJobs(env: Pick<Env, "DB">, now: Date, recorded: RecordedEvent[] = []): Promise<RuleOutcome[]> {
  const db = createDatabase(env.DB);
  const rules = scheduledRules(db, Math.floor(now.getTime() / 1000));
  // D1's meta.changes also counts rows that triggers write (job_counts, job_search), so each
  // UPDATE is followed by SQLite's changes(): the rows that statement itself changed.
  const changed = sql`SELECT changes() AS changed`;
  const statements = rules.flatMap((r) => [
    ...("event" in r
      ? [recordEvents(r.event.type, now.getTime(), r.event.source)]
      : []),
    r.statement,
    changed,
  ]);
  const results = await db.$client.batch(statements.map((statement) => toStatement(db, statement)));
  recorded.push(...recordedEventsOf(results));
  const counts = results.filter((_, i) => statements[i] === changed).map((result) => (result.results[0] as { changed: number }).changed);
  return rules.map((r, i) => ({ rule: r.rule, changed: counts[i] }));
}
