import type { SQL } from "drizzle-orm";
import type { RecordedEvent } from "../../events/outbox";
import type { JobEventType } from "../../events/types";
import { ConflictError, NotFoundError, PreconditionFailedError, ProblemError, ValidationError } from "../../http/problem";
import { toFieldErrors } from "../../http/validation";
import { nowSeconds } from "../dates";
import { etagOf, ifMatchPasses, parsePreconditions } from "../etag";
import { bodyErrors, evaluate, prefetchOwnedPlaces, prepareBody, type PreparedBody } from "../evaluate";
import { eventsOfWrite } from "../events";
import {
  EmployerChanged,
  employerGuard,
  deleteStatements,
  findJobsByReferenceWithOwner,
  jobEventsByReferenceStatement,
  isReferenceIdConflict,
  PlaceLimitReached,
  RevisionMismatch,
  upsertStatements,
  writeJobs,
  type JobRow,
  type UpdatedJob,
} from "../repository";
import { previewRow, toJob, toJobPreview, toJobState } from "../representation";
import { changesOf, type JobState } from "../rules";
import { JobByReferenceInputSchema } from "../schemas";
import { D1_QUERIES_PER_INVOCATION } from "../../db/limits";
import { KEY_ACTOR } from "../../events/actor";
import { accept, MAX_MERGE_ATTEMPTS, ownerColumns, placeLimitError, type Caller } from "../service";
import type { Employer } from "../../employers/service";
import { suspensionGuard } from "../../employers/suspension";
import { enforcePostingRules } from "../posting-rules";
import { BatchDeleteEntrySchema, BatchUpsertEntrySchema, type BatchRequest, type BatchResult } from "./schemas";

// DESIGN 12: many PUT /jobs and DELETE /jobs bodies in one request. Each entry is judged by
// the very functions that judge the single request (prepareBody, evaluate); the reads and the
// writes are set-based: one read of every named job, one atomic write batch for all of them,
// whose statements are one per table or kind of change for all the entries at once (the
// single request's statements, for a list of one: src/jobs/repository/writes.ts).

type Op = "upsert" | "delete";

interface Entry {
  op: Op;
  index: number;
  referenceId: string | null;
  ifMatch?: string;
  /** Upserts only: the body, parsed and prepared once. */
  prepared?: PreparedBody;
  /** A problem found before any job was read (a broken entry). */
  problem?: ProblemError;
  /** Set when an earlier attempt found the employer's place limit reached by this entry. */
  overPlaceLimit?: boolean;
}

/** What an entry writes: a new job, a change of a stored one, or its deletion. */
type Write = { insert: JobState } | { update: UpdatedJob } | { delete: { id: number; revision: number } };

/** What one attempt decided for an entry: its answer, and what it writes (none for a failure, a no-op or a dry run). */
interface Plan {
  result: BatchResult;
  write?: Write;
  /** The job to show in the answer once written (or as it is, for a no-op). */
  show?: { referenceId: string } | { row: JobRow };
  /** An upsert's events, recorded for all upserts at once after their writes. */
  events?: JobEventType[];
}

export interface BatchOptions {
  validateOnly?: boolean;
  /**
   * Statements for the same write batch (an idempotency record), given the answers and the
   * referenceIds of the jobs they show. With extras the batch is written even when no job changes.
   */
  extras?: (results: BatchResult[], shown: string[]) => SQL[];
  /** Collects the events the batch recorded, for their subscribers (DESIGN 13, 16). */
  events?: RecordedEvent[];
}

const problemMembers = (problem: ProblemError) => ({
  type: `/problems/${problem.kind}`,
  detail: problem.detail,
  ...(problem.extra.errors ? { errors: problem.extra.errors } : {}),
});

const failed = (entry: Entry, problem: ProblemError, etag?: string): Plan => ({
  result: { op: entry.op, index: entry.index, referenceId: entry.referenceId, status: problem.status, ...(etag ? { etag } : {}), ...problemMembers(problem) },
});

/** The entry's If-Match as a header value, by the entry schema's own rule; a broken one is that entry's 400. */
function ifMatchOf(body: Record<string, unknown>): { ifMatch?: string; problem?: ProblemError } {
  const parsed = BatchUpsertEntrySchema.shape.ifMatch.safeParse(body.ifMatch);
  if (parsed.success) return { ifMatch: parsed.data ?? undefined };
  return { problem: new ValidationError(toFieldErrors(parsed.error.issues, ["ifMatch"])) };
}

