import { sql, type SQL } from "drizzle-orm";
import { toStatement, type Database } from "../db/client";
import { jsonObject } from "../db/json";
import { inList, jsonRows } from "../db/lists";
import { recordEvents, recordedEventsOf, type RecordedEvent } from "../events/outbox";
import type { JobEventType } from "../events/types";
import { gazetteerMatchId } from "../locations/owned-place-coordinates";
import type { Location } from "../reference/schemas";
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
  revision: number;
}

export type JobHeaderRow = Pick<
  JobRow,
  "id" | "referenceId" | "employerId" | "employerName" | "title" | "publishDate" | "confidential" | "status" | "locations"
>;

const statement = toStatement;

export async function all<T>(db: Database, query: SQL): Promise<T[]> {
  return (await statement(db, query).all<T>()).results;
}

/** One round trip, atomic: D1 runs a batch as one transaction. */
async function batch(db: Database, queries: SQL[]): Promise<D1Result[]> {
  return db.$client.batch(queries.map((query) => statement(db, query)));
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

// --- guards ---------------------------------------------------------------------------------
// `write_guards` (drizzle/0005) aborts the whole batch when the condition is false; the error
// names the reason, so the caller learns why nothing was written.

/** The batch stopped because the job's revision was not the expected one (or it is gone). */
export class RevisionMismatch extends Error {}
/** The batch stopped because the employer has as many places of its own as allowed. */
export class PlaceLimitReached extends Error {}

const guard = (condition: SQL, reason: "revision" | "place_limit") =>
  sql`INSERT INTO write_guards (passed, reason) VALUES (${condition}, ${reason})`;

function guardFailure(error: unknown): Error | undefined {
  const message = error instanceof Error ? error.message : "";
  if (message.includes("write_guard:revision")) return new RevisionMismatch();
  if (message.includes("write_guard:place_limit")) return new PlaceLimitReached();
  return undefined;
}

/**
 * Runs a write batch (one round trip, atomic); a guard that stopped it is rethrown as what it
 * means. The events it recorded are added to `events`, for their subscribers.
 */
export async function writeBatch(db: Database, queries: SQL[], events?: RecordedEvent[]): Promise<D1Result[]> {
  let results: D1Result[];
  try {
    results = await batch(db, queries);
  } catch (error) {
    throw guardFailure(error) ?? error;
  }
  events?.push(...recordedEventsOf(results));
  return results;
}

// --- reading a job --------------------------------------------------------------------------

/** The job's places in order; `id` is how each place's id is shown (the board hides some). */
const locationsJsonOf = (id: SQL) => sql`(
  SELECT json_group_array(json_object('id', ${id}, 'name', l.name, 'description', l.description, 'type', l.type,
    'latitude', l.latitude, 'longitude', l.longitude) ORDER BY jl.position)
  FROM job_locations jl JOIN locations l ON l.id = jl.location_id WHERE jl.job_id = j.id)`;
const locationsJson = locationsJsonOf(sql`l.id`);

const categoriesJson = sql`(
  SELECT json_group_array(json_object('id', c.id, 'name', c.name) ORDER BY jc.position)
  FROM job_categories jc JOIN categories c ON c.id = jc.category_id WHERE jc.job_id = j.id)`;

/** JobRow's members and the SQL of each, once: for the SELECT and for the JSON snapshot. */
const JOB_COLUMNS: [keyof JobRow, SQL][] = [
  ["id", sql`j.id`],
  ["referenceId", sql`j.reference_id`],
  ["employerId", sql`j.employer_id`],
  ["employerName", sql`e.name`],
  ["title", sql`j.title`],
  ["publishDate", sql`j.publish_date`],
  ["closeDate", sql`j.close_date`],
  ["confidential", sql`j.confidential`],
  ["autoRefresh", sql`j.auto_refresh`],
  ["status", sql`j.status`],
  ["positionTypeId", sql`j.position_type_id`],
  ["positionTypeName", sql`pt.name`],
  ["salaryAmount", sql`j.salary_amount`],
  ["salaryMaxAmount", sql`j.salary_max_amount`],
  ["salaryTypeId", sql`j.salary_type_id`],
  ["salaryTypeName", sql`st.name`],
  ["salaryTypeUnit", sql`st.unit`],
  ["salaryPlusCommission", sql`j.salary_plus_commission`],
  ["description", sql`j.description`],
  ["routingTypeId", sql`j.applicant_routing_type_id`],
  ["routingTypeName", sql`art.name`],
  ["applicationEmail", sql`j.application_email`],
  ["applicationUrl", sql`j.application_url`],
  ["locations", locationsJson],
  ["categories", categoriesJson],
  ["revision", sql`j.revision`],
];

/** The job's JobRow as one JSON object, for snapshots stored in a write batch. */
const jobObject = jsonObject(JOB_COLUMNS);

export const JOB_FROM = sql`
    FROM jobs j
    JOIN employers e ON e.id = j.employer_id
    LEFT JOIN position_types pt ON pt.id = j.position_type_id
    LEFT JOIN salary_types st ON st.id = j.salary_type_id
    LEFT JOIN applicant_routing_types art ON art.id = j.applicant_routing_type_id`;

const columnsOf = (columns: [keyof JobRow, SQL][]) =>
  sql.join(
    columns.map(([name, expression]) => sql`${expression} AS ${sql.identifier(name)}`),
    sql`, `,
  );

export const selectedColumns = columnsOf(JOB_COLUMNS);

/**
 * The columns as the public may see them: a place an employer created is theirs alone
 * (DESIGN 3, 6b), so its id, which only that employer's jobs carry, is shown as null.
 */
export const publicColumns = columnsOf(
  JOB_COLUMNS.map(([name, expression]) => [name, name === "locations" ? locationsJsonOf(sql`CASE WHEN l.owner_employer_id IS NULL THEN l.id END`) : expression]),
);

/** The whole job in ONE statement: GET costs one round trip, and writes end with it in their batch. */
function selectJob(employerId: number, key: JobKey): SQL {
  return sql`SELECT ${selectedColumns} ${JOB_FROM} WHERE j.id = ${jobIdOf(employerId, key)} AND j.employer_id = ${employerId}`;
}

/**
 * The job as a JSON text of its JobRow, as a scalar SQL expression: a statement in a write
 * batch stores what the job became (an idempotent replay, an event) without another read.
 * parseJobSnapshot of it is a JobRow, so the one representation (toJob) renders it later.
 */
export function jobSnapshot(employerId: number, key: JobKey): SQL {
  return sql`(SELECT ${jobObject} ${JOB_FROM}
    WHERE j.id = ${jobIdOf(employerId, key)} AND j.employer_id = ${employerId})`;
}

type Snapshot = Omit<JobRow, "locations" | "categories"> & { locations: unknown; categories: unknown };
const fromSnapshot = (row: Snapshot): JobRow => ({ ...row, locations: JSON.stringify(row.locations), categories: JSON.stringify(row.categories) });

/** A jobSnapshot's text back as the JobRow it was taken from (SQLite nests the lists as JSON). */
export function parseJobSnapshot(text: string): JobRow {
  return fromSnapshot(JSON.parse(text) as Snapshot);
}

/** jobSnapshotsByReference's JSON (already parsed) back as JobRows. */
export function fromJobSnapshots(snapshots: unknown[]): JobRow[] {
  return (snapshots as Snapshot[]).map(fromSnapshot);
}

export async function findJob(db: Database, employerId: number, key: JobKey): Promise<JobRow | undefined> {
  return (await all<JobRow>(db, selectJob(employerId, key)))[0];
}

/** The employer's jobs with these referenceIds: one statement, two bound values, whatever the count. */
function selectJobsByReference(employerId: number, referenceIds: string[]): SQL {
  return sql`SELECT ${selectedColumns} ${JOB_FROM}
    WHERE j.employer_id = ${employerId} AND ${inList(sql`j.reference_id`, referenceIds)}`;
}

export async function findJobsByReference(db: Database, employerId: number, referenceIds: string[]): Promise<JobRow[]> {
  return referenceIds.length ? all<JobRow>(db, selectJobsByReference(employerId, referenceIds)) : [];
}

/** Like jobSnapshot, for many jobs: a JSON array of their JobRows, as a scalar SQL expression. */
export function jobSnapshotsByReference(employerId: number, referenceIds: string[]): SQL {
  return sql`(SELECT json_group_array(${jobObject}) ${JOB_FROM}
    WHERE j.employer_id = ${employerId} AND ${inList(sql`j.reference_id`, referenceIds)})`;
}

/** Runs the statements of many job writes in one atomic batch, then reads those jobs back. */
export async function writeJobs(
  db: Database,
  employerId: number,
  statements: SQL[],
  readBack: string[],
  events?: RecordedEvent[],
): Promise<JobRow[]> {
  const results = await writeBatch(db, [...statements, selectJobsByReference(employerId, readBack)], events);
  return results.at(-1)!.results as JobRow[];
}

// --- writing a job --------------------------------------------------------------------------

/** Statements a caller adds to a job's write batch (an idempotency record, an event). */
export type ExtraStatements = (written: JobKey) => SQL[];

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

/** DESIGN 3: at most this many places of an employer's own. */
export const MAX_OWNED_PLACES = 1_000;

// A job's places and categories are written set-based, one statement per list whatever its
// length (each list one JSON parameter): a batch of 100 jobs stays within D1's 1 000 queries
// per invocation (DESIGN 6b, 9, 12).

/** The employer's own place `l` named by `p` (a json_each row with nameKey and provinceCode). */
const ownedPlace = (employerId: number, p: SQL) =>
  sql`l.owner_employer_id = ${employerId} AND l.name_key = json_extract(${p}.value, '$.nameKey')
    AND l.province_code = json_extract(${p}.value, '$.provinceCode') AND l.type = 'City'`;

/**
 * Places of the employer's own that do not exist yet: created, the first ones first, as far
 * as its limit allows; then a guard stops the batch if one is still missing (the limit was
 * reached).
 */
function upsertOwnedPlaces(employerId: number, places: JobPlace[]): SQL[] {
  const created = distinctPlaces(places).flatMap((p) => (p.kind === "create" ? [p.place] : []));
  if (created.length === 0) return [];
  const rows = jsonRows(created.map(({ name, description, provinceCode, nameKey }) => ({ name, description, provinceCode, nameKey })));
  const missing = sql`NOT EXISTS (SELECT 1 FROM locations l WHERE ${ownedPlace(employerId, sql`p`)})`;
  return [
    sql`
      INSERT INTO locations (name, description, type, province_code, name_key, population_rank, source, owner_employer_id, latitude, longitude)
      SELECT json_extract(p.value, '$.name'), json_extract(p.value, '$.description'), 'City', json_extract(p.value, '$.provinceCode'),
        json_extract(p.value, '$.nameKey'), NULL, 'employer', ${employerId}, g.latitude, g.longitude
      -- DESIGN 17: coordinates when the gazetteer has this name and province (this isolate's
      -- copy of the gazetteer may predate a migration that added it).
      FROM ${rows} p LEFT JOIN locations g ON g.id = ${sql.raw(gazetteerMatchId("json_extract(p.value, '$.nameKey')", "json_extract(p.value, '$.provinceCode')"))}
      WHERE ${missing}
      ORDER BY p.key
      LIMIT max(0, ${MAX_OWNED_PLACES} - (SELECT count(*) FROM locations WHERE owner_employer_id = ${employerId}))
      ON CONFLICT DO NOTHING`,
    guard(sql`NOT EXISTS (SELECT 1 FROM ${rows} p WHERE ${missing})`, "place_limit"),
  ];
}

/** Link rows are written only if the job exists and is the employer's, whatever happened since the read. */
function linkStatements(employerId: number, key: JobKey, job: JobState) {
  const jobId = jobIdOf(employerId, key);
  // A place known by its id, or one of the employer's own by its name and province.
  const places = distinctPlaces(job.places).map((place) => (place.kind === "known" ? { id: place.location.id } : place.place));
  const categoryIds = distinctIds(job.categoryIds);
  const ofJob = sql`j.id = ${jobId} AND j.employer_id = ${employerId}`;
  return {
    places: places.length
      ? [
          sql`
      INSERT INTO job_locations (job_id, location_id, position)
      SELECT j.id, loc.id, p.key FROM jobs j, ${jsonRows(places)} p, locations loc
      WHERE ${ofJob} AND loc.id = coalesce(json_extract(p.value, '$.id'), (SELECT l.id FROM locations l WHERE ${ownedPlace(employerId, sql`p`)}))`,
        ]
      : [],
    categories: categoryIds.length
      ? [
          sql`
      INSERT INTO job_categories (job_id, category_id, position)
      SELECT j.id, c.value, c.key FROM jobs j, ${jsonRows(categoryIds)} c WHERE ${ofJob}`,
        ]
      : [],
  };
}

/** A referenceId this employer already uses: the unique index decided, not a prior read. */
export function isReferenceIdConflict(error: unknown): boolean {
  const message = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : "";
  return /UNIQUE constraint failed: jobs\.employer_id, jobs\.reference_id/.test(message);
}

/** New places, the job and its links: the statements that insert one job. */
export function insertStatements(employerId: number, job: JobState, now: number): SQL[] {
  const salary = flattenSalary(job.salary);
  const links = linkStatements(employerId, JUST_INSERTED, job);
  return [
    ...upsertOwnedPlaces(employerId, job.places),
    sql`
    INSERT INTO jobs (employer_id, reference_id, title, publish_date, close_date, confidential, auto_refresh, status,
      position_type_id, salary_amount, salary_max_amount, salary_type_id, salary_plus_commission, description,
      applicant_routing_type_id, application_email, application_url, created_at, updated_at)
    VALUES (${employerId}, ${job.referenceId}, ${job.title}, ${job.publishDate}, ${job.closeDate},
      ${Number(job.confidential)}, ${Number(job.autoRefresh)}, ${job.status}, ${job.positionTypeId},
      ${salary.salaryAmount}, ${salary.salaryMaxAmount}, ${salary.salaryTypeId}, ${sqlValue(salary.salaryPlusCommission)},
      ${job.description}, ${job.routingTypeId}, ${job.applicationEmail}, ${job.applicationUrl}, ${now}, ${now})`,
    ...links.places,
    ...links.categories,
  ];
}

const JUST_INSERTED = { justInserted: true } as const;

/** One atomic batch: the insert, the caller's extras, and the job read back. */
export async function insertJob(
  db: Database,
  employerId: number,
  job: JobState,
  now: number,
  extras: ExtraStatements = () => [],
  events?: RecordedEvent[],
): Promise<JobRow> {
  const results = await writeBatch(
    db,
    [...insertStatements(employerId, job, now), ...extras(JUST_INSERTED), selectJob(employerId, JUST_INSERTED)],
    events,
  );
  return results.at(-1)!.results[0] as JobRow;
}

export interface JobUpdate {
  columns: ColumnChanges;
  job: JobState;
  placesChanged: boolean;
  categoriesChanged: boolean;
}

/**
 * The statements that update one job, conditioned on the revision the change was merged
 * onto: when the job has another revision by now (or is gone), a guard stops the whole batch
 * before anything is stored. Only the changed columns and lists are written.
 */
export function updateStatements(employerId: number, id: number, expectedRevision: number, change: JobUpdate, now: number): SQL[] {
  const assignments = Object.entries(change.columns).map(
    ([name, value]) => sql`${sql.identifier(COLUMN_NAMES[name as keyof ColumnChanges])} = ${sqlValue(value)}`,
  );
  assignments.push(sql`revision = revision + 1`, sql`updated_at = ${now}`);
  const links = linkStatements(employerId, { id }, change.job);
  const statements = [
    sql`UPDATE jobs SET ${sql.join(assignments, sql`, `)}
        WHERE id = ${id} AND employer_id = ${employerId} AND revision = ${expectedRevision}`,
    guard(sql`changes() = 1`, "revision"),
  ];
  if (change.placesChanged) {
    statements.push(...upsertOwnedPlaces(employerId, change.job.places), sql`DELETE FROM job_locations WHERE job_id = ${id}`, ...links.places);
  }
  if (change.categoriesChanged) {
    statements.push(sql`DELETE FROM job_categories WHERE job_id = ${id}`, ...links.categories);
  }
  return statements;
}

/** One atomic batch: the update, the caller's extras, and the job read back; RevisionMismatch on a conflict. */
export async function updateJob(
  db: Database,
  employerId: number,
  id: number,
  expectedRevision: number,
  change: JobUpdate,
  now: number,
  extras: ExtraStatements = () => [],
  events?: RecordedEvent[],
): Promise<JobRow> {
  const key = { id };
  const results = await writeBatch(
    db,
    [...updateStatements(employerId, id, expectedRevision, change, now), ...extras(key), selectJob(employerId, key)],
    events,
  );
  return results.at(-1)!.results[0] as JobRow;
}

/** Deletes one job only at the revision it was read at; a guard stops the batch otherwise. */
export function deleteStatements(employerId: number, id: number, expectedRevision: number): SQL[] {
  return [
    sql`DELETE FROM jobs WHERE id = ${id} AND employer_id = ${employerId} AND revision = ${expectedRevision}`,
    guard(sql`changes() = 1`, "revision"),
  ];
}

/**
 * One batch, one round trip: the `job.deleted` event, then the delete;
 * false when the employer has no such job, or (with `etags`, from If-Match) when its ETag is
 * none of them: the check and the delete are one step (etag.ts makes the same `"id.revision"`).
 * Link rows go by ON DELETE CASCADE.
 */
export async function deleteJob(db: Database, employerId: number, key: JobKey, etags?: string[], events?: RecordedEvent[]): Promise<boolean> {
  const matching = etags
    ? sql`AND ${inList(sql`('"' || id || '.' || revision || '"')`, etags)}`
    : sql``;
  const which = sql`id = ${jobIdOf(employerId, key)} AND employer_id = ${employerId} ${matching}`;
  const results = await writeBatch(
    db,
    [
      recordEvents("job.deleted", Date.now(), sql`SELECT ${deletedJobSource} FROM jobs WHERE ${which}`),
      sql`DELETE FROM jobs WHERE ${which} RETURNING id AS deleted`,
    ],
    events,
  );
  return results[1].results.length > 0;
}

/** DESIGN 13: a deleted job's event names only what it was (the source of recordEvents, on table `jobs`). */
const deletedJobSource = sql`employer_id, id AS subject_id, revision,
  json_object('job', json_object('id', id, 'referenceId', reference_id)) AS data`;

/** The events of a job's change, for the write batch that stores it (the job as it is then). */
export function jobEventStatements(employerId: number, key: JobKey, types: JobEventType[], occurredAt: number): SQL[] {
  if (types.length === 0) return [];
  return [
    recordEvents(
      types,
      occurredAt,
      sql`SELECT ${employerId} AS employer_id, j.id AS subject_id, j.revision AS revision, json_object('job', json(${jobSnapshot(employerId, key)})) AS data
        FROM jobs j WHERE j.id = ${jobIdOf(employerId, key)} AND j.employer_id = ${employerId}`,
    ),
  ];
}

/** A batch entry's `job.deleted`, recorded before its delete statement. */
export function deletedEventStatement(employerId: number, id: number, occurredAt: number): SQL {
  return recordEvents("job.deleted", occurredAt, sql`SELECT ${deletedJobSource} FROM jobs WHERE id = ${id} AND employer_id = ${employerId}`);
}

/**
 * The cron's events, set-based: one event source over every job `condition` (the cron's own
 * WHERE, on table `jobs`) selects, with the job as the UPDATE right after it will leave it
 * (`changes`: JSON paths and values, revision + 1).
 */
export function scheduledEventSource(condition: SQL, changes: SQL): SQL {
  return sql`SELECT j.employer_id AS employer_id, j.id AS subject_id, j.revision + 1 AS revision,
      json_object('job', json_set(${jobObject}, '$.revision', j.revision + 1, ${changes})) AS data
    ${JOB_FROM}
    WHERE j.id IN (SELECT id FROM jobs WHERE ${condition})`;
}

export type OwnedPlace = Location & { nameKey: string; provinceCode: string };

/** The employer's own places with these names (a city named alone, or one it may have created). */
export async function findOwnedPlaces(db: Database, employerId: number, nameKeys: string[]): Promise<OwnedPlace[]> {
  return all(db, sql`
    SELECT id, name, description, type, latitude, longitude, name_key AS nameKey, province_code AS provinceCode FROM locations
    WHERE owner_employer_id = ${employerId} AND ${inList(sql`name_key`, nameKeys)}
    ORDER BY id`);
}

// --- the list -------------------------------------------------------------------------------

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
/** job_search rowids are employer_id * 2^32 + job id (drizzle/0005): one range per employer. */
const SEARCH_ROWID_SPAN = 4_294_967_296;

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
  const first = employerId * SEARCH_ROWID_SPAN;
  if (indexed) {
    conditions.push(
      sql`job_search MATCH ${ftsPhrase(term)} AND job_search.rowid BETWEEN ${first} AND ${first + SEARCH_ROWID_SPAN - 1}`,
    );
  } else if (term) {
    const pattern = `%${escapeLike(term)}%`;
    conditions.push(sql`(j.title LIKE ${pattern} ESCAPE '\\' OR j.reference_id LIKE ${pattern} ESCAPE '\\')`);
  }
  const where = sql.join(conditions, sql` AND `);
  const from = indexed ? sql`job_search CROSS JOIN jobs j ON j.id = job_search.rowid - ${first}` : sql`jobs j`;
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
