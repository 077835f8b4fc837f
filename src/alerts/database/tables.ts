import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { receiptsTable } from "../../events/receipts";

// DESIGN 23: job alerts live in a D1 database of their own (binding ALERTS_DB, migrations in
// drizzle/alerts/, generated from this file by drizzle/alerts.config.ts). They are job seekers'
// own data, not a projection: never in BOARD_DB (which a rebuild wipes) nor in an employer shard.
// Only src/alerts reaches them. Times are ms since the epoch (UTC).

/**
 * One alert: a saved search, its schedule and its consent record (DESIGN 23a). Kept after it ends
 * (status `ended`) until 3 years after `endedAt`, so an operator can answer a complaint.
 */
export const alerts = sqliteTable(
  "alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The address as given, trimmed; `emailKey` is its lowercase form, what limits and lookups use. */
    email: text("email").notNull(),
    emailKey: text("email_key").notNull(),
    /** pending (not yet confirmed) | active | paused | ended. */
    status: text("status").notNull(),
    language: text("language").notNull(),
    frequency: text("frequency").notNull(),
    hour: integer("hour").notNull(),
    weekday: text("weekday").notNull(),
    /** The IANA zone daily and weekly emails are timed in (the place's or province's, else America/Toronto). */
    timeZone: text("time_zone").notNull(),
    /** The search as asked (JSON, the members of POST /alerts `search`). */
    search: text("search").notNull(),
    /** With `near`: the place's name as the search form took it (null from the API), for the email's words and its link to the search. */
    placeName: text("place_name"),
    /** With `near`: the place's point, kept so that matching measures without a read. */
    nearLatitude: real("near_latitude"),
    nearLongitude: real("near_longitude"),
    /** The public origin the alert was made on: its emails' links point there. */
    origin: text("origin").notNull(),
    /** The random part of its tokens (src/alerts/tokens.ts); the tokens themselves are never stored. */
    tokenNonce: text("token_nonce").notNull(),
    confirmHash: text("confirm_hash").notNull(),
    manageHash: text("manage_hash").notNull(),
    feedHash: text("feed_hash").notNull(),
    /** When the next email may go: daily/weekly, the next scheduled time; instant, 10 minutes after its first unsent match (null: none). */
    dueAt: integer("due_at"),
    lastSentAt: integer("last_sent_at"),
    /** The 12-month "keep this alert?" email (DESIGN 23): counted from here (the confirmation, then each "keep" answer). */
    renewedAt: integer("renewed_at"),
    /** When the keep email was asked (null: not since the last renewal); 30 days without an answer end the alert. */
    keepAskedAt: integer("keep_asked_at"),
    // Consent (DESIGN 23, 23a).
    consentTextVersion: text("consent_text_version").notNull(),
    consentTextSha256: text("consent_text_sha256").notNull(),
    /** page | api. */
    source: text("source").notNull(),
    createdAt: integer("created_at").notNull(),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    confirmedAt: integer("confirmed_at"),
    endedAt: integer("ended_at"),
  },
  (t) => [
    index("alerts_email_idx").on(t.emailKey),
    uniqueIndex("alerts_confirm_idx").on(t.confirmHash),
    uniqueIndex("alerts_manage_idx").on(t.manageHash),
    uniqueIndex("alerts_feed_idx").on(t.feedHash),
    // The cron's reads, each its own partial index: due alerts, pending ones past 7 days, ended
    // ones past their retention (and just ended: their matches go), the 12-month question and its
    // answer. No index on the status alone: SQLite (without statistics) preferred it to these,
    // and walked every active alert for each (docs/performance.md, alerts at scale).
    index("alerts_due_idx").on(t.dueAt).where(sql`${t.status} = 'active' AND ${t.dueAt} IS NOT NULL`),
    index("alerts_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    index("alerts_ended_idx").on(t.endedAt).where(sql`${t.status} = 'ended'`),
    index("alerts_renewed_idx").on(t.renewedAt).where(sql`${t.status} IN ('active', 'paused')`),
    index("alerts_keep_asked_idx").on(t.keepAskedAt).where(sql`${t.status} IN ('active', 'paused') AND ${t.keepAskedAt} IS NOT NULL`),
  ],
);