async function upsertEntries(caller: Caller, bodies: Record<string, unknown>[]): Promise<Entry[]> {
  const owned = await prefetchOwnedPlaces(caller.db, caller.employerId, bodies);
  return Promise.all(
    bodies.map(async (body, index) => {
      const prepared = await prepareBody(caller.db, caller.employerId, body, JobByReferenceInputSchema, owned);
      const referenceId = typeof prepared.input.referenceId === "string" ? prepared.input.referenceId : null;
      const { ifMatch, problem } = ifMatchOf(body);
      const entry: Entry = { op: "upsert", index, referenceId, ifMatch, prepared, problem };
      // Without a referenceId there is no job to name: the body's errors are the entry's answer.
      if (!problem && referenceId === null) entry.problem = new ValidationError(await bodyErrors(prepared));
      return entry;
    }),
  );
}

function deleteEntries(bodies: Record<string, unknown>[]): Entry[] {
  return bodies.map((body, index) => {
    const parsed = BatchDeleteEntrySchema.safeParse(body);
    if (!parsed.success) return { op: "delete", index, referenceId: null, problem: new ValidationError(toFieldErrors(parsed.error.issues)) };
    return { op: "delete", index, referenceId: parsed.data.referenceId, ifMatch: parsed.data.ifMatch ?? undefined };
  });
}

const placeLimitPlan = (entry: Entry) => failed(entry, placeLimitError());

/** What every entry of one attempt is judged against: its time, its events' time, the owner's settings, a dry run or not. */
interface Attempt {
  now: number;
  occurredAt: number;
  employer: Employer;
  dryRun: boolean;
}

/**
 * One entry against the jobs as read and the owner's settings (which judge its posting rules):
 * its answer, what it writes (nothing for a failure, a no-op or a dry run) and, for an upsert
 * that writes, the events it emits.
 */
async function planEntry(caller: Caller, entry: Entry, current: JobRow | undefined, { now, employer, dryRun }: Attempt): Promise<Plan> {
  if (entry.problem) return failed(entry, entry.problem);
  if (entry.overPlaceLimit) return placeLimitPlan(entry);
  const referenceId = entry.referenceId!;
  const base = { op: entry.op, index: entry.index, referenceId };
  const condition = parsePreconditions(entry.ifMatch);
  if (condition) {
    if (!current) return failed(entry, entry.op === "upsert" ? new PreconditionFailedError() : new NotFoundError("You have no job with this referenceId."));
    if (!ifMatchPasses(condition, etagOf(current))) return failed(entry, new PreconditionFailedError(etagOf(current)), etagOf(current));
  }

  if (entry.op === "delete") {
    if (!current) return failed(entry, new NotFoundError("You have no job with this referenceId."));
    if (dryRun) return { result: { ...base, status: 204 } };
    return { result: { ...base, status: 204 }, write: { delete: { id: current.id, revision: current.revision } } };
  }

  const prepared = entry.prepared!;
  let job;
  const stored = current ?? { id: null, revision: 0, ...ownerColumns(employer) };
  try {
    job = accept(await evaluate(prepared, current ? toJobState(current) : null, now), current);
    const merged = job;
    enforcePostingRules(employer.postingRules, merged.status, () => previewRow(merged, stored, prepared.reference));
  } catch (error) {
    if (error instanceof ProblemError) return failed(entry, error);
    throw error;
  }
  const status = current ? 200 : 201;
  if (dryRun) {
    return { result: { ...base, status, job: toJobPreview(previewRow(job, stored, prepared.reference)) } };
  }
  if (!current) {
    return { result: { ...base, status }, write: { insert: job }, show: { referenceId }, events: eventsOfWrite(null, job, true) };
  }
  const before = toJobState(current);
  const change = changesOf(before, job);
  if (!change.any) return { result: { ...base, status }, show: { row: current } };
  return {
    result: { ...base, status },
    write: { update: { id: current.id, revision: current.revision, change: { ...change, job } } },
    show: { referenceId },
    events: eventsOfWrite(before, job, true),
  };
}

/** Fills the answers of stored entries with their job and ETag. */
export function withJobs(results: BatchResult[], shown: Map<string, JobRow>): BatchResult[] {
  return results.map((result) => {
    const row = result.referenceId === null || result.status >= 300 ? undefined : shown.get(result.referenceId);
    if (!row || result.op !== "upsert" || result.job) return result;
    return { ...result, etag: etagOf(row), job: toJob(row) };
  });
}

