import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { all, JOB_FROM, publicColumns, type JobRow } from "./repository";

// The jobs capability's public read API: what job seekers may see (DESIGN 14). A job is on the
// board while it is active and not past its closeDate, whoever posted it.

export interface PublishedFilter {
  /** Words that must all begin a word of the title (case and accents ignored). */
  words: string[];
  locationId?: number;
  provinceCode?: string;
  categoryId?: number;
  positionTypeId?: number;
}

/** Where the previous page ended: newest publishDate first, then highest id. */
export interface BoardCursor {
  publishDate: number;
  id: number;
}

const visible = (now: number) => sql`j.status = 'active' AND j.close_date > ${now}`;

/** An FTS5 query: every word as a quoted prefix, so nothing in it is query syntax. */
const ftsQuery = (words: string[]) => words.map((word) => `"${word.replaceAll('"', '""')}"*`).join(" ");

/**
 * One page of the board, newest first, by keyset: the page is read from `jobs_board_idx`
 * (active jobs by publishDate, id) from the cursor on, never with OFFSET and never counting
 * all matches. With `q`, the title index finds the matching jobs first.
 */
export async function listPublished(db: Database, filter: PublishedFilter, after: BoardCursor | null, limit: number, now: number): Promise<JobRow[]> {
  const conditions: SQL[] = [visible(now)];
  // A row value, so that SQLite seeks the board index to the cursor instead of scanning to it.
  if (after) conditions.push(sql`(j.publish_date, j.id) < (${after.publishDate}, ${after.id})`);
  if (filter.words.length) conditions.push(sql`j.id IN (SELECT rowid FROM board_search WHERE board_search MATCH ${ftsQuery(filter.words)})`);
  if (filter.locationId !== undefined) {
    // Only a public place filters: an employer's own place would single out its jobs (DESIGN 6b).
    conditions.push(sql`EXISTS (SELECT 1 FROM job_locations jl JOIN locations l ON l.id = jl.location_id
      WHERE jl.job_id = j.id AND jl.location_id = ${filter.locationId} AND l.owner_employer_id IS NULL)`);
  }
  if (filter.provinceCode !== undefined) {
    conditions.push(sql`EXISTS (SELECT 1 FROM job_locations jl JOIN locations l ON l.id = jl.location_id
      WHERE jl.job_id = j.id AND l.province_code = ${filter.provinceCode})`);
  }
  if (filter.categoryId !== undefined) {
    conditions.push(sql`EXISTS (SELECT 1 FROM job_categories jc WHERE jc.job_id = j.id AND jc.category_id = ${filter.categoryId})`);
  }
  if (filter.positionTypeId !== undefined) conditions.push(sql`j.position_type_id = ${filter.positionTypeId}`);
  // Without q the page walks the board index from the cursor and stops at `limit`; with q the
  // title index names the candidates first (its cost: the matching titles).
  const source = filter.words.length ? sql`jobs j` : sql`jobs j INDEXED BY jobs_board_idx`;
  return all<JobRow>(db, sql`SELECT ${publicColumns} ${JOB_FROM}
    WHERE j.id IN (
      SELECT j.id FROM ${source} WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY j.publish_date DESC, j.id DESC LIMIT ${limit})
    ORDER BY j.publish_date DESC, j.id DESC`);
}

export async function findPublished(db: Database, id: number, now: number): Promise<JobRow | undefined> {
  return (await all<JobRow>(db, sql`SELECT ${publicColumns} ${JOB_FROM} WHERE j.id = ${id} AND ${visible(now)}`))[0];
}

/** What the emailed copy of an application needs of its job (whatever its status now). */
export async function findJobForCopy(db: Database, id: number): Promise<{ id: number; title: string | null; applicationEmail: string | null } | undefined> {
  return (await all<{ id: number; title: string | null; applicationEmail: string | null }>(db, sql`
    SELECT id, title, application_email AS applicationEmail FROM jobs WHERE id = ${id}`))[0];
}
