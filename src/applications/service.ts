import { sql } from "drizzle-orm";
import { createDatabase, type Database } from "../db/client";
import type { Env } from "../env";
import type { RecordedEvent } from "../events/outbox";
import { ConflictError, NotFoundError, PreconditionFailedError, ValidationError } from "../http/problem";
import { ifMatchPasses, type Preconditions } from "../jobs/etag";
import { runChunked, type Bounds, type RuleProgress } from "../scheduled/chunks";
import { type Chunk } from "../db/windows";
import { DECISION_DAYS, moveEffects, NOTIFIABLE, refusedMove, type ApplicationStatus } from "./pipeline";
import { applicationEtag, eventApplication, toApplication } from "./representation";
import {
  applicationHistoryOf,
  dueDecisionNotices,
  findApplication,
  forgetResumeDeletions,
  listApplications,
  moveApplication,
  type ApplicationFilter,
  type ApplicationRecord,
} from "./repository";

// The employer's side of applications (DESIGN 15, 20): reading them, moving them through the
// pipeline, and the cron's decision notices.

const NOT_FOUND = "You have no application with this id.";

export async function readApplication(db: Database, employerId: number, id: number) {
  const row = await findApplication(db, employerId, id);
  if (!row) throw new NotFoundError(NOT_FOUND);
  return row;
}

export async function applicationsOfJob(db: Database, employerId: number, jobId: number, filter: ApplicationFilter, page: number, pageSize: number) {
  const { rows, total } = await listApplications(db, employerId, jobId, filter, page, pageSize);
  return { data: rows.map(toApplication), total };
}

export async function resumeOf(env: Env, db: Database, employerId: number, id: number) {
  const row = await readApplication(db, employerId, id);
  const object = row.resumeKey ? await env.RESUMES.get(row.resumeKey) : null;
  if (!object) throw new NotFoundError("This application has no résumé.");
  return { row, object };
}

/** An application's moves are kept; past this many, it takes no more (its history stays bounded). */
export const MAX_MOVES = 500;

export interface MoveRequest {
  status: ApplicationStatus;
  note?: string | null;
  notifyApplicant?: boolean;
}

/**
 * PUT /applications/{id} (DESIGN 20): one read, then one atomic batch (status, history, event,
 * the applicant's email), conditioned on the revision read; with If-Match the client pins it.
 */
export async function moveApplicationTo(env: Env, db: Database, employerId: number, id: number, request: MoveRequest, ifMatch?: Preconditions) {
  if (request.notifyApplicant && !NOTIFIABLE.includes(request.status)) {
    throw new ValidationError([{ field: "notifyApplicant", message: `notifyApplicant tells the applicant of an outcome: only with status ${NOTIFIABLE.join(" or ")}.` }]);
  }
  const pinned = ifMatch !== undefined && !ifMatch.any;
  for (let attempt = 1; attempt <= 20; attempt++) {
    const current = await readApplication(db, employerId, id);
    const etag = applicationEtag(current);
    if (ifMatch && !ifMatchPasses(ifMatch, etag)) throw new PreconditionFailedError(etag, "application");
    const refused = refusedMove(current.status, request.status);
    if (refused) throw new ConflictError("invalid-transition", refused);
    if (current.moves >= MAX_MOVES) throw new ConflictError("history-limit", `The application has moved ${MAX_MOVES} times, the most kept; it takes no more moves.`);
    const moved = await applyMove(env, db, current, {
      status: request.status,
      note: request.note ?? null,
      notify: request.notifyApplicant ? (request.status as "rejected" | "hired") : null,
    });
    if (moved) return moved;
    if (pinned) throw new PreconditionFailedError(applicationEtag(await readApplication(db, employerId, id)), "application");
  }
  throw new ConflictError("edit-conflict", "The application changed 20 times while this request was applied; send it again.");
}

/**
 * One move of the application as read, in one atomic batch; undefined when it changed since
 * (its revision). A move to withdrawn drops the résumé, deleted from the bucket at once.
 */
export async function applyMove(
  env: Pick<Env, "RESUMES">,
  db: Database,
  current: ApplicationRecord,
  move: { status: ApplicationStatus; note: string | null; notify: "rejected" | "hired" | null },
) {
  const at = Math.max(Date.now(), current.updatedAt);
  const effects = moveEffects(current, move.status, at);
  const dropResume = move.status === "withdrawn" ? current.resumeKey : null;
  const after = {
    ...current,
    status: move.status,
    revision: current.revision + 1,
    updatedAt: at,
    interviewedAt: effects.interviewedAt,
    ...(dropResume ? { resumeKey: null } : {}),
  };
  const moved = await moveApplication(db, {
    id: current.id,
    employerId: current.employerId,
    expectedRevision: current.revision,
    status: move.status,
    at,
    note: move.note,
    interviewedAt: effects.interviewedAt,
    decisionNoticeAt: effects.decisionNoticeAt,
    eventData: JSON.stringify({ application: eventApplication(after), previousStatus: current.status }),
    notify: move.notify,
    emailsSkipped: current.emailStatus === "skipped",
    dropResume,
  });
  if (moved && dropResume) await deleteResumeNow(env, db, dropResume);
  return moved;
}

/** A withdrawn application's résumé leaves the bucket at once; should that fail, the cron's purge retries it. */
export async function deleteResumeNow(env: Pick<Env, "RESUMES">, db: Database, key: string): Promise<void> {
  try {
    await env.RESUMES.delete(key);
    await forgetResumeDeletions(db, [key]);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "résumé not deleted at once; the cron will", error: String(error) }));
  }
}

export async function historyOf(db: Database, employerId: number, id: number) {
  await readApplication(db, employerId, id);
  return (await applicationHistoryOf(db, id)).map((move) => ({ status: move.status, at: new Date(move.at).toISOString(), note: move.note }));
}

/**
 * For the cron: `application.decision_due`, once per interview, 7 days before the decision is due,
 * a chunk at a time; `recorded` collects the events.
 */
export async function emitDueDecisionNotices(env: Pick<Env, "DB">, now: number, recorded: RecordedEvent[], bounds: Bounds): Promise<RuleProgress[]> {
  const due = (days: number) => `strftime('%Y-%m-%dT%H:%M:%fZ', (interviewed_at + ${days * 86_400_000}) / 1000.0, 'unixepoch')`;
  const data = sql`json_object('application', json_object('id', id, 'jobId', job_id, 'name', name, 'email', email, 'status', status,
    'interviewedAt', strftime('%Y-%m-%dT%H:%M:%fZ', interviewed_at / 1000.0, 'unixepoch'), 'decisionDueAt', ${sql.raw(due(DECISION_DAYS))}))`;
  const rule = { rule: "decision-notices", chunk: (chunk: Chunk) => dueDecisionNotices(now, data, chunk) };
  return (await runChunked(createDatabase(env.DB), [rule], bounds, { recorded })).rules;
}
