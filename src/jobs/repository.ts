import { sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import type { NewPlace } from "../locations/resolve";
import type { ColumnChanges, JobPlace, JobState } from "./rules";
import { distinctIds, distinctPlaces, flattenSalary } from "./rules";
import type { JobStatus } from "./schemas";

/** One job as the full-job SELECT returns it: columns plus the joined names, lists as JSON. */
export interface JobRow {
  id: number;
  referenceId: string | null;
  employerId: number;
  employerName: string;
  title: string | null;
  publishDate: number;
  closeDate: number;
  confidential: number;
  autoRefresh: number;
  status: JobStatus;
  positionTypeId: number | null;
  positionTypeName: string | null;
  salaryAmount: number | null;
  salaryMaxAmount: number | null;
  salaryTypeId: number | null;
  salaryTypeName: string | null;
  salaryTypeUnit: string | null;
  salaryPlusCommission: number | null;
  description: string | null;
  routingTypeId: number | null;
  routingTypeName: string | null;
  applicationEmail: string | null;
  applicationUrl: string | null;
  /** JSON array of {id, name, description, type}, in the client's order. */
  locations: string;
  /** JSON array of {id, name}, in the client's order. */
  categories: string;
}

export type JobHeaderRow = Pick<
  JobRow,
  "id" | "referenceId" | "employerId" | "employerName" | "title" | "publishDate" | "confidential" | "status" | "locations"
>;

// Drizzle builds the SQL; statements run on the D1 client itself because drizzle's batch
// cannot carry raw SQL with parameters (it looks for a prepared statement raw queries lack).
const dialect = new SQLiteAsyncDialect();

function prepare(db: Database, query: SQL): D1PreparedStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.$client.prepare(text).bind(...params);
}

async function all<T>(db: Database, query: SQL): Promise<T[]> {
  return (await prepare(db, query).all<T>()).results;
}

/** One round trip, atomic: D1 runs a batch as one transaction. */
async function batch(db: Database, queries: SQL[]): Promise<D1Result[]> {
  return db.$client.batch(queries.map((query) => prepare(db, query)));
}

/** Which job a statement means: by id, by referenceId, or the one this batch just inserted. */
export type JobKey = { id: number } | { referenceId: string } | { justInserted: true };

function jobIdOf(employerId: number, key: JobKey): SQL {
  if ("id" in key) return sql`${key.id}`;
  if ("referenceId" in key) {
    return sql`(SELECT id FROM jobs WHERE employer_id = ${employerId} AND reference_id = ${key.referenceId})`;
  }
  // Inside one atomic batch no other write interleaves and ids only grow (AUTOINCREMENT), so
  // the table's newest row is ours: max(id) over the whole table is one seek on the rowid
  // b-tree, where filtering by employer would walk all of that employer's index entries.
  return sql`(SELECT max(id) FROM jobs)`;
}

const locationsJson = sql`(
  SELECT json_group_array(json_object('id', l.id, 'name', l.name, 'description', l.description, 'type', l.type) ORDER BY jl.position)
  FROM job_locations jl JOIN locations l ON l.id = jl.location_id WHERE jl.job_id = j.id)`;

const categoriesJson = sql`(
  SELECT json_group_array(json_object('id', c.id, 'name', c.name) ORDER BY jc.position)
  FROM job_categories jc JOIN categories c ON c.id = jc.category_id WHERE jc.job_id = j.id)`;

/** The whole job in ONE statement: GET costs one round trip, and writes end with it in their batch. */
function selectJob(employerId: number, key: JobKey): SQL {
  return sql`
    SELECT j.id, j.reference_id AS referenceId, j.employer_id AS employerId, e.name AS employerName,
      j.title, j.publish_date AS publishDate, j.close_date AS closeDate, j.confidential,
      j.auto_refresh AS autoRefresh, j.status,
      j.position_type_id AS positionTypeId, pt.name AS positionTypeName,
      j.salary_amount AS salaryAmount, j.salary_max_amount AS salaryMaxAmount,
      j.salary_type_id AS salaryTypeId, st.name AS salaryTypeName, st.unit AS salaryTypeUnit,
      j.salary_plus_commission AS salaryPlusCommission, j.description,
      j.applicant_routing_type_id AS routingTypeId, art.name AS routingTypeName,
      j.application_email AS applicationEmail, j.application_url AS applicationUrl,
      ${locationsJson} AS locations, ${categoriesJson} AS categories
    FROM jobs j
    JOIN employers e ON e.id = j.employer_id
    LEFT JOIN position_types pt ON pt.id = j.position_type_id
    LEFT JOIN salary_types st ON st.id = j.salary_type_id
    LEFT JOIN applicant_routing_types art ON art.id = j.applicant_routing_type_id
    WHERE j.id = ${jobIdOf(employerId, key)} AND j.employer_id = ${employerId}`;
}

