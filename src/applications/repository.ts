import { and, asc, count, desc, eq, getTableColumns, isNotNull, lt, lte, sql, type SQL } from "drizzle-orm";
import { toStatement, type Database } from "../db/client";
import { inList } from "../db/lists";
import { guard, guardReason } from "../db/guards";
import { recordEvents, recordedEventsOf, type RecordedEvent } from "../events/outbox";
import { windowOf, type Chunk, type ChunkWork } from "../db/windows";
import { applicantEmails, applicationHistory, applications, resumeDeletions } from "./tables";
import { ofUnlockedEmployer } from "../shards/locks";
import { suspensionGuard } from "../employers/suspension";

export type ApplicationRecord = typeof applications.$inferSelect;
/** An application as read for an answer: its row, the emails sent to the applicant (JSON) and how often it moved. */
export type ApplicationRow = ApplicationRecord & { applicantEmails: string; moves: number };
export type NewApplication = typeof applications.$inferInsert;

const applicantEmailsJson = sql<string>`(SELECT json_group_array(json_object('kind', e.kind, 'status', e.status, 'attempts', e.attempts, 'sentAt', e.sent_at))
  FROM (SELECT * FROM applicant_emails WHERE application_id = applications.id ORDER BY id) e)`;
const movesCount = sql<number>`(SELECT count(*) FROM application_history WHERE application_id = applications.id)`;
const withEmails = { ...getTableColumns(applications), applicantEmails: applicantEmailsJson, moves: movesCount };

/**
 * One atomic batch: the application, the first line of its history, the applicant's
 * confirmation email and the `application.received` event (DESIGN 15, 20 and 13); `event` is
 * the event's data with the application's id left to fill. Returns the id, the confirmation's
 * id and the recorded event, for the queues.
 */
export async function insertApplication(
  db: Database,
  application: NewApplication,
  confirmation: { withdrawLink: string } | null,
  event: { data: string },
): Promise<{ id: number; confirmationId: number | null; events: RecordedEvent[] }> {
  const newest = sql`(SELECT max(id) FROM applications)`;
  const statements = [
    toStatement(db, db.insert(applications).values(application).returning({ id: applications.id })),
    toStatement(db, sql`INSERT INTO application_history (application_id, status, at, note) VALUES (${newest}, 'received', ${application.receivedAt}, NULL)`),
    toStatement(
      db,
      confirmation
        ? sql`INSERT INTO applicant_emails (application_id, kind, created_at, withdraw_link) VALUES (${newest}, 'confirmation', ${application.receivedAt}, ${confirmation.withdrawLink}) RETURNING id`
        : sql`SELECT NULL AS id`,
    ),
    toStatement(
      db,
      recordEvents(
        "application.received",
        application.receivedAt,
        sql`SELECT employer_id, id AS subject_id, NULL AS revision, json_set(${event.data}, '$.application.id', id) AS data FROM applications WHERE id = ${newest}`,
      ),
    ),
  ];
  const results = await db.$client.batch(statements);
  return {
    id: (results[0].results[0] as { id: number }).id,
    confirmationId: (results[2].results[0] as { id: number | null }).id,
    events: recordedEventsOf(results),
  };
}

/** A move of an application (DESIGN 20): what changes, conditioned on the revision it was read at. */
export interface Move {
  id: number;
  employerId: number;
  expectedRevision: number;
  status: ApplicationRecord["status"];
  at: number;
  note: string | null;
  interviewedAt: number | null;
  decisionNoticeAt: number | null;
  /** The application's data for `application.status_changed` (JSON), as the move leaves it. */
  eventData: string;
  /** An email to the applicant about this outcome. */
  notify: "rejected" | "hired" | null;
  /** A test job's application (DESIGN 21): its emails are recorded as skipped, never sent. */
  emailsSkipped: boolean;
  /** Withdrawn: the résumé goes (its key is recorded for deletion in the same batch). */
  dropResume: string | null;
  /** The applicant's own withdrawal (through their link): not refused while the employer is suspended. */
  byApplicant: boolean;
}