/** The batch's answers in request order: upserts first, then deletes. */
export async function syncJobs(caller: Caller, request: BatchRequest, options: BatchOptions = {}): Promise<BatchResult[]> {
  const entries = [
    ...(await upsertEntries(caller, (request.upsert ?? []) as Record<string, unknown>[])),
    ...deleteEntries((request.delete ?? []) as Record<string, unknown>[]),
  ];
  const named = entries.flatMap((entry) => (entry.referenceId === null ? [] : [entry.referenceId]));

  // What the request has sent D1 so far: its key and employer reads, then each attempt's reads and write.
  let sent = 2;
  for (let attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
    sent += 2;
    const { rows, employer } = await findJobsByReferenceWithOwner(caller.db, caller.employerId, named);
    const current = new Map(rows.map((row) => [row.referenceId!, row]));
    // One time for the batch's events, which keep the entries' order.
    const judging: Attempt = { now: nowSeconds(), occurredAt: Date.now(), employer, dryRun: Boolean(options.validateOnly) };
    const plans = await Promise.all(entries.map((entry) => planEntry(caller, entry, entry.referenceId === null ? undefined : current.get(entry.referenceId), judging)));
    const results = plans.map((plan) => plan.result);
    const unchanged = new Map(plans.flatMap((plan) => (plan.show && "row" in plan.show ? [[plan.show.row.referenceId!, plan.show.row] as const] : [])));
    // The upserts' events after all their writes (each job as the batch left it), before the
    // deletes' (each recorded before its delete); every list in the entries' order.
    const writes = plans.flatMap((plan) => (plan.write ? [plan.write] : []));
    const upsertEvents = plans.flatMap((plan) => (plan.events ? [{ referenceId: plan.result.referenceId!, types: plan.events }] : []));
    const statements = [
      ...upsertStatements(
        caller.employerId,
        { inserts: writes.flatMap((write) => ("insert" in write ? [write.insert] : [])), updates: writes.flatMap((write) => ("update" in write ? [write.update] : [])) },
        judging.now,
      ),
      ...jobEventsByReferenceStatement(caller.employerId, upsertEvents, judging.occurredAt, caller.actor ?? KEY_ACTOR),
      ...deleteStatements(caller.employerId, writes.flatMap((write) => ("delete" in write ? [write.delete] : [])), judging.occurredAt, caller.actor ?? KEY_ACTOR),
    ];
    if (options.validateOnly || (statements.length === 0 && !options.extras)) return withJobs(results, unchanged);

    const written = plans.flatMap((plan) => (plan.show && "referenceId" in plan.show ? [plan.show.referenceId] : []));
    const extras = options.extras?.(results, [...written, ...unchanged.keys()]) ?? [];
    // One more attempt of a large batch would pass D1's statements per invocation: answer as
    // when the jobs keep changing, and let the client send it again (a new invocation).
    const writing = statements.length + extras.length + 2;
    if (sent + writing > D1_QUERIES_PER_INVOCATION) break;
    sent += writing;
    try {
      const guarded = [employerGuard(caller.employerId, employer.revision), suspensionGuard(caller.employerId), ...statements, ...extras];
      const stored = await writeJobs(caller.db, caller.employerId, guarded, written, options.events);
      return withJobs(results, new Map([...unchanged, ...stored.map((row) => [row.referenceId!, row] as const)]));
    } catch (error) {
      if (error instanceof PlaceLimitReached) {
        // Which entry crossed the limit is not known: every entry creating a place of its own fails.
        for (const [i, plan] of plans.entries()) if (plan.write && createsPlace(entries[i])) entries[i].overPlaceLimit = true;
        continue;
      }
      // Another request changed, created or deleted one of these jobs between the read and the
      // write: nothing was stored; read again and judge every entry again.
      if (error instanceof RevisionMismatch || isReferenceIdConflict(error)) continue;
      // The owner's settings changed: every entry is judged again by the new ones.
      if (error instanceof EmployerChanged) continue;
      throw error;
    }
  }
  throw new ConflictError("edit-conflict", "The jobs changed while this batch was applied, more often than one request can follow; send it again.");
}

const createsPlace = (entry: Entry) => entry.prepared?.places?.some((place) => place.kind === "create") ?? false;
