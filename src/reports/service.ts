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
