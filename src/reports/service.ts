import { sql } from "drizzle-orm";
import * as z from "../http/zod";
import type { Database } from "../db/client";
import { ValidationError } from "../http/problem";
import { toFieldErrors } from "../http/validation";
import { jobReports, REPORT_REASONS } from "./tables";

// A report of a posting (DESIGN 18, 18a): reason, details, an optional email to answer.

export const ReportSchema = z.object({
  reason: z.enum(REPORT_REASONS),
  details: z
    .string()
    .max(2_000)
    .optional()
    .transform((text) => text?.trim() || null),
  email: z
    .string()
    .max(254)
    .optional()
    .transform((text) => text?.trim() || null)
    .refine((text) => text === null || z.string().email().safeParse(text).success, "email must be a valid email address, or left empty."),
});

/**
 * Stores a report of a job on the board; a 400 naming each bad field. DESIGN 22: stored only
 * where the job is, unless `evenWithoutJob` (a report outlives its posting); false when this shard
 * holds no such job and nothing was stored.
 */
export async function reportJob(db: Database, jobId: number, fields: Record<string, unknown>, { evenWithoutJob = false } = {}): Promise<boolean> {
  const parsed = ReportSchema.safeParse(fields);
  if (!parsed.success) throw new ValidationError(toFieldErrors(parsed.error.issues));
  const { reason, details, email } = parsed.data;
  const stored = await db.all(sql`INSERT INTO ${jobReports} (job_id, reason, details, email, created_at)
    SELECT ${jobId}, ${reason}, ${details}, ${email}, ${Date.now()} WHERE ${evenWithoutJob ? sql`true` : sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${jobId})`}
    RETURNING id`);
  return stored.length > 0;
}

/** A job's reports, as the operator's queue counts them (DESIGN 26). */
export interface ReportedJob {
  jobId: number;
  reports: number;
  latestAt: number;
  reasons: Record<(typeof REPORT_REASONS)[number], number>;
}

/** One report, as the operator sees it (the reporter's email included: DESIGN 26). */
export interface JobReport {
  id: number;
  jobId: number;
  reason: (typeof REPORT_REASONS)[number];
  details: string | null;
  email: string | null;
  createdAt: number;
}

const reasonCounts = sql.raw(REPORT_REASONS.map((reason) => `sum(reason = '${reason}') AS "${reason}"`).join(", "));

/**
 * DESIGN 26: the jobs of this shard with reports, most reported first (then the latest report
 * first), `limit` of them; counted from job_reports_job_idx.
 */
export async function reportedJobs(db: Database, limit: number): Promise<ReportedJob[]> {
  const rows = await db.all<{ jobId: number; reports: number; latestAt: number } & Record<(typeof REPORT_REASONS)[number], number>>(
    sql`SELECT job_id AS jobId, count(*) AS reports, max(created_at) AS latestAt, ${reasonCounts} FROM ${jobReports} GROUP BY job_id ORDER BY reports DESC, latestAt DESC LIMIT ${limit}`,
  );
  return rows.map(({ jobId, reports, latestAt, ...reasons }) => ({ jobId, reports, latestAt, reasons }));
}

/** The newest `limit` reports of the employer's jobs in this shard. */
export function reportsOfEmployer(db: Database, employerId: number, limit: number): Promise<JobReport[]> {
  return db.all<JobReport>(sql`SELECT id, job_id AS jobId, reason, details, email, created_at AS createdAt FROM ${jobReports}
    WHERE job_id IN (SELECT id FROM jobs WHERE employer_id = ${employerId}) ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
}
