import { and, eq, inArray, lt, lte } from "drizzle-orm";
import { createDatabase } from "../db/client";
import { employers, jobs } from "../db/schema";
import type { Env } from "../env";

export const AUTO_REFRESH_INTERVAL_SECONDS = 7 * 24 * 60 * 60;

export interface ScheduledRunResult {
  expired: number;
  refreshed: number;
}

/**
 * The hourly Cron Trigger: expiry, then auto-refresh, each one set-based statement, in one
 * batch (one round trip). `now` comes from the trigger, never the wall clock.
 */
export async function runScheduledJobs(env: Pick<Env, "DB">, now: Date): Promise<ScheduledRunResult> {
  const db = createDatabase(env.DB);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const [expired, refreshed] = await db.batch([
    db
      .update(jobs)
      .set({ status: "archived", updatedAt: nowSeconds })
      .where(and(eq(jobs.status, "active"), lt(jobs.closeDate, nowSeconds))),
    db
      .update(jobs)
      .set({ publishDate: nowSeconds, updatedAt: nowSeconds })
      .where(
        and(
          eq(jobs.status, "active"),
          eq(jobs.autoRefresh, true),
          lte(jobs.publishDate, nowSeconds - AUTO_REFRESH_INTERVAL_SECONDS),
          inArray(jobs.employerId, db.select({ id: employers.id }).from(employers).where(eq(employers.plan, "unlimited"))),
        ),
      ),
  ]);
  return { expired: expired.meta.changes, refreshed: refreshed.meta.changes };
}