export async function findJob(db: Database, employerId: number, key: JobKey): Promise<JobRow | undefined> {
  return (await all<JobRow>(db, selectJob(employerId, key)))[0];
}

const COLUMN_NAMES: Record<keyof ColumnChanges, string> = {
  referenceId: "reference_id",
  title: "title",
  publishDate: "publish_date",
  closeDate: "close_date",
  confidential: "confidential",
  autoRefresh: "auto_refresh",
  status: "status",
  positionTypeId: "position_type_id",
  description: "description",
  routingTypeId: "applicant_routing_type_id",
  applicationEmail: "application_email",
  applicationUrl: "application_url",
  salaryAmount: "salary_amount",
  salaryMaxAmount: "salary_max_amount",
  salaryTypeId: "salary_type_id",
  salaryPlusCommission: "salary_plus_commission",
};

const sqlValue = (value: unknown) => (typeof value === "boolean" ? Number(value) : value);

/** Places nobody created yet; an existing row with the same key is left alone. */
function upsertPlaces(places: JobPlace[]): SQL[] {
  return places
    .filter((p): p is { kind: "create"; place: NewPlace } => p.kind === "create")
    .map(({ place }) =>
      sql`
        INSERT INTO locations (name, description, type, province_code, name_key, population_rank, source)
        VALUES (${place.name}, ${place.description}, 'City', ${place.provinceCode}, ${place.nameKey}, NULL, 'employer')
        ON CONFLICT DO NOTHING`,
    );
}

/** Link rows are written only if the job exists and is the employer's, whatever happened since the read. */
function linkStatements(employerId: number, key: JobKey, job: JobState) {
  const jobId = jobIdOf(employerId, key);
  const places = distinctPlaces(job.places).map((place, position) => {
    const location =
      place.kind === "known"
        ? sql`l.id = ${place.location.id}`
        : sql`l.name_key = ${place.place.nameKey} AND l.province_code = ${place.place.provinceCode} AND l.type = 'City'`;
    return sql`
      INSERT INTO job_locations (job_id, location_id, position)
      SELECT j.id, l.id, ${position} FROM jobs j, locations l
      WHERE j.id = ${jobId} AND j.employer_id = ${employerId} AND ${location}`;
  });
  const categories = distinctIds(job.categoryIds).map((categoryId, position) =>
    sql`
      INSERT INTO job_categories (job_id, category_id, position)
      SELECT j.id, ${categoryId}, ${position} FROM jobs j WHERE j.id = ${jobId} AND j.employer_id = ${employerId}`,
  );
  return { places, categories };
}

/** A referenceId this employer already uses: the unique index decided, not a prior read. */
export function isReferenceIdConflict(error: unknown): boolean {
  const message = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : "";
  return /UNIQUE constraint failed: jobs\.employer_id, jobs\.reference_id/.test(message);
}

/** One atomic batch: new places, the job, its links, and the job read back. */
export async function insertJob(db: Database, employerId: number, job: JobState, now: number): Promise<JobRow> {
  const salary = flattenSalary(job.salary);
  const key = { justInserted: true } as const;
  const links = linkStatements(employerId, key, job);
  const insert = sql`
    INSERT INTO jobs (employer_id, reference_id, title, publish_date, close_date, confidential, auto_refresh, status,
      position_type_id, salary_amount, salary_max_amount, salary_type_id, salary_plus_commission, description,
      applicant_routing_type_id, application_email, application_url, created_at, updated_at)
    VALUES (${employerId}, ${job.referenceId}, ${job.title}, ${job.publishDate}, ${job.closeDate},
      ${Number(job.confidential)}, ${Number(job.autoRefresh)}, ${job.status}, ${job.positionTypeId},
      ${salary.salaryAmount}, ${salary.salaryMaxAmount}, ${salary.salaryTypeId}, ${sqlValue(salary.salaryPlusCommission)},
      ${job.description}, ${job.routingTypeId}, ${job.applicationEmail}, ${job.applicationUrl}, ${now}, ${now})`;
  const results = await batch(db, [insert, ...upsertPlaces(job.places), ...links.places, ...links.categories, selectJob(employerId, key)]);
  return results.at(-1)!.results[0] as JobRow;
}

/**
 * One atomic batch: only the changed columns (so a concurrent PUT of other members is not
 * undone), link rows only for the lists the request sent, and the job read back.
 */
