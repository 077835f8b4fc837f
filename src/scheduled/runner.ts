import { and, eq, gt, inArray, lt, lte, sql } from "drizzle-orm";
import { createDatabase, type Database } from "../db/client";
import { employers, jobs } from "../db/schema";
import type { Env } from "../env";
import { expiredKeys } from "../idempotency/repository";

export const AUTO_REFRESH_INTERVAL_SECONDS = 7 * 24 * 60 * 60;

export type RuleName = "expiry" | "auto-refresh" | "idempotency-keys";

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
  return [
    {
      rule: "expiry",
      // A job closes AT closeDate: closeDate == now is still open, so strictly less than.
      statement: db
        .update(jobs)
        .set({ status: "archived", updatedAt: touched, revision: sql`${jobs.revision} + 1` })
        .where(and(eq(jobs.status, "active"), lt(jobs.closeDate, nowSeconds))),
    },
    {
      rule: "auto-refresh",
      statement: db
        .update(jobs)
        .set({ publishDate: nowSeconds, updatedAt: touched, revision: sql`${jobs.revision} + 1` })
        .where(
          and(
            eq(jobs.status, "active"),
            eq(jobs.autoRefresh, true),
            lte(jobs.publishDate, nowSeconds - AUTO_REFRESH_INTERVAL_SECONDS),
            // A job closing exactly now would get publishDate == closeDate, breaking "closeDate
            // is after publishDate". The unary + keeps this term off jobs_expiry_idx: without
            // it SQLite searches that index by close_date > now (nearly every open job)
            // instead of jobs_auto_refresh_idx.
            gt(sql`+${jobs.closeDate}`, nowSeconds),
            inArray(
              jobs.employerId,
              db.select({ id: employers.id }).from(employers).where(eq(employers.plan, "unlimited")),
            ),
          ),
        ),
    },
    {
      rule: "idempotency-keys",
      // DESIGN 11: keys are remembered 24 hours.
      statement: expiredKeys(db, nowSeconds),
    },
  ] as const;
}

/**
 * The hourly Cron Trigger's work: every rule in one D1 batch, so one round trip and one
 * transaction whatever the number of jobs. `now` comes from the trigger, never the wall clock.
 */
export async function runScheduledJobs(env: Pick<Env, "DB">, now: Date): Promise<RuleOutcome[]> {
  const db = createDatabase(env.DB);
  const rules = scheduledRules(db, Math.floor(now.getTime() / 1000));
  // D1's meta.changes also counts rows that triggers write (job_counts, job_search), so each
  // UPDATE is followed by SQLite's changes(): the rows that statement itself changed.
  const [first, ...rest] = rules.flatMap((r) => [r.statement, db.all<{ changed: number }>(sql`SELECT changes() AS changed`)]);
  const results = await db.batch([first, ...rest]);
  return rules.map((r, i) => ({ rule: r.rule, changed: (results[2 * i + 1] as { changed: number }[])[0].changed }));
}
