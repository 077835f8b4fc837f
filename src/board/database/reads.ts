import { sql, type SQL } from "drizzle-orm";
import { jsonRows } from "../../db/lists";
import { all, type BoardDatabase } from "./client";

// The board's reads (DESIGN 17). Every page is read newest first (seq descending) from one
// source that is itself in seq order, from the cursor on, and stops at the page: the word index
// with `q`, else the index of the most telling filter, else board_jobs itself. Other filters are
// checked on that walk. Nothing sorts all its matches; the one exception, the radius search by
// its places, is chosen only when those places hold few jobs (src/board/search.ts).

/** A list item as the board keeps it (projection.ts), with its employer's current public name. */
export interface BoardItemRow {
  seq: number;
  jobId: number;
  item: string;
  employerId: number;
  confidential: number;
  employerName: string;
  /**
   * JSON of the job's places, with the coordinates a distance is measured to: read for a radius
   * search only (null otherwise), the one page that shows a distance.
   */
  places: string | null;
}

/** A whole public job as the board keeps it, with its employer's current public name. */
export interface BoardJobRow {
  job: string;
  employerName: string;
  /** DESIGN 22: the employer side's shard of the job, where a write to it (an application, a report) goes. */
  shard: number;
  /** DESIGN 22: its employer, whose tombstone a write to a shard it left follows. */
  employerId: number;
}

export interface BoardFilter {
  /** FTS5 query text (src/board/rules.ts ftsQuery), or null. */
  match: string | null;
  locationId?: number;
  provinceCode?: string;
  categoryId?: number;
  positionTypeId?: number;
  salaryMin?: number;
  /** Jobs with a place among these (the radius search's places), and how to read them. */
  near?: { places: number[]; byPlaces: boolean };
}

const NO_CURSOR = Number.MAX_SAFE_INTEGER;

interface Source {
  from: SQL;
  seq: SQL;
  where: SQL[];
}

/** The source the page is walked from, in seq order, and which filter it already applies. */
function sourceOf(filter: BoardFilter, after: number): { source: Source; used: keyof BoardFilter | null } {
  if (filter.match !== null) {
    // FTS5 names its MATCH column after the table: no alias here.
    return { source: { from: sql`board_search`, seq: sql`board_search.rowid`, where: [sql`board_search MATCH ${filter.match}`, sql`board_search.rowid < ${after}`] }, used: "match" };
  }
  if (filter.locationId !== undefined) {
    return { source: { from: sql`board_job_places d`, seq: sql`d.seq`, where: [sql`d.place_id = ${filter.locationId}`, sql`d.seq < ${after}`] }, used: "locationId" };
  }
  if (filter.near?.byPlaces) {
    // Few jobs at these places (that is why this plan was chosen): read them all, then sort.
    const seqs = sql`(SELECT DISTINCT seq FROM board_job_places WHERE geo_id IN (SELECT value FROM ${jsonRows(filter.near.places)}) AND seq < ${after})`;
    return { source: { from: sql`${seqs} d`, seq: sql`d.seq`, where: [] }, used: "near" };
  }
  if (filter.categoryId !== undefined) {
    return { source: { from: sql`board_job_categories d`, seq: sql`d.seq`, where: [sql`d.category_id = ${filter.categoryId}`, sql`d.seq < ${after}`] }, used: "categoryId" };
  }
  if (filter.provinceCode !== undefined) {
    return { source: { from: sql`board_job_provinces d`, seq: sql`d.seq`, where: [sql`d.province_code = ${filter.provinceCode}`, sql`d.seq < ${after}`] }, used: "provinceCode" };
  }
  if (filter.positionTypeId !== undefined) {
    return { source: { from: sql`board_jobs d INDEXED BY board_jobs_position_type_idx`, seq: sql`d.seq`, where: [sql`d.position_type_id = ${filter.positionTypeId}`, sql`d.seq < ${after}`] }, used: "positionTypeId" };
  }
  return { source: { from: sql`board_jobs d`, seq: sql`d.seq`, where: [sql`d.seq < ${after}`] }, used: null };
}

/** The filters the source does not apply, as conditions on board_jobs `b`. */
function checksOf(filter: BoardFilter, used: keyof BoardFilter | null, now: number): SQL[] {
  const checks: SQL[] = [sql`b.close_date > ${now}`];
  if (filter.locationId !== undefined && used !== "locationId") {
    checks.push(sql`EXISTS (SELECT 1 FROM board_job_places p WHERE p.seq = b.seq AND p.place_id = ${filter.locationId})`);
  }
  if (filter.near && used !== "near") {
    checks.push(sql`EXISTS (SELECT 1 FROM board_job_places p WHERE p.seq = b.seq AND p.geo_id IN (SELECT value FROM ${jsonRows(filter.near.places)}))`);
  }
  if (filter.categoryId !== undefined && used !== "categoryId") {
    checks.push(sql`EXISTS (SELECT 1 FROM board_job_categories c WHERE c.category_id = ${filter.categoryId} AND c.seq = b.seq)`);
  }
  if (filter.provinceCode !== undefined && used !== "provinceCode") {
    checks.push(sql`EXISTS (SELECT 1 FROM board_job_provinces p WHERE p.province_code = ${filter.provinceCode} AND p.seq = b.seq)`);
  }
  if (filter.positionTypeId !== undefined && used !== "positionTypeId") checks.push(sql`b.position_type_id = ${filter.positionTypeId}`);
  if (filter.salaryMin !== undefined) checks.push(sql`b.salary_year_top >= ${filter.salaryMin}`);
  return checks;
}

