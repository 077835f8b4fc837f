import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { inList, rowSources } from "../../db/lists";
import { recordEvents, type RecordedEvent } from "../../events/outbox";
import type { Actor } from "../../events/actor";
import { gazetteerMatchId } from "../../locations/owned-place-coordinates";
import type { Location } from "../../reference/schemas";
import type { ColumnChanges, JobPlace, JobState } from "../rules";
import { distinctIds, distinctPlaces, flattenSalary, questionsJson, translationsJson } from "../rules";
import { deletedEventsStatement, deletedJobSource } from "./event-sources";
import { selectJob } from "./reads";
import type { JobRow } from "./rows";
import { guard } from "../../db/guards";
import { all, employerGuard, jobIdOf, postingRulesGuard, writeBatch, type JobKey } from "./statements";
import type { EmployerBand } from "../../postingrules";
import { suspensionGuard } from "../../employers/suspension";

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

// Every write is set-based (DESIGN 6b, 9, 12): one statement per table, or per kind of change,
// for all the jobs of a write, each list ONE JSON parameter (src/db/lists.ts rowSources; more
// only past D1's cap on a value's size). A POST or PUT of one job is the same statements for a
// list of one, so a rule is written once. A batch of 100 jobs sends one to two dozen
// statements (a statement or more per job, as before, made hundreds), so even its retries stay
// within D1's 1 000 queries per invocation.

/** The employer's own place `l` with this name key and province (a City: an owned place is one). */
const ownedPlace = (employerId: number, nameKey: SQL, provinceCode: SQL) =>
  sql`l.owner_employer_id = ${employerId} AND l.name_key = ${nameKey} AND l.province_code = ${provinceCode} AND l.type = 'City'`;

/**
 * Places of the employer's own that the jobs name and that do not exist yet: created, the
 * first ones first, as far as its limit allows; then a guard stops the batch if one is still
 * missing (the limit was reached). The same place named by several jobs is created once.
 */
function upsertOwnedPlaces(employerId: number, places: JobPlace[]): SQL[] {
  const created = distinctPlaces(places).flatMap((p) => (p.kind === "create" ? [p.place] : []));
  return rowSources(created.map(({ name, description, provinceCode, nameKey }) => ({ name, description, provinceCode, nameKey }))).flatMap(
    ({ from, member }) => {
      const missing = sql`NOT EXISTS (SELECT 1 FROM locations l WHERE ${ownedPlace(employerId, member("nameKey"), member("provinceCode"))})`;
      return [
        sql`
      INSERT INTO locations (name, description, type, province_code, name_key, population_rank, source, owner_employer_id, latitude, longitude)
      SELECT p.name, p.description, 'City', p.province_code, p.name_key, NULL, 'employer', ${employerId}, g.latitude, g.longitude
      -- DESIGN 17: coordinates when the gazetteer has this name and province (this isolate's
      -- copy of the gazetteer may predate a migration that added it).
      FROM (SELECT r.key AS key, ${member("name")} AS name, ${member("description")} AS description, ${member("provinceCode")} AS province_code,
          ${member("nameKey")} AS name_key FROM ${from} WHERE ${missing}) p
        LEFT JOIN locations g ON g.id = ${sql.raw(gazetteerMatchId("p.name_key", "p.province_code"))}
      ORDER BY p.key
      LIMIT max(0, ${MAX_OWNED_PLACES} - (SELECT count(*) FROM locations WHERE owner_employer_id = ${employerId}))
      ON CONFLICT DO NOTHING`,
        guard(sql`NOT EXISTS (SELECT 1 FROM ${from} WHERE ${missing})`, "place_limit"),
      ];
    },
  );
}

/**
 * How a link row names its job: `job` (a stored job's id), `ref` (the referenceId of a job the
 * same batch inserts), or neither (the one job the batch inserted, without a referenceId).
 */
interface LinkOwner {
  job?: number;
  ref?: string;
}

const linkOwner = (key: JobKey): LinkOwner => ("id" in key ? { job: key.id } : "referenceId" in key ? { ref: key.referenceId } : {});

/**
 * The id of the job a link row names; the join then checks it is the employer's (`+j.employer_id`:
 * by the job found, never by walking the employer's index).
 */
