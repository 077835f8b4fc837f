import { sql, type SQL } from "drizzle-orm";
import { createDatabase, type Database } from "../db/client";
import type { Env } from "../env";
import { shardDatabase, shardNumbers } from "../shards/bindings";
import { jobReportTallies, jobReports } from "./tables";

// DESIGN 26: what the operator does with reports. A report is open until the operator removes its
// job or dismisses it; each shard counts its jobs' open reports in job_report_tallies (kept by
// triggers), so the queue, most reported first, is read from an index and stops at its page.

/** How the operator resolved a job's open reports. */
type Resolution = (typeof jobReports.$inferSelect)["resolution"] & string;

/** For the act's own batch (a removal, in the job's shard): the job's open reports, resolved. */
export const resolveReports = (jobId: number, resolution: Resolution, at: number): SQL =>
  sql`UPDATE ${jobReports} SET resolved_at = ${at}, resolution = ${resolution} WHERE job_id = ${jobId} AND resolved_at IS NULL RETURNING id`;

/** A job with open reports, as this shard counts them. */
export interface OpenReports {
  jobId: number;
  /** Its open reports. */
  open: number;
  /** The newest of them (ms). */
  latestAt: number;
}

/** The `limit` jobs of this shard with the most open reports (the newest first among equals), from job_report_tallies_queue_idx. */
export function mostReportedJobs(db: Database, limit: number): Promise<OpenReports[]> {
  return db.all<OpenReports>(
    sql`SELECT job_id AS jobId, open, latest_at AS latestAt FROM ${jobReportTallies} ORDER BY open DESC, latest_at DESC LIMIT ${limit}`,
  );
}

/**
 * DESIGN 26: the operator dismisses a job's open reports (the job stays as it is). A job's reports
 * are filed in its shard and move with it, so every shard is asked (one indexed statement each).
 * How many were dismissed (0: none was open).
 */
export async function dismissReports(env: Env, act: { jobId: number }, now = Date.now()): Promise<number> {
  // Counted by RETURNING: D1's `changes` would count the tallies' triggers too.
  const dismissed = await Promise.all(shardNumbers(env).map((shard) => createDatabase(shardDatabase(env, shard)).all(resolveReports(act.jobId, "dismissed", now))));
  return dismissed.reduce((sum, rows) => sum + rows.length, 0);
}
