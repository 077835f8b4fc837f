import type { Database } from "../db/client";
import { cleanDescription } from "../description/clean";
import { ConflictError, NotFoundError, ValidationError, type FieldError } from "../http/problem";
import { resolvePlace, unknownCityMessage } from "../locations/resolve";
import { loadReferenceData } from "../reference/repository";
import { nowSeconds } from "./dates";
import {
  deleteJob,
  findCreatedPlaces,
  findJob,
  insertJob,
  isReferenceIdConflict,
  updateJob,
  type JobKey,
  type JobRow,
} from "./repository";
import { toJobState } from "./representation";
import { changedColumns, mergeJob, validateJob, type JobPlace, type JobState } from "./rules";
import { JobInputSchema, type JobInput } from "./schemas";

// The use cases behind the handlers: each reads at most once, then writes in one batch.

const NOT_FOUND = "You have no job with this id.";
const NOT_FOUND_REFERENCE = "You have no job with this referenceId.";

async function resolveLocations(
  db: Database,
  locations: NonNullable<JobInput["locations"]>,
  gazetteer: Awaited<ReturnType<typeof loadReferenceData>>["gazetteer"],
): Promise<{ places: JobPlace[]; errors: FieldError[] }> {
  const errors: FieldError[] = [];
  const resolutions = locations.map((location) => resolvePlace(location.description, gazetteer));
  const lookups = resolutions.flatMap((r) => (r.kind === "lookup" ? [r.nameKey] : []));
  const created = lookups.length ? await findCreatedPlaces(db, lookups) : new Map();
  const places: JobPlace[] = [];
  resolutions.forEach((resolution, i) => {
    const field = `locations[${i}].description`;
    if (resolution.kind === "invalid") errors.push({ field, message: resolution.message });
    else if (resolution.kind === "create") places.push(resolution);
    else if (resolution.kind === "known") places.push(resolution);
    else {
      const location = created.get(resolution.nameKey);
      if (location) places.push({ kind: "known", location });
      else errors.push({ field, message: unknownCityMessage(resolution.name) });
    }
  });
  return { places, errors };
}

interface Evaluation {
  job: JobState;
  errors: FieldError[];
  conflict?: string;
}

/** The request merged into the job (or into a new one) and checked as a whole. */
async function evaluate(db: Database, current: JobState | null, input: JobInput, now: number): Promise<Evaluation> {
  const reference = await loadReferenceData(db);
  const resolved = input.locations ? await resolveLocations(db, input.locations, reference.gazetteer) : undefined;
  const places = input.locations === null ? [] : resolved?.places;
  const description =
    input.description === undefined ? undefined : input.description ? await cleanDescription(input.description) : null;
  const { job, conflict } = mergeJob(current, input, { now, places, description });
  const errors = [...(resolved?.errors ?? []), ...validateJob(job, reference)];
  // A location the client got wrong is reported once, at its own path, not again as a count.
  return { job, conflict, errors: resolved?.errors.length ? errors.filter((e) => e.field !== "locations") : errors };
}

async function prepare(db: Database, current: JobState | null, input: JobInput, now: number): Promise<JobState> {
  const { job, errors, conflict } = await evaluate(db, current, input, now);
  if (conflict) throw new ConflictError("invalid-transition", conflict);
  if (errors.length) throw new ValidationError(errors);
  return job;
}

