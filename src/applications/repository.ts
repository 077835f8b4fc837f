import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import { toStatement, type Database } from "../db/client";
import { inList } from "../db/lists";
import { recordEvents, recordedEventsOf, type RecordedEvent } from "../events/outbox";
import { applications, resumeDeletions } from "./tables";

export type ApplicationRow = typeof applications.$inferSelect;
export type NewApplication = typeof applications.$inferInsert;

/**
 * One atomic batch: the application and its `application.received` event (DESIGN 15 and 13).
 * Returns the application's id and its recorded event, for the subscribers.
 */
export async function insertApplication(db: Database, application: NewApplication): Promise<{ id: number; events: RecordedEvent[] }> {
  const insert = db.insert(applications).values(application).returning({ id: applications.id });
  const event = recordEvents(
    "application.received",
    application.receivedAt,
    sql`SELECT employer_id, id AS subject_id, NULL AS revision, json_object('application', json_object('id', id, 'jobId', job_id, 'name', name, 'email', email, 'phone', phone,
      'coverLetter', cover_letter, 'receivedAt', strftime('%Y-%m-%dT%H:%M:%fZ', received_at / 1000.0, 'unixepoch'),
      'resume', CASE WHEN resume_key IS NULL THEN NULL ELSE json_object('filename', resume_filename, 'contentType', resume_type, 'size', resume_size) END)) AS data
      FROM applications WHERE id = (SELECT max(id) FROM applications)`,
  );
  const results = await db.$client.batch([toStatement(db, insert), toStatement(db, event)]);
  return { id: (results[0].results[0] as { id: number }).id, events: recordedEventsOf(results) };
}

export async function findApplication(db: Database, employerId: number, id: number): Promise<ApplicationRow | undefined> {
  return db.select().from(applications).where(and(eq(applications.id, id), eq(applications.employerId, employerId))).get();
}

export async function findApplicationById(db: Database, id: number): Promise<ApplicationRow | undefined> {
  return db.select().from(applications).where(eq(applications.id, id)).get();
}

export async function listApplications(db: Database, employerId: number, jobId: number, page: number, pageSize: number) {
  const where = and(eq(applications.jobId, jobId), eq(applications.employerId, employerId));
  const [rows, [{ total }]] = await db.batch([
    db.select().from(applications).where(where).orderBy(desc(applications.receivedAt), desc(applications.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ total: count() }).from(applications).where(where),
  ]);
  return { rows, total };
}

export async function recordEmailAttempt(
  db: Database,
  id: number,
  outcome: { status: "pending" | "sent" | "failed"; sentAt?: number; nextAttemptAt?: number | null },
): Promise<void> {
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

/** For the cron: applications older than the retention (their résumés' keys are recorded by a trigger). */
export function expiredApplications(db: Database, before: number) {
  return db.delete(applications).where(lt(applications.receivedAt, before));
}

export async function pendingResumeDeletions(db: Database, limit: number): Promise<string[]> {
  return (await db.select().from(resumeDeletions).limit(limit)).map((row) => row.key);
}

export async function forgetResumeDeletions(db: Database, keys: string[]): Promise<void> {
  if (keys.length) await db.delete(resumeDeletions).where(inList(resumeDeletions.key, keys));
}
