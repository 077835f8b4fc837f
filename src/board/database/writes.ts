import { sql, type SQL } from "drizzle-orm";
import type { BoardEntry } from "../projection";
import { searchTokensOf } from "../rules";

// The board's writes (DESIGN 17). Each change is a few statements for one atomic batch, guarded
// in SQL by the newest revision the board applied to the job (board_revisions), so a repeated or
// older message changes nothing whatever order the batches run in. The triggers of
// drizzle/board/0001_search_and_triggers.sql keep the word index and the lists in step.

/**
 * How a change compares with what the board applied: a message applies only when newer; the
 * cron's repair also when equal (a row lost by hand still has its revision recorded).
 */
export type Freshness = "newer" | "not older";

const unlessSuperseded = (jobId: number, revision: number, freshness: Freshness) =>
  sql`NOT EXISTS (SELECT 1 FROM board_revisions r WHERE r.job_id = ${jobId}
    AND (r.deleted OR r.revision ${freshness === "newer" ? sql`>=` : sql`>`} ${revision}))`;

/** The revisions a batch applied (its last statement: the guards above read the ones before it). */
export function recordRevisions(changes: { jobId: number; revision: number; deleted: boolean; listed: boolean; shard: number }[]): SQL {
  return sql`INSERT INTO board_revisions (job_id, revision, deleted, listed, shard)
    SELECT value ->> 'jobId', value ->> 'revision', value ->> 'deleted', value ->> 'listed', value ->> 'shard' FROM json_each(${JSON.stringify(changes)}) WHERE true
    ON CONFLICT (job_id) DO UPDATE SET revision = max(revision, excluded.revision), deleted = max(deleted, excluded.deleted),
      listed = max(listed, excluded.listed), shard = CASE WHEN excluded.revision >= revision THEN excluded.shard ELSE shard END`;
}

/**
 * DESIGN 18a: tombstones for jobs that left the board, as a rebuild finds them on the employer
 * side (listed, not deleted). What the board already recorded of a job stays as it is: its own
 * record knows better (whether the job was listed, whether it was deleted, a newer revision).
 */
export function recordTombstones(jobs: { jobId: number; revision: number; shard: number }[]): SQL {
  return sql`INSERT INTO board_revisions (job_id, revision, deleted, listed, shard)
    SELECT value ->> 'jobId', value ->> 'revision', 0, 1, value ->> 'shard' FROM json_each(${JSON.stringify(jobs)}) WHERE true
    ON CONFLICT (job_id) DO NOTHING`;
}

/** The first name of each employer whose job the batch puts on the board (renames alone change it later). */
export function recordEmployers(employers: { id: number; name: string }[]): SQL {
  const rows = employers.map((employer) => ({ ...employer, words: searchTokensOf(employer.name) }));
  return sql`INSERT INTO board_employers (employer_id, name, words, named_at)
    SELECT value ->> 'id', value ->> 'name', value ->> 'words', 0 FROM json_each(${JSON.stringify(rows)}) WHERE true
    ON CONFLICT (employer_id) DO NOTHING`;
}

/**
 * The job on the board as `entry` says. It keeps its seq while its publishDate is unchanged;
 * otherwise it takes the next seq of its publishDate's second. Never while its employer is
 * suspended (DESIGN 26): a change recorded before the suspension, delivered after it, stays off.
 */
