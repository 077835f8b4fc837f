import type { Database } from "../db/client";
import { ConflictError, JobRemovedError, NotFoundError, PreconditionFailedError, ValidationError } from "../http/problem";
import { nowSeconds } from "./dates";
import { etagOf, ifMatchPasses, type Preconditions } from "./etag";
import { bodyErrors, evaluate, prepareBody, type Evaluation, type PreparedBody } from "./evaluate";
import type { RecordedEvent } from "../events/outbox";
import { KEY_ACTOR, type Actor } from "../events/actor";
import type { JobEventType } from "../events/types";
import { eventsOfWrite } from "./events";
import { getEmployer, type Employer } from "../employers/service";
import { bandsRefusing, enforcePostingRules } from "./posting-rules";
import {
  deleteJob,
  EmployerChanged,
  PostingRulesRefused,
  findJob,
  insertJob,
  isReferenceIdConflict,
  jobEventStatements,
  MAX_OWNED_PLACES,
  PlaceLimitReached,
  RevisionMismatch,
  updateJob,
  type ExtraStatements,
  type JobKey,
  type JobRow,
} from "./repository";
import { previewRow, toJobState, type PreviewRow } from "./representation";
import { changesOf, type JobState } from "./rules";
import { JobByReferenceInputSchema } from "./schemas";

// The use cases behind the handlers (and the batch): each reads at most once per attempt, then
// writes in one atomic batch conditioned on what it read.

/** GET /jobs's page and total, for another capability's list that shows more of each job (src/stats: listJobsWithTotals). */
export { listJobs, type ListFilter } from "./repository";
/** A stored job, as getJob and listJobs read it. */
export type { JobRow } from "./repository";

export interface Caller {
  db: Database;
  employerId: number;
  /** Who makes the change, named in its events (DESIGN 25); an API key unless said. */
  actor?: Actor;
}

export interface WriteOptions {
  /** DESIGN 11: evaluate everything, write nothing. */
  validateOnly?: boolean;
  /** DESIGN 11: If-Match, checked in the same statement as the write. */
  ifMatch?: Preconditions;
  /** Statements recorded in the job's own write batch (an idempotency record). */
  extras?: ExtraStatements;
  /** Collects the events the write recorded, for their subscribers (DESIGN 13, 16). */
  events?: RecordedEvent[];
}

/** The caller's extras and the change's events, for the write batch. */
function withEvents(options: WriteOptions, { employerId, actor = KEY_ACTOR }: Caller, types: JobEventType[]): ExtraStatements {
  const occurredAt = Date.now();
  return (written) => [...(options.extras?.(written) ?? []), ...jobEventStatements(employerId, written, types, occurredAt, actor)];
}

export type WriteResult =
  | { stored: true; row: JobRow; created: boolean }
  | { stored: false; preview: PreviewRow; created: boolean };

const NOT_FOUND = "You have no job with this id.";
const NOT_FOUND_REFERENCE = "You have no job with this referenceId.";
/**
 * DESIGN 4: how often a request is merged again onto a job another request changed first.
 * Every conflict means another write was stored, so n simultaneous writers all finish within
 * n attempts; this bounds the work of one request under any contention.
 */
export const MAX_MERGE_ATTEMPTS = 20;

const notFound = (key: JobKey) => new NotFoundError("id" in key ? NOT_FOUND : NOT_FOUND_REFERENCE);

/**
 * The evaluation's verdict: the merged job, or the 409/400 it earns. DESIGN 26a: a job the
 * operator removed (`current`) may be changed, not published: 409 `/problems/job-removed`.
 */
export function accept({ job, errors, conflict }: Evaluation, current?: Pick<JobRow, "moderationStatus">): JobState {
  if (conflict) throw new ConflictError("invalid-transition", conflict);
  if (errors.length) throw new ValidationError(errors);
  if (current?.moderationStatus === "removed" && job.status === "active") throw new JobRemovedError();
  return job;
}

