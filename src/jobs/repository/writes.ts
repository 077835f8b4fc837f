import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { inList, jsonRows } from "../../db/lists";
import { recordEvents, type RecordedEvent } from "../../events/outbox";
import { gazetteerMatchId } from "../../locations/owned-place-coordinates";
import type { Location } from "../../reference/schemas";
import type { ColumnChanges, JobPlace, JobState } from "../rules";
import { distinctIds, distinctPlaces, flattenSalary, questionsJson, translationsJson } from "../rules";
import { deletedJobSource } from "./event-sources";
import { selectJob } from "./reads";
import type { JobRow } from "./rows";
import { guard } from "../../db/guards";
import { all, employerGuard, jobIdOf, postingRulesGuard, writeBatch, type JobKey } from "./statements";
import type { EmployerBand } from "../../postingrules";

// Writing a job: inserts, updates and deletes as statements for one atomic batch, each guarded.

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
  aiUsedInSelection: "ai_used_in_selection",
  existingVacancy: "existing_vacancy",
  translations: "translations",
  canadianExperience: "canadian_experience",
  questions: "questions",
  descriptionDigest: "description_digest",
  frenchDescriptionDigest: "french_description_digest",
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
      applicant_routing_type_id, application_email, application_url, created_at, updated_at,
      ai_used_in_selection, existing_vacancy, translations, canadian_experience, questions, description_digest, french_description_digest)
    VALUES (${employerId}, ${job.referenceId}, ${job.title}, ${job.publishDate}, ${job.closeDate},
      ${Number(job.confidential)}, ${Number(job.autoRefresh)}, ${job.status}, ${job.positionTypeId},
      ${salary.salaryAmount}, ${salary.salaryMaxAmount}, ${salary.salaryTypeId}, ${sqlValue(salary.salaryPlusCommission)},
      ${job.description}, ${job.routingTypeId}, ${job.applicationEmail}, ${job.applicationUrl}, ${now}, ${now},
      ${sqlValue(job.aiUsedInSelection)}, ${sqlValue(job.existingVacancy)}, ${translationsJson(job.translations)}, ${job.canadianExperience}, ${questionsJson(job.questions)},
      ${job.descriptionDigest}, ${job.frenchDescriptionDigest})`,
    ...links.places,
    ...links.categories,
  ];
}

const JUST_INSERTED = { justInserted: true } as const;

/**
 * One atomic batch: the insert, the caller's extras, and the job read back; PostingRulesRefused
 * when the owner enforces the posting rules and is of a kind in `refusingBands`.
 */
export async function insertJob(
  db: Database,
  employerId: number,
  refusingBands: readonly EmployerBand[],
  job: JobState,
  now: number,
  extras: ExtraStatements = () => [],
  events?: RecordedEvent[],
): Promise<JobRow> {
  const results = await writeBatch(
    db,
    [...postingRulesGuard(employerId, refusingBands), ...insertStatements(employerId, job, now), ...extras(JUST_INSERTED), selectJob(employerId, JUST_INSERTED)],
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

/**
 * One atomic batch: the update, the caller's extras, and the job read back; RevisionMismatch on
 * a conflict, EmployerChanged when the owner's settings moved on from `read`'s.
 */
export async function updateJob(
  db: Database,
  employerId: number,
  read: { id: number; revision: number; employerRevision: number },
  change: JobUpdate,
  now: number,
  extras: ExtraStatements = () => [],
  events?: RecordedEvent[],
): Promise<JobRow> {
  const key = { id: read.id };
  const results = await writeBatch(
    db,
    [
      employerGuard(employerId, read.employerRevision),
      ...updateStatements(employerId, read.id, read.revision, change, now),
      ...extras(key),
      selectJob(employerId, key),
    ],
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
 * none of them: the check and the delete are one step (etag.ts makes the same `"id.revision.employerRevision"`).
 * Link rows go by ON DELETE CASCADE.
 */
export async function deleteJob(db: Database, employerId: number, key: JobKey, etags?: string[], events?: RecordedEvent[]): Promise<boolean> {
  const matching = etags
    ? sql`AND ${inList(sql`('"' || id || '.' || revision || '.' || (SELECT e.revision FROM employers e WHERE e.id = ${employerId}) || '"')`, etags)}`
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

export type OwnedPlace = Location & { nameKey: string; provinceCode: string };

/** The employer's own places with these names (a city named alone, or one it may have created). */
export async function findOwnedPlaces(db: Database, employerId: number, nameKeys: string[]): Promise<OwnedPlace[]> {
  return all(db, sql`
    SELECT id, name, description, type, latitude, longitude, name_key AS nameKey, province_code AS provinceCode FROM locations
    WHERE owner_employer_id = ${employerId} AND ${inList(sql`name_key`, nameKeys)}
    ORDER BY id`);
}