export function putJob(entry: BoardEntry, freshness: Freshness, shard: number): SQL {
  const nextSeq = sql`(SELECT coalesce(max(seq) + 1, ${entry.seqSlot.first}) FROM board_jobs
    WHERE seq >= ${entry.seqSlot.first} AND seq < ${entry.seqSlot.end})`;
  return sql`INSERT INTO board_jobs (seq, job_id, revision, employer_id, confidential, title, words, publish_date, close_date,
        position_type_id, salary_year_top, summary, item, job, places, categories, shard)
      SELECT ${nextSeq}, ${entry.jobId}, ${entry.revision}, ${entry.employerId}, ${entry.confidential ? 1 : 0}, ${entry.title},
        ${entry.words}, ${entry.publishDate}, ${entry.closeDate}, ${entry.positionTypeId}, ${entry.salaryYearTop}, ${entry.summary},
        ${entry.item}, ${entry.job}, ${entry.places}, ${entry.categories}, ${shard}
      WHERE ${unlessSuperseded(entry.jobId, entry.revision, freshness)}
        AND NOT EXISTS (SELECT 1 FROM board_suspensions WHERE employer_id = ${entry.employerId} AND suspended)
      ON CONFLICT (job_id) DO UPDATE SET
        seq = CASE WHEN board_jobs.publish_date = excluded.publish_date THEN board_jobs.seq ELSE excluded.seq END,
        revision = excluded.revision, employer_id = excluded.employer_id, confidential = excluded.confidential,
        title = excluded.title, words = excluded.words, publish_date = excluded.publish_date, close_date = excluded.close_date,
        position_type_id = excluded.position_type_id, salary_year_top = excluded.salary_year_top,
        summary = excluded.summary, item = excluded.item, job = excluded.job, places = excluded.places, categories = excluded.categories,
        shard = excluded.shard`;
}

/** The job off the board: archived, expired or past its closeDate (`deleted`: gone for good). */
export function removeJob(jobId: number, revision: number, freshness: Freshness, deleted: boolean): SQL {
  return sql`DELETE FROM board_jobs WHERE job_id = ${jobId} AND ${deleted ? sql`true` : unlessSuperseded(jobId, revision, freshness)}`;
}

/** Rows the board holds for jobs that should not be there, unless they changed since they were read. */
export function removeStrayJobs(rows: { jobId: number; revision: number }[]): SQL {
  return sql`DELETE FROM board_jobs WHERE (job_id, revision) IN
    (SELECT value ->> 'jobId', value ->> 'revision' FROM json_each(${JSON.stringify(rows)}))`;
}

/** An employer's public name (`namedAt`: when it was set, ms): its jobs are found by it from now on. */
export function renameEmployer(employerId: number, name: string, namedAt: number): SQL[] {
  return [
    sql`INSERT INTO board_employers (employer_id, name, words, named_at) VALUES (${employerId}, ${name}, ${searchTokensOf(name)}, ${namedAt})
      ON CONFLICT (employer_id) DO UPDATE SET name = excluded.name, words = excluded.words, named_at = excluded.named_at
      WHERE excluded.named_at >= board_employers.named_at AND excluded.name <> board_employers.name`,
    sql`INSERT OR REPLACE INTO board_search (rowid, title, employer)
      SELECT seq, words, (SELECT words FROM board_employers WHERE employer_id = ${employerId})
      FROM board_jobs WHERE employer_id = ${employerId} AND NOT confidential`,
  ];
}

/**
 * DESIGN 26: the operator suspended (or reinstated) the employer at `changedAt` (ms, the event's
 * time): recorded unless an act of a later time already is (events may come out of order).
 */
export function recordSuspension(employerId: number, suspended: boolean, changedAt: number): SQL {
  return sql`INSERT INTO board_suspensions (employer_id, suspended, changed_at) VALUES (${employerId}, ${Number(suspended)}, ${changedAt})
    ON CONFLICT (employer_id) DO UPDATE SET suspended = excluded.suspended, changed_at = excluded.changed_at
    WHERE excluded.changed_at >= board_suspensions.changed_at`;
}

/**
 * Up to `limit` of a suspended employer's jobs off the board (by board_jobs_employer_idx; the
 * triggers clear their lists and words), their tombstones kept: their pages answer 410. Nothing
 * once the employer is no longer suspended.
 */
export function removeEmployerJobs(employerId: number, limit: number): SQL {
  return sql`DELETE FROM board_jobs WHERE seq IN (SELECT seq FROM board_jobs WHERE employer_id = ${employerId} LIMIT ${limit})
    AND EXISTS (SELECT 1 FROM board_suspensions WHERE employer_id = ${employerId} AND suspended)`;
}
