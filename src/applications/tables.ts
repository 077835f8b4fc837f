import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jobs } from "../db/schema";

// DESIGN 15: applications collected for routing type 1. Deleting a job deletes them (and a
// trigger records their résumés' R2 keys in resume_deletions, which the cron empties).
export const applications = sqliteTable(
  "applications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    employerId: integer("employer_id").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    coverLetter: text("cover_letter"),
    receivedAt: integer("received_at").notNull(),
    resumeKey: text("resume_key"),
    resumeFilename: text("resume_filename"),
    resumeType: text("resume_type"),
    resumeSize: integer("resume_size"),
    emailStatus: text("email_status", { enum: ["pending", "sent", "failed"] }).notNull().default("pending"),
    emailAttempts: integer("email_attempts").notNull().default(0),
    emailSentAt: integer("email_sent_at"),
    emailNextAttemptAt: integer("email_next_attempt_at"),
  },
  (t) => [
    index("applications_job_idx").on(t.jobId, t.receivedAt, t.id),
    index("applications_received_idx").on(t.receivedAt),
    index("applications_email_due_idx").on(t.emailStatus, t.emailNextAttemptAt),
  ],
);

/** R2 keys of résumés whose application is gone, to delete from the bucket. */
export const resumeDeletions = sqliteTable("resume_deletions", {
  key: text("key").primaryKey(),
});
