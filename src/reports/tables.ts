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
    /** DESIGN 26: when the operator acted on it (ms); null while it is open. */
    resolvedAt: integer("resolved_at"),
    /** How: the job removed, or the report dismissed. */
    resolution: text("resolution", { enum: ["removed", "dismissed"] }),
  },
  (t) => [index("job_reports_created_idx").on(t.createdAt), index("job_reports_job_idx").on(t.jobId, t.createdAt)],
);

/**
 * DESIGN 26: the operator's queue, most reported first — each job's open reports counted, kept by
 * triggers on job_reports (drizzle/0029), so the queue reads its page from an index and stops
 * there. Derived: a move carries job_reports, whose triggers rebuild it in the target.
 */
export const jobReportTallies = sqliteTable(
  "job_report_tallies",
  {
    jobId: integer("job_id").primaryKey(),
    open: integer("open").notNull(),
    /** The newest open report (ms). */
    latestAt: integer("latest_at").notNull(),
  },
  (t) => [index("job_report_tallies_queue_idx").on(t.open, t.latestAt)],
);
