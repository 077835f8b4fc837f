import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { jobs } from "../db/schema";
import { APPLICATION_STATUSES } from "./pipeline";

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
    // "skipped": an application to a test job (DESIGN 21), whose copy is never sent.
    emailStatus: text("email_status", { enum: ["pending", "sent", "failed", "skipped"] }).notNull().default("pending"),
    emailAttempts: integer("email_attempts").notNull().default(0),
    emailSentAt: integer("email_sent_at"),
    emailNextAttemptAt: integer("email_next_attempt_at"),
    // DESIGN 20: the answers to the job's screening questions (JSON), and whether one screened out.
    answers: text("answers"),
    screenedOut: integer("screened_out", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: APPLICATION_STATUSES }).notNull().default("received"),
    /** Grows with every move: the application's ETag is made from it. */
    revision: integer("revision").notNull().default(1),
    updatedAt: integer("updated_at").notNull().default(0),
    /** The last move to `interviewing`; decisionDueAt is 45 days later while not final. */
    interviewedAt: integer("interviewed_at"),
    /** When the cron emits `application.decision_due` (7 days before the decision is due); null once emitted or final. */
    decisionNoticeAt: integer("decision_notice_at"),
    /** The language of the page the applicant used: the emails to them are in it. */
    language: text("language", { enum: ["en", "fr"] }).notNull().default("en"),
    /** SHA-256 of the withdraw link's token (null once used); the link works until withdrawExpiresAt. */
    withdrawTokenHash: text("withdraw_token_hash"),
    withdrawExpiresAt: integer("withdraw_expires_at"),
    /**
     * DESIGN 26a: when the applicant's personal data was erased on their request (ms): name and
     * email are then empty (shown as null), phone, cover letter, answers and résumé gone.
     */
    erasedAt: integer("erased_at"),
  },
  (t) => [
    index("applications_job_idx").on(t.jobId, t.receivedAt, t.id),
    index("applications_job_status_idx").on(t.jobId, t.status, t.receivedAt, t.id),
    // The employer's list of all its applications (the console's), in the per-job list's order.
    index("applications_employer_idx").on(t.employerId, t.receivedAt, t.id),
    index("applications_employer_status_idx").on(t.employerId, t.status, t.receivedAt, t.id),
    index("applications_received_idx").on(t.receivedAt),
    index("applications_email_due_idx").on(t.emailStatus, t.emailNextAttemptAt),
    uniqueIndex("applications_withdraw_token_unique").on(t.withdrawTokenHash).where(sql`${t.withdrawTokenHash} IS NOT NULL`),
    index("applications_decision_notice_idx").on(t.decisionNoticeAt).where(sql`${t.decisionNoticeAt} IS NOT NULL`),
    // DESIGN 26a: an address's applications (its access and erasure requests), any case, a page at a time.
    index("applications_email_idx").on(sql`${t.email} COLLATE NOCASE`, t.id),
  ],
);

/** DESIGN 20: every move of an application, oldest first (the first is `received`). */
export const applicationHistory = sqliteTable(
  "application_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    applicationId: integer("application_id")
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    status: text("status", { enum: APPLICATION_STATUSES }).notNull(),
    at: integer("at").notNull(),
    note: text("note"),
  },
  (t) => [index("application_history_application_idx").on(t.applicationId, t.id)],
);

/**
 * DESIGN 20: emails to the applicant (a confirmation; a decision when the employer asks), sent
 * through the email queue like the employer's copy. The withdraw link (with its token) is kept
 * here only until the confirmation is sent or given up; the application keeps the token's hash.
 */
export const applicantEmails = sqliteTable(
  "applicant_emails",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    applicationId: integer("application_id")
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["confirmation", "rejected", "hired"] }).notNull(),
    status: text("status", { enum: ["pending", "sent", "failed", "skipped"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
    nextAttemptAt: integer("next_attempt_at"),
    withdrawLink: text("withdraw_link"),
  },
  (t) => [index("applicant_emails_application_idx").on(t.applicationId, t.id), index("applicant_emails_due_idx").on(t.status, t.nextAttemptAt)],
);

/** R2 keys of résumés whose application is gone, to delete from the bucket. */
export const resumeDeletions = sqliteTable("resume_deletions", {
  key: text("key").primaryKey(),
});