async function duplicateReference(db: Database, employerId: number, referenceId: string): Promise<never> {
  const existing = await findJob(db, employerId, { referenceId });
  throw new ConflictError("duplicate-reference-id", `You already have a job with referenceId "${referenceId}".`, {
    existingJobId: existing?.id ?? null,
  });
}

export const placeLimitError = () =>
  new ValidationError([
    {
      field: "locations",
      message: `You have ${MAX_OWNED_PLACES} places of your own, the most allowed; use places from /api/v1.1/locations.`,
    },
  ]);

/** The ETag a 412 carries: the job's current one, or none when it is gone (then 404). */
async function preconditionFailed(db: Database, employerId: number, key: JobKey): Promise<never> {
  const current = await findJob(db, employerId, key);
  if (!current) throw notFound(key);
  throw new PreconditionFailedError(etagOf(current));
}

export async function getJob({ db, employerId }: Caller, id: number): Promise<JobRow> {
  const row = await findJob(db, employerId, { id });
  if (!row) throw new NotFoundError(NOT_FOUND);
  return row;
}

/** The owner as a job not stored yet shows it (a stored job's read joins the same). */
export const ownerColumns = (employer: Employer) => ({
  employerId: employer.id,
  employerName: employer.name,
  employerOntarioEmployees: employer.ontarioEmployees,
  employerFederallyRegulated: Number(employer.federallyRegulated),
  employerPostingRules: employer.postingRules,
  employerRevision: employer.revision,
});

/**
 * Inserts the job; null when its referenceId was taken meanwhile and `onTaken` says try again.
 * The job is judged for every kind of employer, and the write refused in its own batch when its
 * owner enforces the posting rules and is of a kind it breaks one for: no read first (DESIGN 9).
 */
async function insert(
  caller: Caller,
  prepared: PreparedBody,
  options: WriteOptions,
  onTaken: "conflict" | "retry",
): Promise<WriteResult | null> {
  const { db, employerId } = caller;
  for (let attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
    const now = nowSeconds();
    const job = accept(await evaluate(prepared, null, now));
    const newJob = (employer: Employer) => previewRow(job, { id: null, revision: 0, ...ownerColumns(employer) }, prepared.reference);
    if (options.validateOnly) {
      const [existing, employer] = await Promise.all([
        job.referenceId === null ? undefined : findJob(db, employerId, { referenceId: job.referenceId }),
        getEmployer(db, employerId),
      ]);
      if (existing && onTaken === "conflict") await duplicateReference(db, employerId, job.referenceId!);
      if (existing) return null;
      enforcePostingRules(employer.postingRules, job.status, () => newJob(employer));
      return { stored: false, preview: newJob(employer), created: true };
    }
    const refusing = bandsRefusing(job.status, () => newJob(UNKNOWN_OWNER));
    try {
      const extras = withEvents(options, caller, eventsOfWrite(null, job, true));
      return { stored: true, row: await insertJob(db, employerId, refusing, job, now, extras, options.events), created: true };
    } catch (error) {
      if (error instanceof PostingRulesRefused) {
        // Which rules: judged by the settings as they are now (changed meanwhile, it is tried again).
        const employer = await getEmployer(db, employerId);
        enforcePostingRules(employer.postingRules, job.status, () => newJob(employer));
        continue;
      }
      if (error instanceof PlaceLimitReached) throw placeLimitError();
      if (job.referenceId === null || !isReferenceIdConflict(error)) throw error;
      if (onTaken === "retry") return null;
      return duplicateReference(db, employerId, job.referenceId);
    }
  }
  throw editConflict();
}

/** Stands in for the owner where only the job's own facts matter. */
const UNKNOWN_OWNER: Employer = { id: 0, name: "", ontarioEmployees: null, federallyRegulated: false, postingRules: "warn", revision: 0 };

const editConflict = () =>
  new ConflictError("edit-conflict", `The job changed ${MAX_MERGE_ATTEMPTS} times while this request was applied; send it again.`);

/**
 * The merge-and-write loop of every PUT (DESIGN 4): read the job, merge the request onto it,
 * validate the merged job, write it conditioned on the revision read. When another write came
 * first, merge and validate again onto the newer job — unless the client pinned the revision
 * with If-Match, which then fails (412). A referenceId with no job creates one when `create`.
 */