/** A move's statements: one atomic batch, stopped by the guard when the application changed meanwhile. */
function moveStatements(db: Database, move: Move) {
  const where = sql`id = ${move.id} AND employer_id = ${move.employerId}`;
  const dropping = move.status === "withdrawn";
  return [
    // DESIGN 26a: a suspended employer moves no application (403); the applicant's own withdrawal is no employer's write.
    ...(move.byApplicant ? [] : [suspensionGuard(move.employerId)]),
    sql`UPDATE applications SET status = ${move.status}, revision = revision + 1, updated_at = ${move.at},
        interviewed_at = ${move.interviewedAt}, decision_notice_at = ${move.decisionNoticeAt}
        ${dropping ? sql`, resume_key = NULL, resume_filename = NULL, resume_type = NULL, resume_size = NULL, withdraw_token_hash = NULL` : sql``}
      WHERE ${where} AND revision = ${move.expectedRevision}`,
    guard(sql`changes() = 1`, "revision"),
    sql`INSERT INTO application_history (application_id, status, at, note) VALUES (${move.id}, ${move.status}, ${move.at}, ${move.note})`,
    recordEvents("application.status_changed", move.at, sql`SELECT employer_id, id AS subject_id, NULL AS revision, ${move.eventData} AS data FROM applications WHERE ${where}`),
    ...(move.notify && move.emailsSkipped
      ? [sql`INSERT INTO applicant_emails (application_id, kind, created_at, status) VALUES (${move.id}, ${move.notify}, ${move.at}, 'skipped')`]
      : move.notify
        ? [sql`INSERT INTO applicant_emails (application_id, kind, created_at) VALUES (${move.id}, ${move.notify}, ${move.at}) RETURNING id AS applicantEmailId`]
        : []),
    ...(move.dropResume ? [sql`INSERT OR IGNORE INTO resume_deletions (key) VALUES (${move.dropResume})`] : []),
  ].map((statement) => toStatement(db, statement));
}

/** The application moved, read back; undefined when its revision was no longer the expected one. */
export async function moveApplication(
  db: Database,
  move: Move,
): Promise<{ row: ApplicationRow; events: RecordedEvent[]; applicantEmailIds: number[] } | undefined> {
  // Read back in the same batch, by raw SQL: its columns named as ApplicationRow's members.
  const columns = sql.join(
    Object.entries(withEmails).map(([member, column]) => sql`${column} AS ${sql.identifier(member)}`),
    sql`, `,
  );
  const read = toStatement(db, sql`SELECT ${columns} FROM ${applications} WHERE ${applications.id} = ${move.id}`);
  let results: D1Result[];
  try {
    results = await db.$client.batch([...moveStatements(db, move), read]);
  } catch (error) {
    if (guardReason(error) === "revision") return undefined;
    throw error;
  }
  const applicantEmailIds = results.flatMap((result) => (result.results as { applicantEmailId?: number }[]).flatMap((row) => (row.applicantEmailId ? [row.applicantEmailId] : [])));
  return { row: results.at(-1)!.results[0] as ApplicationRow, events: recordedEventsOf(results), applicantEmailIds };
}

export async function findApplication(db: Database, employerId: number, id: number): Promise<ApplicationRow | undefined> {
  return db.select(withEmails).from(applications).where(and(eq(applications.id, id), eq(applications.employerId, employerId))).get();
}

export async function findApplicationById(db: Database, id: number): Promise<ApplicationRecord | undefined> {
  return db.select().from(applications).where(eq(applications.id, id)).get();
}

/** The withdraw link's application: by its token's hash, while the link works. */
export async function findByWithdrawToken(db: Database, tokenHash: string, now: number): Promise<ApplicationRecord | undefined> {
  return db
    .select()
    .from(applications)
    .where(and(eq(applications.withdrawTokenHash, tokenHash), sql`${applications.withdrawExpiresAt} > ${now}`))
    .get();
}