const linkedJobId = (employerId: number, member: (name: keyof LinkOwner) => SQL) => sql`CASE
    WHEN ${member("job")} IS NOT NULL THEN ${member("job")}
    WHEN ${member("ref")} IS NOT NULL THEN (SELECT id FROM jobs WHERE employer_id = ${employerId} AND reference_id = ${member("ref")})
    ELSE (SELECT max(id) FROM jobs) END`;

type PlaceLink = LinkOwner & { pos: number; place?: number; nameKey?: string; provinceCode?: string };
type CategoryLink = LinkOwner & { pos: number; category: number };

/**
 * The link rows of these jobs' places and categories (each list's order kept), written only if
 * the job exists and is the employer's, whatever happened since the read.
 */
function linkStatements(employerId: number, jobs: { key: JobKey; job: JobState; places: boolean; categories: boolean }[]): SQL[] {
  const placeLinks: PlaceLink[] = jobs.flatMap(({ key, job, places }) =>
    places
      ? distinctPlaces(job.places).map((place, pos) => ({
          ...linkOwner(key),
          pos,
          // A place known by its id, or one of the employer's own by its name and province.
          ...(place.kind === "known" ? { place: place.location.id } : { nameKey: place.place.nameKey, provinceCode: place.place.provinceCode }),
        }))
      : [],
  );
  const categoryLinks: CategoryLink[] = jobs.flatMap(({ key, job, categories }) =>
    categories ? distinctIds(job.categoryIds).map((category, pos) => ({ ...linkOwner(key), pos, category })) : [],
  );
  return [
    ...rowSources(placeLinks).map(
      ({ from, member }) => sql`
      INSERT INTO job_locations (job_id, location_id, position)
      SELECT j.id, loc.id, ${member("pos")} FROM ${from}
        JOIN jobs j ON j.id = ${linkedJobId(employerId, member)}
        JOIN locations loc ON loc.id = coalesce(${member("place")},
          (SELECT l.id FROM locations l WHERE ${ownedPlace(employerId, member("nameKey"), member("provinceCode"))}))
      WHERE +j.employer_id = ${employerId}`,
    ),
    ...rowSources(categoryLinks).map(
      ({ from, member }) => sql`
      INSERT INTO job_categories (job_id, category_id, position)
      SELECT j.id, ${member("category")}, ${member("pos")} FROM ${from}
        JOIN jobs j ON j.id = ${linkedJobId(employerId, member)}
      WHERE +j.employer_id = ${employerId}`,
    ),
  ];
}

/** A referenceId this employer already uses: the unique index decided, not a prior read. */
export function isReferenceIdConflict(error: unknown): boolean {
  const message = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : "";
  return /UNIQUE constraint failed: jobs\.employer_id, jobs\.reference_id/.test(message);
}

/** Every stored column of a job, by column name, as bound to SQL (a boolean as 0 or 1). */
function storedColumns(columns: ColumnChanges): Record<string, unknown> {
  return Object.fromEntries(Object.entries(columns).map(([name, value]) => [COLUMN_NAMES[name as keyof ColumnChanges], sqlValue(value)]));
}

function columnsOf(job: JobState): Required<ColumnChanges> {
  const { salary, categoryIds: _categories, places: _places, translations, questions, ...scalars } = job;
  return { ...scalars, ...flattenSalary(salary), translations: translationsJson(translations), questions: questionsJson(questions) };
}

const INSERTED_COLUMNS = Object.values(COLUMN_NAMES);

/** The new jobs, in order (so their ids grow in that order), each with the time it was written. */
function insertJobs(employerId: number, jobs: JobState[], now: number): SQL[] {
  const columns = sql.raw(INSERTED_COLUMNS.join(", "));
  return rowSources(jobs.map((job) => storedColumns(columnsOf(job)))).map(
    ({ from, member }) => sql`
    INSERT INTO jobs (employer_id, ${columns}, created_at, updated_at)
    SELECT ${employerId}, ${sql.join(
      INSERTED_COLUMNS.map((column) => member(column)),
      sql`, `,
    )}, ${now}, ${now}
    FROM ${from} ORDER BY r.key`,
  );
}

