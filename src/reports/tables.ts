import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// DESIGN 18 (Ontario's Working for Workers Seven Act, 2025): reports of job postings from the
// board's pages, kept for the operator (`npm run reports`). Not tied to the job by a foreign
// key: a report outlives the posting it is about.
export const REPORT_REASONS = ["fraud", "discrimination", "misleading", "notAJob", "other"] as const;

export const jobReports = sqliteTable(
  "job_reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id").notNull(),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    details: text("details"),
    email: text("email"),
    createdAt: integer("created_at").notNull(),
  },
  // DESIGN 26: the operator's queue counts each job's reports from job_reports_job_idx alone.
  (t) => [index("job_reports_created_idx").on(t.createdAt), index("job_reports_job_idx").on(t.jobId, t.createdAt)],
);