/** DESIGN 23a: every change of an alert after its consent, with its time: the record's history. */
export const alertChanges = sqliteTable(
  "alert_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    alertId: integer("alert_id").notNull(),
    at: integer("at").notNull(),
    /** confirmed | frequency:<f> | paused | resumed | unsubscribed | bounced | complained | kept | expired-unanswered | deleted. */
    change: text("change").notNull(),
  },
  (t) => [index("alert_changes_alert_idx").on(t.alertId, t.id)],
);

/**
 * DESIGN 23: the reverse-search index. Each active alert (only those: ended and paused ones leave
 * it) is filed under the terms it requires (src/alerts/rules.ts termsOfAlert), with what the
 * check needs of it: its search and, with `near`, that place's point (a search never changes once
 * confirmed). A job reads the rows filed under its own terms from one covering index, contiguous
 * per term, and never the alerts table (docs/performance.md, alerts at scale).
 */
export const alertTerms = sqliteTable(
  "alert_terms",
  {
    term: text("term").notNull(),
    alertId: integer("alert_id").notNull(),
    search: text("search").notNull(),
    nearLatitude: real("near_latitude"),
    nearLongitude: real("near_longitude"),
  },
  (t) => [
    primaryKey({ columns: [t.term, t.alertId] }),
    index("alert_terms_alert_idx").on(t.alertId),
    index("alert_terms_match_idx").on(t.term, t.alertId, t.nearLatitude, t.nearLongitude, t.search),
  ],
);

/** A match, once per (alert, job) (DESIGN 23), with what its email shows of the job. */
export const alertMatches = sqliteTable(
  "alert_matches",
  {
    alertId: integer("alert_id").notNull(),
    jobId: integer("job_id").notNull(),
    matchedAt: integer("matched_at").notNull(),
    /** The job as the email shows it (src/alerts/rules.ts JobCard), JSON; kept current by the job's later events. */
    card: text("card").notNull(),
    employerId: integer("employer_id").notNull(),
    publishDate: integer("publish_date").notNull(),
    closeDate: integer("close_date").notNull(),
    /** The job left the board (a later event said so). */
    gone: integer("gone", { mode: "boolean" }).notNull().default(false),
    /** The ledger row of the email that sent it, or -1: passed over (past the email's 15), never sent. */
    sendId: integer("send_id"),
  },
  (t) => [
    primaryKey({ columns: [t.alertId, t.jobId] }),
    index("alert_matches_job_idx").on(t.jobId),
    // An employer's rename reaches its matched jobs' cards (src/alerts/repository.ts).
    index("alert_matches_employer_idx").on(t.employerId),
    index("alert_matches_unsent_idx").on(t.alertId, t.publishDate).where(sql`${t.sendId} IS NULL`),
    // An alert's matches sent long enough before its last email to be pruned, found without a scan.
    index("alert_matches_sent_idx").on(t.alertId, t.matchedAt).where(sql`${t.sendId} IS NOT NULL`),
  ],
);

/**
 * The ledger (DESIGN 23): one row per email, unique per (alert, period), so a retry or a second
 * cron run never sends twice. kind: confirm | alert | keep.
 */
export const alertSends = sqliteTable(
  "alert_sends",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    alertId: integer("alert_id").notNull(),
    period: text("period").notNull(),
    kind: text("kind").notNull(),
    /** pending | sent | failed | cancelled (the alert ended before it went). */
    status: text("status").notNull(),
    /** JSON: the job ids the email holds (alert emails). */
    jobs: text("jobs").notNull().default("[]"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [uniqueIndex("alert_sends_period_idx").on(t.alertId, t.period), index("alert_sends_pending_idx").on(t.status, t.createdAt)],
);

/** DESIGN 23: confirmation emails per address and UTC day (at most 3), so a form cannot flood a mailbox. */
export const alertAddressDays = sqliteTable(
  "alert_address_days",
  {
    emailKey: text("email_key").notNull(),
    day: integer("day").notNull(),
    confirmations: integer("confirmations").notNull(),
  },
  (t) => [primaryKey({ columns: [t.emailKey, t.day] })],
);

/** DESIGN 16a: the events the alerts' consumer took, in the batch of their matches; read through alertsSubscriber.taken. */
export const alertReceipts = receiptsTable("alert_receipts");