const memberOf = (field: string) => field.split(/[.[]/)[0];

/** Which job a body that failed on member types was meant for. */
export type BodyTarget = { create: true } | JobKey;

/**
 * For a body that already failed on member types: the rules of the whole (merged) job,
 * checked with the members that did parse, so one response names every broken rule. Members
 * that failed are not reported twice. A PUT for a job that does not exist reports nothing more
 * (its 404, or its creation by referenceId, comes once the types are right).
 */
export async function ruleErrorsBesides(
  db: Database,
  employerId: number,
  target: BodyTarget,
  body: unknown,
  typeErrors: FieldError[],
): Promise<FieldError[]> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return [];
  const failed = new Set(typeErrors.map((e) => memberOf(e.field)));
  const input: Record<string, unknown> = {};
  for (const [member, schema] of Object.entries(JobInputSchema.shape)) {
    const parsed = schema.safeParse((body as Record<string, unknown>)[member]);
    if (parsed.success && parsed.data !== undefined) input[member] = parsed.data;
  }
  let current: JobState | null = null;
  if (!("create" in target)) {
    const row = await findJob(db, employerId, target);
    if (!row && "id" in target) return [];
    current = row ? toJobState(row) : null;
  }
  const { errors } = await evaluate(db, current, input as JobInput, nowSeconds());
  return errors.filter((e) => !failed.has(memberOf(e.field)));
}

async function existingReferenceConflict(db: Database, employerId: number, referenceId: string): Promise<never> {
  const existing = await findJob(db, employerId, { referenceId });
  throw new ConflictError("duplicate-reference-id", `You already have a job with referenceId "${referenceId}".`, {
    existingJobId: existing?.id ?? null,
  });
}

export async function getJob(db: Database, employerId: number, id: number): Promise<JobRow> {
  const row = await findJob(db, employerId, { id });
  if (!row) throw new NotFoundError(NOT_FOUND);
  return row;
}

export async function createJob(db: Database, employerId: number, input: JobInput): Promise<JobRow> {
  const now = nowSeconds();
  const job = await prepare(db, null, input, now);
  try {
    return await insertJob(db, employerId, job, now);
  } catch (error) {
    if (job.referenceId !== null && isReferenceIdConflict(error)) return existingReferenceConflict(db, employerId, job.referenceId);
    throw error;
  }
}

async function applyUpdate(db: Database, employerId: number, current: JobRow, input: JobInput): Promise<JobRow> {
  const now = nowSeconds();
  const before = toJobState(current);
  const job = await prepare(db, before, input, now);
  try {
    const row = await updateJob(
      db,
      employerId,
      current.id,
      {
        columns: changedColumns(before, job),
        job,
        placesSent: input.locations !== undefined,
        categoriesSent: input.categories !== undefined,
      },
      now,
    );
    // Deleted between our read and our write.
    if (!row) throw new NotFoundError(NOT_FOUND);
    return row;
  } catch (error) {
    if (job.referenceId !== null && isReferenceIdConflict(error)) return existingReferenceConflict(db, employerId, job.referenceId);
    throw error;
  }
}

export async function updateJobById(db: Database, employerId: number, id: number, input: JobInput): Promise<JobRow> {
  const current = await findJob(db, employerId, { id });
  if (!current) throw new NotFoundError(NOT_FOUND);
  return applyUpdate(db, employerId, current, input);
}

/**
 * Spec 4.3: create when the referenceId is new, else update. Two identical PUTs racing both
 * try to insert; the unique index lets one win, and the loser updates the winner's job.
 */
export async function putJobByReference(
  db: Database,
  employerId: number,
  input: JobInput & { referenceId: string },
): Promise<{ row: JobRow; created: boolean }> {
  const key = { referenceId: input.referenceId };
  const current = await findJob(db, employerId, key);
  if (current) return { row: await applyUpdate(db, employerId, current, input), created: false };
  const now = nowSeconds();
  const job = await prepare(db, null, input, now);
  try {
    return { row: await insertJob(db, employerId, job, now), created: true };
  } catch (error) {
    if (!isReferenceIdConflict(error)) throw error;
    const winner = await findJob(db, employerId, key);
    if (!winner) throw error;
    return { row: await applyUpdate(db, employerId, winner, input), created: false };
  }
}

export async function removeJob(db: Database, employerId: number, key: JobKey): Promise<void> {
  if (!(await deleteJob(db, employerId, key))) throw new NotFoundError("id" in key ? NOT_FOUND : NOT_FOUND_REFERENCE);
}
