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

/** One report, as the operator sees it (the reporter's email included: DESIGN 26). */
export interface JobReport {
  id: number;
  jobId: number;
  reason: (typeof REPORT_REASONS)[number];
  details: string | null;
  email: string | null;
  createdAt: number;
  /** When the operator removed its job or dismissed it (ms); null while it is open. */
  resolvedAt: number | null;
  resolution: "removed" | "dismissed" | null;
}

const REPORT_COLUMNS = sql.raw("id, job_id AS jobId, reason, details, email, created_at AS createdAt, resolved_at AS resolvedAt, resolution");

/** The newest `limit` reports of the employer's jobs in this shard. */
export function reportsOfEmployer(db: Database, employerId: number, limit: number): Promise<JobReport[]> {
  return db.all<JobReport>(sql`SELECT ${REPORT_COLUMNS} FROM ${jobReports}
    WHERE job_id IN (SELECT id FROM jobs WHERE employer_id = ${employerId}) ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
}

/** DESIGN 26: the job's newest `limit` reports in this shard, open or resolved (from job_reports_job_idx). */
export function reportsOfJob(db: Database, jobId: number, limit: number): Promise<JobReport[]> {
  return db.all<JobReport>(sql`SELECT ${REPORT_COLUMNS} FROM ${jobReports} WHERE job_id = ${jobId} ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
}

/** The employer's jobs in this shard whose reports the operator resolved by removing the job, the latest removal first. */
export function removalsOfEmployer(db: Database, employerId: number, limit: number): Promise<{ jobId: number; removedAt: number; reports: number }[]> {
  return db.all(sql`SELECT job_id AS jobId, max(resolved_at) AS removedAt, count(*) AS reports FROM ${jobReports}
    WHERE resolution = 'removed' AND job_id IN (SELECT id FROM jobs WHERE employer_id = ${employerId}) GROUP BY job_id ORDER BY removedAt DESC LIMIT ${limit}`);
}