async function write(caller: Caller, key: JobKey, prepared: PreparedBody, options: WriteOptions, create: boolean): Promise<WriteResult> {
  const { db, employerId } = caller;
  const pinned = options.ifMatch !== undefined && !options.ifMatch.any;
  for (let attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
    const current = await findJob(db, employerId, key);
    if (!current) {
      if (!create) throw notFound(key);
      // DESIGN 11: with If-Match, a PUT by referenceId never creates.
      if (options.ifMatch) throw new PreconditionFailedError();
      const created = await insert(caller, prepared, options, "retry");
      if (created) return created;
      continue; // created by a concurrent request meanwhile: update it instead
    }
    if (options.ifMatch && !ifMatchPasses(options.ifMatch, etagOf(current))) throw new PreconditionFailedError(etagOf(current));
    const now = nowSeconds();
    const before = toJobState(current);
    const job = accept(await evaluate(prepared, before, now), current);
    // DESIGN 19a: judged whatever the request changed, so even a no-op PUT of a broken active job is refused.
    enforcePostingRules(current.employerPostingRules, job.status, () => previewRow(job, current, prepared.reference));
    if (options.validateOnly) {
      return { stored: false, preview: previewRow(job, current, prepared.reference), created: false };
    }
    const change = changesOf(before, job);
    // Nothing changes: nothing is written, and the ETag stays.
    if (!change.any) return { stored: true, row: current, created: false };
    try {
      const extras = withEvents(options, caller, eventsOfWrite(before, job, true));
      const row = await updateJob(db, employerId, current, { ...change, job }, now, extras, options.events);
      return { stored: true, row, created: false };
    } catch (error) {
      if (error instanceof PlaceLimitReached) throw placeLimitError();
      if (job.referenceId !== null && isReferenceIdConflict(error)) return duplicateReference(db, employerId, job.referenceId);
      if (!(error instanceof RevisionMismatch || error instanceof EmployerChanged)) throw error;
      // The job or its owner's settings changed: both are in the ETag the client pinned.
      if (pinned) return preconditionFailed(db, employerId, { id: current.id });
    }
  }
  throw editConflict();
}

export async function createJob(caller: Caller, body: Record<string, unknown>, options: WriteOptions = {}): Promise<WriteResult> {
  const prepared = await prepareBody(caller.db, caller.employerId, body);
  return (await insert(caller, prepared, options, "conflict"))!;
}

export async function updateJobById(caller: Caller, id: number, body: Record<string, unknown>, options: WriteOptions = {}): Promise<WriteResult> {
  const prepared = await prepareBody(caller.db, caller.employerId, body);
  return write(caller, { id }, prepared, options, false);
}

/**
 * Spec 4.3: create when the referenceId is new, else update. Two identical PUTs racing both
 * try to insert; the unique index lets one win, and the loser updates the winner's job.
 */
export async function putJobByReference(caller: Caller, body: Record<string, unknown>, options: WriteOptions = {}): Promise<WriteResult> {
  const prepared = await prepareBody(caller.db, caller.employerId, body, JobByReferenceInputSchema);
  const referenceId = prepared.input.referenceId;
  // Without a valid referenceId there is no job to name: the body's errors are the answer.
  if (typeof referenceId !== "string") throw new ValidationError(await bodyErrors(prepared));
  return write(caller, { referenceId }, prepared, options, true);
}

/** The one-round-trip delete; with If-Match, only the revisions it names may go. */
export async function removeJob({ db, employerId, actor = KEY_ACTOR }: Caller, key: JobKey, ifMatch?: Preconditions, events?: RecordedEvent[]): Promise<void> {
  const etags = ifMatch && !ifMatch.any ? ifMatch.strong : undefined;
  if (await deleteJob(db, employerId, key, actor, etags, events)) return;
  if (etags) await preconditionFailed(db, employerId, key);
  throw notFound(key);
}