/** One page of the board, newest first, after the cursor's seq; `limit` rows at most. */
export async function boardPage(db: BoardDatabase, filter: BoardFilter, after: number | null, limit: number, now: number): Promise<BoardItemRow[]> {
  const { source, used } = sourceOf(filter, after ?? NO_CURSOR);
  const where = [...source.where, sql`b.seq = ${source.seq}`, ...checksOf(filter, used, now)];
  const places = filter.near ? sql`b.places` : sql`NULL`;
  // CROSS JOIN keeps the source as the outer loop: the walk is in its order and stops at the limit.
  return all<BoardItemRow>(
    db,
    sql`SELECT b.seq, b.job_id AS jobId, b.item, b.employer_id AS employerId, b.confidential, e.name AS employerName, ${places} AS places
      FROM (SELECT ${source.seq} AS seq FROM ${source.from} CROSS JOIN board_jobs b
            WHERE ${sql.join(where, sql` AND `)} ORDER BY ${source.seq} DESC LIMIT ${limit}) k
      JOIN board_jobs b ON b.seq = k.seq
      JOIN board_employers e ON e.employer_id = b.employer_id
      ORDER BY b.seq DESC`,
  );
}

/** A job on the board, or undefined. */
export async function boardJob(db: BoardDatabase, jobId: number, now: number): Promise<BoardJobRow | undefined> {
  const rows = await all<BoardJobRow>(
    db,
    sql`SELECT b.job, e.name AS employerName, b.shard, b.employer_id AS employerId FROM board_jobs b JOIN board_employers e ON e.employer_id = b.employer_id
      WHERE b.job_id = ${jobId} AND b.close_date > ${now}`,
  );
  return rows[0];
}

/** For the cron's comparison: the board's jobs of one shard after `afterJobId`, by job id. */
export function boardRevisionsPage(db: BoardDatabase, shard: number, afterJobId: number, limit: number): Promise<{ jobId: number; revision: number; employerId: number }[]> {
  return all(
    db,
    sql`SELECT job_id AS jobId, revision, employer_id AS employerId FROM board_jobs WHERE shard = ${shard} AND job_id > ${afterJobId} ORDER BY job_id LIMIT ${limit}`,
  );
}

/**
 * DESIGN 22: the shard of each of these jobs, as the board heard it from the job's newest change
 * (a job it never heard of is left out), and its employer while the job is on the board (null once
 * it left): the employer whose tombstone a public write follows when the shard is one it left.
 */
export function boardJobShards(db: BoardDatabase, jobIds: number[]): Promise<{ jobId: number; shard: number; employerId: number | null }[]> {
  if (jobIds.length === 0) return Promise.resolve([]);
  return all(
    db,
    sql`SELECT r.job_id AS jobId, r.shard, b.employer_id AS employerId FROM board_revisions r LEFT JOIN board_jobs b ON b.job_id = r.job_id
      WHERE r.job_id IN (SELECT value FROM json_each(${JSON.stringify(jobIds)}))`,
  );
}

/** For the cron's comparison: the employers' names the board shows, after `afterEmployerId`. */
export function boardEmployersPage(db: BoardDatabase, afterEmployerId: number, limit: number): Promise<{ employerId: number; name: string }[]> {
  return all(db, sql`SELECT employer_id AS employerId, name FROM board_employers WHERE employer_id > ${afterEmployerId} ORDER BY employer_id LIMIT ${limit}`);
}

/** DESIGN 18a: whether the board ever listed this job (its page then answers 410, not 404). */
export async function wasListed(db: BoardDatabase, jobId: number): Promise<boolean> {
  const rows = await all<{ listed: number }>(db, sql`SELECT listed FROM board_revisions WHERE job_id = ${jobId}`);
  return Boolean(rows[0]?.listed);
}

/** DESIGN 18: how many jobs the board holds (the triggers keep the count). */
export async function boardJobCount(db: BoardDatabase): Promise<number> {
  return (await all<{ jobs: number }>(db, sql`SELECT jobs FROM board_totals WHERE id = 1`))[0]?.jobs ?? 0;
}

/**
 * DESIGN 18a: a sitemap file, by job id: the `limit` board rows from `fromJobId` on (the file's
 * range, read by the job-id index and stopped there), less those past their closeDate.
 */
export function boardSitemapPage(
  db: BoardDatabase,
  fromJobId: number,
  limit: number,
  now: number,
): Promise<{ jobId: number; title: string; frTitle: string | null; publishDate: number }[]> {
  return all(
    db,
    sql`SELECT job_id AS jobId, title, json_extract(job, '$.translations') ->> '$.fr.title' AS frTitle, publish_date AS publishDate
      FROM (SELECT job_id, title, job, publish_date, close_date FROM board_jobs WHERE job_id >= ${fromJobId} ORDER BY job_id LIMIT ${limit})
      WHERE close_date > ${now}`,
  );
}

/** DESIGN 18a: where each sitemap file's range starts: every `size`-th board job by id, from one walk of the job-id index (no row read). */
export async function boardSitemapStarts(db: BoardDatabase, size: number): Promise<number[]> {
  const rows = await all<{ jobId: number }>(
    db,
    sql`SELECT job_id AS jobId FROM (SELECT job_id, row_number() OVER (ORDER BY job_id) AS n FROM board_jobs) WHERE n % ${size} = 1 % ${size}`,
  );
  return rows.map((row) => row.jobId);
}
