import { z } from "zod";
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

/** Stores a report of a job on the board; a 400 naming each bad field. */
export async function reportJob(db: Database, jobId: number, fields: Record<string, unknown>): Promise<void> {
  const parsed = ReportSchema.safeParse(fields);
  if (!parsed.success) throw new ValidationError(toFieldErrors(parsed.error.issues));
  await db.insert(jobReports).values({ jobId, ...parsed.data, createdAt: Date.now() });
}