/**
 * Columns that an index of `jobs` or a trigger's `UPDATE OF` list names (drizzle/*.sql): set,
 * even to its own value, one moves an index entry or fires the trigger (job_search_update,
 * jobs_count_status). One UPDATE sets only those of them that each of its jobs changes, so
 * updates are grouped by which of these they change; any other column a job of the group
 * leaves alone is set to its own value (`CASE`), which changes nothing and fires nothing more.
 * test/jobs-batch.test.ts checks this list against the database's own indexes and triggers.
 */
export const WATCHED_COLUMNS: readonly string[] = [
  COLUMN_NAMES.referenceId,
  COLUMN_NAMES.title,
  COLUMN_NAMES.publishDate,
  COLUMN_NAMES.closeDate,
  COLUMN_NAMES.status,
  COLUMN_NAMES.autoRefresh,
];

/**
 * Stops the batch unless every job the rows name (`id`, `revision`) is still the employer's at
 * that revision. It runs just before the statement that writes those jobs, which then changes
 * exactly them: D1 runs a batch alone, so nothing comes in between. (Counting with changes()
 * after the write cannot tell: a write statement that follows a change of a job's title or
 * referenceId first flushes the search index, FTS5, whose own statements set changes().)
 */
function revisionGuard(employerId: number, from: SQL, member: (name: "id" | "revision") => SQL): SQL {
  return guard(
    sql`NOT EXISTS (SELECT 1 FROM ${from} WHERE NOT EXISTS (
      SELECT 1 FROM jobs j WHERE j.id = ${member("id")} AND +j.employer_id = ${employerId} AND +j.revision = ${member("revision")}))`,
    "revision",
  );
}

export interface JobUpdate {
  columns: ColumnChanges;
  job: JobState;
  placesChanged: boolean;
  categoriesChanged: boolean;
}

/** A stored job to update, conditioned on the revision the change was merged onto. */
export interface UpdatedJob {
  id: number;
  revision: number;
  change: JobUpdate;
}

/**
 * The updates, conditioned on the revisions they were merged onto: when any job has another
 * revision by now (or is gone), a guard stops the whole batch before anything is stored. Each
 * job's changed columns are written, with revision + 1 and updated_at; no other column moves.
 */
function updateJobs(employerId: number, updates: UpdatedJob[], now: number): SQL[] {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const { id, revision, change } of updates) {
    const columns = storedColumns(change.columns);
    const watched = WATCHED_COLUMNS.filter((column) => column in columns).join(",");
    groups.set(watched, [...(groups.get(watched) ?? []), { id, revision, ...columns }]);
  }
  return [...groups.values()].flatMap((rows) =>
    rowSources(rows).flatMap(({ rows: chunk, from, member, has }) => {
      const changed = INSERTED_COLUMNS.filter((column) => chunk.some((row) => column in row));
      const assignments = changed.map((column) => {
        const name = sql.identifier(column);
        // Watched columns are in every row of a group, so never reach the CASE.
        return chunk.every((row) => column in row)
          ? sql`${name} = ${member(column)}`
          : sql`${name} = CASE WHEN ${has(column)} THEN ${member(column)} ELSE jobs.${name} END`;
      });
      // A change of its lists alone is a change of the job too.
      assignments.push(sql`revision = jobs.revision + 1`, sql`updated_at = ${now}`);
      return [
        revisionGuard(employerId, from, member),
        sql`UPDATE jobs SET ${sql.join(assignments, sql`, `)}
        FROM ${from}
        -- By id from each row (the unary + keeps SQLite off the employer's indexes, which would
        -- walk all of its jobs): the rows first, then each job's one.
        WHERE jobs.id = ${member("id")} AND +jobs.employer_id = ${employerId} AND +jobs.revision = ${member("revision")}`,
      ];
    }),
  );
}

/** The jobs one write inserts and updates; a job without a referenceId only alone. */
export interface JobWrites {
  inserts?: JobState[];
  updates?: UpdatedJob[];
}

/**
 * The statements that store new and changed jobs, set-based: the updates (guarded), the owned
 * places they and the new jobs name, the new jobs, and the links of every job whose places or
 * categories are new (the changed jobs' old links deleted first). `now` is their updated_at.
 */
