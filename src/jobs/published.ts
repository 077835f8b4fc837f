import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { jsonRows } from "../db/lists";
import { leftBoardCondition, onBoardCondition } from "./on-board";
import { all, JOB_FROM, publicColumns, selectedColumns, type JobRow } from "./repository";

// The jobs capability's public reads of what job seekers may see (DESIGN 14, 17). A job is on
// the board while it is active and not past its closeDate, whoever posted it, unless the
// operator suspended its employer (DESIGN 26). The board reads
// its own database; these serve applying (a write) and the board's repair by the cron.

/** On the board: active, open, and not a test job (DESIGN 21); jobs_visible_idx's own terms. */
const visible = (now: number) => sql.raw(onBoardCondition(now));

/**
 * DESIGN 22: whether the job's employer is being moved (frozen) or moved away (this shard holds its
 * tombstone), read with the job, before anything of an application is done (its résumé stored,
 * its Turnstile token spent).
 */
export interface EmployerLock {
  employerFrozen: number;
  employerMovedTo: number | null;
}
const LOCK_COLUMNS = sql.raw("e.frozen_at IS NOT NULL AS employerFrozen, e.moved_to AS employerMovedTo");

/** The job as the public may see it, for an application to it (the board's own copy may be seconds old). */
export async function findPublished(db: Database, id: number, now: number): Promise<(JobRow & EmployerLock) | undefined> {
  return (await all<JobRow & EmployerLock>(db, sql`SELECT ${publicColumns}, ${LOCK_COLUMNS} ${JOB_FROM} WHERE j.id = ${id} AND ${visible(now)}`))[0];
}

/** DESIGN 21: a test job as the board would show it were it live, for its test space's own application. */
export async function findTestJob(db: Database, testSpaceId: number, id: number, now: number): Promise<(JobRow & EmployerLock) | undefined> {
  return (await all<JobRow & EmployerLock>(db, sql`SELECT ${publicColumns}, ${LOCK_COLUMNS} ${JOB_FROM}
    WHERE j.id = ${id} AND j.employer_id = ${testSpaceId} AND j.test = 1 AND j.status = 'active' AND j.close_date > ${now}`))[0];
}

export interface JobForEmail {
  id: number;
  title: string | null;
  applicationEmail: string | null;
  /** The employer's public name; null when the job is confidential. */
  employerName: string | null;
  /** DESIGN 22: its employer is being moved, or moved away: no email is sent from this shard now. */
  employerLocked: number;
}

/** What the emails about an application need of its job (whatever its status now). */
export async function findJobForCopy(db: Database, id: number): Promise<JobForEmail | undefined> {
  return (await all<JobForEmail>(db, sql`
    SELECT j.id, j.title, j.application_email AS applicationEmail, CASE WHEN j.confidential THEN NULL ELSE e.name END AS employerName,
      e.frozen_at IS NOT NULL OR e.moved_to IS NOT NULL AS employerLocked
    FROM jobs j JOIN employers e ON e.id = j.employer_id WHERE j.id = ${id}`))[0];
}

/**
 * For the board's repair (DESIGN 17): the jobs that should be on the board after `afterId`, by
 * id, with their revisions; read from jobs_visible_idx alone.
 */
export function visibleJobRevisions(
  db: Database,
  afterId: number,
  limit: number,
  now: number,
): Promise<{ id: number; revision: number; updatedAt: number }[]> {
  return all(db, sql`SELECT j.id, j.revision, j.updated_at AS updatedAt FROM jobs j INDEXED BY jobs_visible_idx
    WHERE ${visible(now)} AND j.id > ${afterId} ORDER BY j.id LIMIT ${limit}`);
}

/**
 * DESIGN 26: the employer's jobs that should be on the board, a page at a time after `after`, in
 * the order of jobs_employer_status_list_idx (publishDate, id): what the board puts back once the
 * employer is reinstated.
 */
export function visibleJobsOfEmployer(
  db: Database,
  employerId: number,
  after: { publishDate: number; id: number },
  limit: number,
  now: number,
): Promise<{ id: number; publishDate: number }[]> {
  return all(db, sql`SELECT j.id, j.publish_date AS publishDate FROM jobs j
    WHERE j.employer_id = ${employerId} AND ${visible(now)} AND (j.publish_date, j.id) > (${after.publishDate}, ${after.id})
    ORDER BY j.publish_date, j.id LIMIT ${limit}`);
}

/**
 * For a rebuild of the board (DESIGN 18a): the `limit` jobs after `afterId`, by id, each with its
 * revision if it left the board (null otherwise). Every job read is returned, so a read costs its
 * `limit` rows however few left, and the next read starts after the last. DESIGN 22: not those of
 * an employer moved away (or, before the flip, being moved in): the one shard that is the truth
 * for them gives them.
 */
export function leftBoardPage(db: Database, afterId: number, limit: number, now: number): Promise<{ id: number; revision: number | null }[]> {
  return all(db, sql`SELECT j.id, CASE WHEN ${sql.raw(leftBoardCondition(now))} AND e.moved_to IS NULL THEN j.revision END AS revision
    FROM jobs j JOIN employers e ON e.id = j.employer_id WHERE j.id > ${afterId} ORDER BY j.id LIMIT ${limit}`);
}

/**
 * The whole jobs with these ids that should be on the board, as the board projects them. DESIGN
 * 22: not those of an employer being moved or moved away: the board is repaired from the shard
 * that is the truth for them (the one it moved to, once flipped).
 */
export function visibleJobs(db: Database, ids: number[], now: number): Promise<JobRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return all<JobRow>(db, sql`SELECT ${selectedColumns} ${JOB_FROM}
    WHERE j.id IN (SELECT value FROM ${jsonRows(ids)}) AND ${visible(now)} AND e.frozen_at IS NULL AND e.moved_to IS NULL ORDER BY j.id`);
}

/** DESIGN 26a: what a job seeker's export says of the jobs they applied to: the title and the employer's name (confidential or not: it received their application). */
export function jobsForExport(db: Database, ids: number[]): Promise<{ id: number; title: string | null; employerName: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return all(db, sql`SELECT j.id, j.title, e.name AS employerName FROM jobs j JOIN employers e ON e.id = j.employer_id WHERE j.id IN (SELECT value FROM ${jsonRows(ids)})`);
}

/** Employers' current names, for the board's repair of the names it shows (DESIGN 22: a tombstone's name is no longer current). */
export function employerNames(db: Database, ids: number[]): Promise<{ id: number; name: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return all(db, sql`SELECT id, name FROM employers WHERE id IN (SELECT value FROM ${jsonRows(ids)}) AND moved_to IS NULL`);
}

/** DESIGN 22: which of these employers moved away from this shard (their rows here are tombstones). */
export async function employersMovedAway(db: Database, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await all<{ id: number }>(db, sql`SELECT id FROM employers WHERE id IN (SELECT value FROM ${jsonRows(ids)}) AND moved_to IS NOT NULL`);
  return new Set(rows.map((row) => row.id));
}
