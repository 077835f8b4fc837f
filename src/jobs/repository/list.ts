import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { movedToColumn, throwIfMoved } from "../../shards/locks";
import type { JobStatus } from "../schemas";
import { locationsJson } from "./columns";
import type { JobHeaderRow } from "./rows";
import { batch } from "./statements";

// The employer's job list: a page by keyset-friendly indexes, `q` by the caller's own search range.

export interface ListFilter {
  status?: JobStatus;
  q?: string;
  page: number;
  pageSize: number;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** An FTS5 string: the whole term as one phrase, so its characters are never query syntax. */
function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

// The trigram index only finds terms of at least 3 characters.
const MIN_INDEXED_TERM = 3;
/**
 * job_search rowids are employer_id * 2^32 + job id (drizzle/0005): one range per employer. The
 * range is computed in SQL in 64-bit integers (D1 binds a number as a float, hence the CAST):
 * past employer 2^21 (shard 1's ids start at 2^27) it is beyond what a float holds exactly.
 */
const SEARCH_ROWID_SPAN = sql.raw("4294967296");

/**
 * A page of headers and the exact total, in one batch. Without `q` the total is read from
 * job_counts (at most 3 rows, whatever the employer's size) and the page is found on the
 * (employer_id, [status,] publish_date, id) index before any row is read, deep pages included.
 * With `q` of 3 characters or more, the trigram index is read within the caller's rowid range
 * only (CROSS JOIN keeps SQLite from walking the employer's index instead), so both the page
 * and the total cost what the caller's own matches cost, whatever other employers store.
 */
export async function listJobs(db: Database, employerId: number, filter: ListFilter): Promise<{ rows: JobHeaderRow[]; total: number }> {
  const conditions = [sql`j.employer_id = ${employerId}`];
  if (filter.status) conditions.push(sql`j.status = ${filter.status}`);
  const term = filter.q;
  const indexed = term !== undefined && [...term].length >= MIN_INDEXED_TERM;
  const first = sql`(CAST(${employerId} AS INTEGER) * ${SEARCH_ROWID_SPAN})`;
  if (indexed) {
    conditions.push(
      sql`job_search MATCH ${ftsPhrase(term)} AND job_search.rowid BETWEEN ${first} AND ${first} + ${SEARCH_ROWID_SPAN} - 1`,
    );
  } else if (term) {
    const pattern = `%${escapeLike(term)}%`;
    conditions.push(sql`(j.title LIKE ${pattern} ESCAPE '\\' OR j.reference_id LIKE ${pattern} ESCAPE '\\')`);
  }
  const where = sql.join(conditions, sql` AND `);
  const from = indexed ? sql`job_search CROSS JOIN jobs j ON j.id = job_search.rowid - ${first}` : sql`jobs j`;
  // DESIGN 22: with the total, whether the employer moved away from this shard (it then has no job here).
  const total = term
    ? sql`SELECT count(*) AS total, ${movedToColumn(employerId)} FROM ${from} WHERE ${where}`
    : sql`SELECT coalesce(sum(total), 0) AS total, ${movedToColumn(employerId)} FROM job_counts
          WHERE employer_id = ${employerId} ${filter.status ? sql`AND status = ${filter.status}` : sql``}`;
  const [page, totals] = await batch(db, [
    sql`
      SELECT j.id, j.reference_id AS referenceId, j.employer_id AS employerId, e.name AS employerName, j.title,
        j.publish_date AS publishDate, j.confidential, j.status, ${locationsJson} AS locations,
        j.salary_amount AS salaryAmount, j.salary_max_amount AS salaryMaxAmount, j.salary_type_id AS salaryTypeId,
        j.ai_used_in_selection AS aiUsedInSelection, j.existing_vacancy AS existingVacancy, j.canadian_experience AS canadianExperience,
        j.translations IS NOT NULL AS hasFrench, e.ontario_employees AS employerOntarioEmployees, e.federally_regulated AS employerFederallyRegulated
      FROM jobs j JOIN employers e ON e.id = j.employer_id
      WHERE j.id IN (
        SELECT j.id FROM ${from} WHERE ${where}
        ORDER BY j.publish_date DESC, j.id DESC
        LIMIT ${filter.pageSize} OFFSET ${(filter.page - 1) * filter.pageSize})
      ORDER BY j.publish_date DESC, j.id DESC`,
    total,
  ]);
  const counted = totals.results[0] as { total: number; movedTo: number | null };
  throwIfMoved(counted);
  return { rows: page.results as JobHeaderRow[], total: counted.total };
}