export function upsertStatements(employerId: number, { inserts = [], updates = [] }: JobWrites, now: number): SQL[] {
  // Links find a new job by its referenceId; one without (POST /jobs) as the newest job.
  if (inserts.length > 1 && inserts.some((job) => job.referenceId === null)) throw new Error("Only a job inserted alone may have no referenceId.");
  const inserted = inserts.map((job) => ({ key: job.referenceId === null ? JUST_INSERTED : { referenceId: job.referenceId }, job, places: true, categories: true }));
  const relinked = updates.map(({ id, change }) => ({ key: { id }, job: change.job, places: change.placesChanged, categories: change.categoriesChanged }));
  const unlinkPlaces = updates.flatMap(({ id, change }) => (change.placesChanged ? [id] : []));
  const unlinkCategories = updates.flatMap(({ id, change }) => (change.categoriesChanged ? [id] : []));
  return [
    ...updateJobs(employerId, updates, now),
    ...upsertOwnedPlaces(employerId, [...inserted, ...relinked].flatMap(({ job, places }) => (places ? job.places : []))),
    ...insertJobs(employerId, inserts, now),
    ...(unlinkPlaces.length ? [sql`DELETE FROM job_locations WHERE ${inList(sql`job_id`, unlinkPlaces)}`] : []),
    ...(unlinkCategories.length ? [sql`DELETE FROM job_categories WHERE ${inList(sql`job_id`, unlinkCategories)}`] : []),
    ...linkStatements(employerId, [...inserted, ...relinked]),
  ];
}

/** New places, the job and its links: the statements that insert one job. */
export function insertStatements(employerId: number, job: JobState, now: number): SQL[] {
  return upsertStatements(employerId, { inserts: [job] }, now);
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
    [
      suspensionGuard(employerId),
      ...postingRulesGuard(employerId, refusingBands),
      ...insertStatements(employerId, job, now),
      ...extras(JUST_INSERTED),
      selectJob(employerId, JUST_INSERTED),
    ],
    events,
  );
  return results.at(-1)!.results[0] as JobRow;
}

/**
 * The statements that update one job, conditioned on the revision the change was merged
 * onto: when the job has another revision by now (or is gone), a guard stops the whole batch
 * before anything is stored. Only the changed columns and lists are written.
 */
export function updateStatements(employerId: number, id: number, expectedRevision: number, change: JobUpdate, now: number): SQL[] {
  return upsertStatements(employerId, { updates: [{ id, revision: expectedRevision, change }] }, now);
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
      suspensionGuard(employerId),
      ...updateStatements(employerId, read.id, read.revision, change, now),
      ...extras(key),
      selectJob(employerId, key),
    ],
    events,
  );
  return results.at(-1)!.results[0] as JobRow;
}

/**
 * Deletes these jobs, each only at the revision it was read at (a guard stops the batch
 * otherwise), after recording their `job.deleted` events in their order. Link rows go by
 * ON DELETE CASCADE.
 */
export function deleteStatements(employerId: number, jobs: { id: number; revision: number }[], occurredAt: number, actor: Actor): SQL[] {
  return rowSources(jobs).flatMap(({ from, member }) => [
    revisionGuard(employerId, from, member),
    deletedEventsStatement(employerId, from, member("id"), occurredAt, actor),
    sql`DELETE FROM jobs WHERE id IN (SELECT ${member("id")} FROM ${from}) AND +employer_id = ${employerId}`,
  ]);
}

/**
 * One batch, one round trip: the `job.deleted` event, then the delete;
 * false when the employer has no such job, or (with `etags`, from If-Match) when its ETag is
 * none of them: the check and the delete are one step (etag.ts makes the same `"id.revision.employerRevision"`).
 * Link rows go by ON DELETE CASCADE.
 */
export async function deleteJob(db: Database, employerId: number, key: JobKey, actor: Actor, etags?: string[], events?: RecordedEvent[]): Promise<boolean> {
  const matching = etags
    ? sql`AND ${inList(sql`('"' || id || '.' || revision || '.' || (SELECT e.revision FROM employers e WHERE e.id = ${employerId}) || '"')`, etags)}`
    : sql``;
  const which = sql`id = ${jobIdOf(employerId, key)} AND employer_id = ${employerId} ${matching}`;
  const results = await writeBatch(
    db,
    [
      suspensionGuard(employerId),
      recordEvents("job.deleted", Date.now(), sql`SELECT ${deletedJobSource(actor)} FROM jobs WHERE ${which}`),
      sql`DELETE FROM jobs WHERE ${which} RETURNING id AS deleted`,
    ],
    events,
  );
  return results[2].results.length > 0;
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

