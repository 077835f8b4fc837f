import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { movedToColumn, throwIfMoved } from "../../shards/locks";
import type { JobStatus } from "../schemas";
import { locationsJson } from "./columns";
import type { JobHeaderRow } from "./rows";
import { batch } from "./statements";

// The employer's job list: a page by keyset-friendly indexes, `q` by the caller's own entries of
// the search index, walked in the list's order.

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

/** Three private-use characters of 11 bits each, as drizzle/0025 writes them into job_search. */
const token = (base: number, value: number) =>
  String.fromCharCode(base + Math.floor(value / 4_194_304), base + (Math.floor(value / 2_048) % 2_048), base + (value % 2_048));
const STATUS_CODES: Record<JobStatus, number> = { active: 0, draft: 1, archived: 2 };

/** The caller's entries of job_search (column e), or those of one status (column s). */
export function ownEntries(employerId: number, status?: JobStatus): string {
  return status === undefined ? `{e}: "${token(0xe000, employerId)}"` : `{s}: "${token(0xe800, employerId * 4 + STATUS_CODES[status])}"`;
}

/** What job_search is matched with for `q`: the term, in title or referenceId only, and the caller's own token. */
export const searchOf = (employerId: number, term: string, status?: JobStatus) => `{title reference_id}: ${ftsPhrase(term)} AND ${ownEntries(employerId, status)}`;

/** job_search rowids are publish_date * 2^31 + id (drizzle/0025): descending, the list's order; the job id is in the low 31 bits. */
const jobIdOfEntry = sql`job_search.rowid % 2147483648`;

/**
 * A page of headers and the exact total, in one batch. Without `q` the total is read from
 * job_counts (at most 3 rows, whatever the employer's size) and the page is found on the
 * (employer_id, [status,] publish_date, id) index before any row is read, deep pages included.
 * With `q` of 3 characters or more, the trigram index is walked in the list's order among the
 * caller's own entries (the term and a token of theirs, matched together), so the page stops
 * once it is full, and neither the page nor the total reads another employer's entries or any
 * jobs row but the page's. A shorter `q` is a LIKE over the employer's own rows.
 * `alongside` (another capability's statement over the page's job ids, given as a subquery) is
 * run in the same batch, so a list with more columns than these still costs one round trip.
 */
export async function listJobs(
  db: Database,
  employerId: number,
  filter: ListFilter,
  alongside?: (pageIds: SQL) => SQL,
): Promise<{ rows: JobHeaderRow[]; total: number; alongside?: Record<string, unknown>[] }> {
  const term = filter.q;
  const limit = sql`LIMIT ${filter.pageSize} OFFSET ${(filter.page - 1) * filter.pageSize}`;
  let pageIds: SQL;
  let total: SQL;
  // DESIGN 22: with the total, whether the employer moved away from this shard (it then has no job here).
  const movedTo = movedToColumn(employerId);
  if (term !== undefined && [...term].length >= MIN_INDEXED_TERM) {
    const match = searchOf(employerId, term, filter.status);
    pageIds = sql`SELECT ${jobIdOfEntry} FROM job_search WHERE job_search MATCH ${match} ORDER BY job_search.rowid DESC ${limit}`;
    total = sql`SELECT count(*) AS total, ${movedTo} FROM job_search WHERE job_search MATCH ${match}`;
  } else {
    const conditions = [sql`j.employer_id = ${employerId}`];
    if (filter.status) conditions.push(sql`j.status = ${filter.status}`);
    if (term) {
      const pattern = `%${escapeLike(term)}%`;
      conditions.push(sql`(j.title LIKE ${pattern} ESCAPE '\\' OR j.reference_id LIKE ${pattern} ESCAPE '\\')`);
    }
    const where = sql.join(conditions, sql` AND `);
    pageIds = sql`SELECT j.id FROM jobs j WHERE ${where} ORDER BY j.publish_date DESC, j.id DESC ${limit}`;
    total = term
      ? sql`SELECT count(*) AS total, ${movedTo} FROM jobs j WHERE ${where}`
      : sql`SELECT coalesce(sum(total), 0) AS total, ${movedTo} FROM job_counts
          WHERE employer_id = ${employerId} ${filter.status ? sql`AND status = ${filter.status}` : sql``}`;
  }
  const [page, totals, extra] = await batch(db, [
    // `+j.employer_id`: the wall between employers checked again on the page's rows, written so
    // that SQLite does not walk the employer's whole index for it.
    sql`
      SELECT j.id, j.reference_id AS referenceId, j.employer_id AS employerId, e.name AS employerName, j.title,
        j.publish_date AS publishDate, j.close_date AS closeDate, j.confidential, j.status, ${locationsJson} AS locations,
        j.salary_amount AS salaryAmount, j.salary_max_amount AS salaryMaxAmount, j.salary_type_id AS salaryTypeId,
        j.ai_used_in_selection AS aiUsedInSelection, j.existing_vacancy AS existingVacancy, j.canadian_experience AS canadianExperience,
        j.translations IS NOT NULL AS hasFrench, e.ontario_employees AS employerOntarioEmployees, e.federally_regulated AS employerFederallyRegulated
      FROM jobs j JOIN employers e ON e.id = j.employer_id
      WHERE j.id IN (${pageIds}) AND +j.employer_id = ${employerId}
      ORDER BY j.publish_date DESC, j.id DESC`,
    total,
    ...(alongside ? [alongside(pageIds)] : []),
  ]);
  const counted = totals.results[0] as { total: number; movedTo: number | null };
  throwIfMoved(counted);
  return { rows: page.results as JobHeaderRow[], total: counted.total, alongside: extra?.results as Record<string, unknown>[] | undefined };
}