export async function updateJob(
  db: Database,
  employerId: number,
  id: number,
  change: { columns: ColumnChanges; job: JobState; placesSent: boolean; categoriesSent: boolean },
  now: number,
): Promise<JobRow | undefined> {
  const key = { id };
  const assignments = Object.entries(change.columns).map(
    ([name, value]) => sql`${sql.identifier(COLUMN_NAMES[name as keyof ColumnChanges])} = ${sqlValue(value)}`,
  );
  assignments.push(sql`updated_at = ${now}`);
  const links = linkStatements(employerId, key, change.job);
  const statements = [sql`UPDATE jobs SET ${sql.join(assignments, sql`, `)} WHERE id = ${id} AND employer_id = ${employerId}`];
  if (change.placesSent) {
    statements.push(
      ...upsertPlaces(change.job.places),
      sql`DELETE FROM job_locations WHERE job_id = ${id} AND job_id IN (SELECT id FROM jobs WHERE employer_id = ${employerId})`,
      ...links.places,
    );
  }
  if (change.categoriesSent) {
    statements.push(
      sql`DELETE FROM job_categories WHERE job_id = ${id} AND job_id IN (SELECT id FROM jobs WHERE employer_id = ${employerId})`,
      ...links.categories,
    );
  }
  const results = await batch(db, [...statements, selectJob(employerId, key)]);
  return results.at(-1)!.results[0] as JobRow | undefined;
}

/** One statement; false when the employer has no such job. Link rows go by ON DELETE CASCADE. */
export async function deleteJob(db: Database, employerId: number, key: JobKey): Promise<boolean> {
  const rows = await all(db, sql`
    DELETE FROM jobs WHERE id = ${jobIdOf(employerId, key)} AND employer_id = ${employerId} RETURNING id`);
  return rows.length > 0;
}

/** City names the gazetteer lacks may exist as places employers created (rare: one lookup). */
export async function findCreatedPlaces(
  db: Database,
  nameKeys: string[],
): Promise<Map<string, { id: number; name: string; description: string; type: string }>> {
  const rows = await all<{ id: number; name: string; description: string; type: string; nameKey: string }>(db, sql`
    SELECT id, name, description, type, name_key AS nameKey FROM locations
    WHERE name_key IN (${sql.join(nameKeys.map((k) => sql`${k}`), sql`, `)})
    ORDER BY coalesce(population_rank, 2147483647), id`);
  const found = new Map<string, { id: number; name: string; description: string; type: string }>();
  for (const { nameKey, ...location } of rows) if (!found.has(nameKey)) found.set(nameKey, location);
  return found;
}

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
 * A page of headers and the exact total, in one batch. Without `q` the total is read from
 * job_counts (at most 3 rows, whatever the employer's size) and the page is found on the
 * (employer_id, [status,] publish_date, id) index before any row is read, deep pages included.
 * With `q` of 3 characters or more, the trigram index is read first (CROSS JOIN keeps SQLite
 * from walking the employer's index instead), so both the page and the total cost what the
 * matches cost, not what the employer's job count costs.
 */
export async function listJobs(db: Database, employerId: number, filter: ListFilter): Promise<{ rows: JobHeaderRow[]; total: number }> {
  const conditions = [sql`j.employer_id = ${employerId}`];
  if (filter.status) conditions.push(sql`j.status = ${filter.status}`);
  const term = filter.q;
  const indexed = term !== undefined && [...term].length >= MIN_INDEXED_TERM;
  if (indexed) {
    conditions.push(sql`jobs_search MATCH ${ftsPhrase(term)}`);
  } else if (term) {
    const pattern = `%${escapeLike(term)}%`;
    conditions.push(sql`(j.title LIKE ${pattern} ESCAPE '\\' OR j.reference_id LIKE ${pattern} ESCAPE '\\')`);
  }
  const where = sql.join(conditions, sql` AND `);
  const from = indexed ? sql`jobs_search CROSS JOIN jobs j ON j.id = jobs_search.rowid` : sql`jobs j`;
  const total = term
    ? sql`SELECT count(*) AS total FROM ${from} WHERE ${where}`
    : sql`SELECT coalesce(sum(total), 0) AS total FROM job_counts
          WHERE employer_id = ${employerId} ${filter.status ? sql`AND status = ${filter.status}` : sql``}`;
  const [page, totals] = await batch(db, [
    sql`
      SELECT j.id, j.reference_id AS referenceId, j.employer_id AS employerId, e.name AS employerName, j.title,
        j.publish_date AS publishDate, j.confidential, j.status, ${locationsJson} AS locations
      FROM jobs j JOIN employers e ON e.id = j.employer_id
      WHERE j.id IN (
        SELECT j.id FROM ${from} WHERE ${where}
        ORDER BY j.publish_date DESC, j.id DESC
        LIMIT ${filter.pageSize} OFFSET ${(filter.page - 1) * filter.pageSize})
      ORDER BY j.publish_date DESC, j.id DESC`,
    total,
  ]);
  return { rows: page.results as JobHeaderRow[], total: (totals.results[0] as { total: number }).total };
}
