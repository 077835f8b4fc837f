import { sql, type SQL } from "drizzle-orm";
import { toStatement, type Database } from "../db/client";
import { ofUnlockedEmployer } from "../shards/locks";
import { DAY_MS } from "./rules";
import type { JobView } from "./views";

// DESIGN 21: the views table's one write (a whole queue batch) and the stats' one read.

/**
 * Adds the views in one statement; returns those it did not count: of a job this shard does not
 * hold (deleted meanwhile, or moved with its employer), or of an employer locked by a move
 * (DESIGN 22), whose trigger would refuse the whole statement.
 */
export async function addViews(db: Database, views: JobView[]): Promise<JobView[]> {
  if (views.length === 0) return [];
  const { results } = await toStatement(
    db,
    sql`INSERT INTO job_views (job_id, day, views)
      SELECT v.job_id, v.day, v.views FROM (
        SELECT json_extract(value, '$.jobId') AS job_id, json_extract(value, '$.day') AS day, json_extract(value, '$.views') AS views FROM json_each(${JSON.stringify(views)})
      ) v
      WHERE EXISTS (SELECT 1 FROM jobs WHERE id = v.job_id AND ${ofUnlockedEmployer(sql.raw("employer_id"))})
      ON CONFLICT (job_id, day) DO UPDATE SET views = views + excluded.views
      RETURNING job_id AS jobId, day`,
  ).all<{ jobId: number; day: number }>();
  const counted = new Set(results.map((row) => `${row.jobId}.${row.day}`));
  return views.filter((view) => !counted.has(`${view.jobId}.${view.day}`));
}

/**
 * One round trip: whether the employer owns the job (and whether it is a test job), its views and
 * its applications per day of the range. Undefined: no such job of this employer.
 */
export async function numbersOf(db: Database, employerId: number, jobId: number, range: { from: number; to: number }) {
  const [job, views, applications] = await db.$client.batch([
    toStatement(db, sql`SELECT test FROM jobs WHERE id = ${jobId} AND employer_id = ${employerId}`),
    toStatement(db, sql`SELECT day, views FROM job_views WHERE job_id = ${jobId} AND day BETWEEN ${range.from} AND ${range.to}`),
    toStatement(
      db,
      // The divisor is written into the SQL: a bound number may arrive as a REAL, and the day must stay whole.
      sql`SELECT received_at / ${sql.raw(String(DAY_MS))} AS day, count(*) AS applications FROM applications
        WHERE job_id = ${jobId} AND received_at >= ${range.from * DAY_MS} AND received_at < ${(range.to + 1) * DAY_MS} GROUP BY 1`,
    ),
  ]);
  const row = job.results[0] as { test: number } | undefined;
  if (!row) return undefined;
  return {
    test: row.test === 1,
    views: new Map((views.results as { day: number; views: number }[]).map((r) => [r.day, r.views])),
    applications: new Map((applications.results as { day: number; applications: number }[]).map((r) => [r.day, r.applications])),
  };
}

/** A job's totals since it was posted, as totalsOf reads them. */
export interface TotalsRow {
  jobId: number;
  test: number;
  views: number;
  applications: number;
}

/**
 * Every view and application of each of the employer's jobs among `jobIds` (a subquery: say, a
 * list's page), in one statement; a job of another employer is left out.
 */
export const totalsOf = (employerId: number, jobIds: SQL) =>
  sql`SELECT j.id AS jobId, j.test AS test,
        (SELECT coalesce(sum(v.views), 0) FROM job_views v WHERE v.job_id = j.id) AS views,
        (SELECT count(*) FROM applications a WHERE a.job_id = j.id) AS applications
      FROM jobs j WHERE j.id IN (${jobIds}) AND +j.employer_id = ${employerId}`;