/** The moves of an application, oldest first (at most MAX_MOVES). */
export async function applicationHistoryOf(db: Database, id: number) {
  return db
    .select({ status: applicationHistory.status, at: applicationHistory.at, note: applicationHistory.note })
    .from(applicationHistory)
    .where(eq(applicationHistory.applicationId, id))
    .orderBy(asc(applicationHistory.id))
    .all();
}

export interface ApplicationFilter {
  status?: ApplicationRecord["status"];
  screenedOut?: boolean;
}

/**
 * A page of one job's applications, or (jobId undefined) of all the employer's, newest first, and
 * their total. A job's are found on its own indexes: there the employer is a check on the rows
 * (the unary +), not an index the planner could pick instead.
 */
export async function listApplications(db: Database, employerId: number, jobId: number | undefined, filter: ApplicationFilter, page: number, pageSize: number) {
  const where = and(
    jobId === undefined ? eq(applications.employerId, employerId) : and(eq(applications.jobId, jobId), sql`+${applications.employerId} = ${employerId}`),
    filter.status ? eq(applications.status, filter.status) : undefined,
    filter.screenedOut === undefined ? undefined : eq(applications.screenedOut, filter.screenedOut),
  );
  const [rows, [{ total }]] = await db.batch([
    db.select(withEmails).from(applications).where(where).orderBy(desc(applications.receivedAt), desc(applications.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ total: count() }).from(applications).where(where),
  ]);
  return { rows: rows as ApplicationRow[], total };
}

/** One send of an email: sent, failed for good, or pending its next attempt. */
export interface EmailAttempt {
  status: "pending" | "sent" | "failed";
  sentAt?: number;
  nextAttemptAt?: number | null;
}

export async function recordEmailAttempt(db: Database, id: number, outcome: EmailAttempt): Promise<void> {
  await db
    .update(applications)
    .set({
      emailStatus: outcome.status,
      emailAttempts: sql`${applications.emailAttempts} + 1`,
      emailSentAt: outcome.sentAt ?? null,
      emailNextAttemptAt: outcome.nextAttemptAt ?? null,
    })
    .where(eq(applications.id, id));
}

/** Copies pending and due (never handed over, or lost by the queue): for the cron's sweep. */
export async function dueEmailCopies(db: Database, dueBefore: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.emailStatus, "pending"), sql`coalesce(${applications.emailNextAttemptAt}, ${applications.receivedAt}) <= ${dueBefore}`))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** For the cron: a chunk of the applications older than the retention (their résumés' keys are recorded by a trigger). */
export function expiredApplications(db: Database, before: number, chunk: Chunk): ChunkWork {
  const { ids, last } = windowOf({ table: applications, key: applications.receivedAt, range: lt(applications.receivedAt, before), id: applications.id })(chunk);
  // DESIGN 22: not of an employer locked by a move (its trigger would refuse the chunk); a later run takes them.
  return { last, statements: [db.delete(applications).where(sql`${applications.id} IN (${ids}) AND ${ofUnlockedEmployer(applications.employerId)}`)] };
}

export async function pendingResumeDeletions(db: Database, limit: number): Promise<string[]> {
  return (await db.select().from(resumeDeletions).limit(limit)).map((row) => row.key);
}

export async function forgetResumeDeletions(db: Database, keys: string[]): Promise<void> {
  if (keys.length) await db.delete(resumeDeletions).where(inList(resumeDeletions.key, keys));
}

/** An email to the applicant, with what composing it needs of the application. */
export async function findApplicantEmail(db: Database, id: number) {
  return db
    .select({ email: applicantEmails, application: applications })
    .from(applicantEmails)
    .innerJoin(applications, eq(applications.id, applicantEmails.applicationId))
    .where(eq(applicantEmails.id, id))
    .get();
}

/** One attempt's outcome; the withdraw link is forgotten once the email is sent or given up. */
export async function recordApplicantEmailAttempt(db: Database, id: number, outcome: EmailAttempt): Promise<void> {
  await db
    .update(applicantEmails)
    .set({
      status: outcome.status,
      attempts: sql`${applicantEmails.attempts} + 1`,
      sentAt: outcome.sentAt ?? null,
      nextAttemptAt: outcome.nextAttemptAt ?? null,
      ...(outcome.status === "pending" ? {} : { withdrawLink: null }),
    })
    .where(eq(applicantEmails.id, id));
}

/** Applicant emails pending and due (never handed over, or lost by the queue): for the cron's sweep. */
export async function dueApplicantEmails(db: Database, dueBefore: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: applicantEmails.id })
    .from(applicantEmails)
    .where(and(eq(applicantEmails.status, "pending"), sql`coalesce(${applicantEmails.nextAttemptAt}, ${applicantEmails.createdAt}) <= ${dueBefore}`))
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * For the cron (DESIGN 20a): a chunk of the applications whose decision notice is due, once per
 * interview: their `application.decision_due` events, then the notices cleared; by the partial index.
 */
export function dueDecisionNotices(now: number, data: SQL, chunk: Chunk): ChunkWork {
  const { ids, last } = windowOf({
    table: applications,
    key: applications.decisionNoticeAt,
    range: and(isNotNull(applications.decisionNoticeAt), lte(applications.decisionNoticeAt, now))!,
    id: applications.id,
  })(chunk);
  // DESIGN 22: not of an employer locked by a move (its triggers would refuse the chunk); a later run notices them.
  const due = sql`id IN (${ids}) AND ${ofUnlockedEmployer(sql.raw("employer_id"))}`;
  return {
    last,
    statements: [
      recordEvents("application.decision_due", now, sql`SELECT employer_id, id AS subject_id, NULL AS revision, ${data} AS data FROM applications WHERE ${due}`),
      sql`UPDATE applications SET decision_notice_at = NULL WHERE ${due}`,
    ],
  };
}

/**
 * DESIGN 26a: a page of an address's applications in this shard (any case), after `afterId` by id,
 * from applications_email_idx; an application already erased no longer carries the address.
 */
export function applicationsOfAddress(db: Database, email: string, afterId: number, limit: number): Promise<ApplicationRecord[]> {
  return db
    .select()
    .from(applications)
    .where(and(sql`${applications.email} = ${email} COLLATE NOCASE`, sql`${applications.id} > ${afterId}`))
    .orderBy(asc(applications.id))
    .limit(limit)
    .all();
}

/**
 * DESIGN 26a: one atomic batch erasing these applications' personal data (their id, job, status and
 * dates kept, the ETag moved on): name and email emptied, the rest nulled, the withdraw link and
 * the emails still pending (the employer's copy, the applicant's) never sent, the résumés' keys
 * recorded for deletion. Not those of an employer locked by a move (its triggers would refuse the
 * batch): they are left for a later request. The ids erased.
 */
export async function eraseApplications(db: Database, ids: number[], now: number): Promise<number[]> {
  if (ids.length === 0) return [];
  const erasable = sql`id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND erased_at IS NULL AND ${ofUnlockedEmployer(sql.raw("employer_id"))}`;
  const results = await db.$client.batch(
    [
      sql`INSERT OR IGNORE INTO resume_deletions (key) SELECT resume_key FROM applications WHERE ${erasable} AND resume_key IS NOT NULL`,
      sql`UPDATE applicant_emails SET status = 'skipped', withdraw_link = NULL WHERE status = 'pending' AND application_id IN (SELECT id FROM applications WHERE ${erasable})`,
      sql`UPDATE applications SET name = '', email = '', phone = NULL, cover_letter = NULL, answers = NULL,
          resume_key = NULL, resume_filename = NULL, resume_type = NULL, resume_size = NULL, withdraw_token_hash = NULL, withdraw_expires_at = NULL,
          email_status = CASE WHEN email_status = 'pending' THEN 'skipped' ELSE email_status END, email_next_attempt_at = NULL,
          revision = revision + 1, erased_at = ${now}
        WHERE ${erasable} RETURNING id`,
    ].map((statement) => toStatement(db, statement)),
  );
  return (results[2].results as { id: number }[]).map((row) => row.id);
}
