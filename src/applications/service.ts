import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { createDatabase, type Database } from "../db/client";
import type { AppEnv, Env } from "../env";
import { dispatchAfterResponse } from "../events/dispatch";
import type { RecordedEvent } from "../events/outbox";
import { afterResponse } from "../http/after-response";
import { ConflictError, NotFoundError, PreconditionFailedError, ValidationError } from "../http/problem";
import { ifMatchPasses, type Preconditions } from "../jobs/etag";
import { runChunked, type Bounds, type RuleProgress } from "../scheduled/chunks";
import { type Chunk } from "../db/windows";
import { DECISION_DAYS, moveEffects, NOTIFIABLE, refusedMove, type ApplicationStatus } from "./pipeline";
import { enqueueEmails } from "./copies";
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

/** DESIGN 25: all the employer's applications, in a job's list's order, shape and bounds. */
export async function applicationsOfEmployer(db: Database, employerId: number, filter: ApplicationFilter, page: number, pageSize: number) {
  const { rows, total } = await listApplications(db, employerId, undefined, filter, page, pageSize);
  return { data: rows.map(toApplication), total };
}

/**
 * The résumé as a download (DESIGN 15): an attachment in its recognised type, never sniffed. The
 * plain `filename` is ASCII (a header holds no other characters); `filename*` keeps the name whole.
 */
export async function resumeDownload(env: Env, db: Database, employerId: number, id: number) {
  const row = await readApplication(db, employerId, id);
  const object = row.resumeKey ? await env.RESUMES.get(row.resumeKey) : null;
  if (!object) throw new NotFoundError("This application has no résumé.");
  const name = row.resumeFilename!;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  const headers = {
    "Content-Type": row.resumeType!,
    "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`,
    "X-Content-Type-Options": "nosniff",
  };
  return { body: object.body, headers };
}

/** An application's moves are kept; past this many, it takes no more (its history stays bounded). */
export const MAX_MOVES = 500;

export interface MoveRequest {
  status: ApplicationStatus;
  note?: string | null;
  notifyApplicant?: boolean;
}

/** Who moved an application, as its event tells (DESIGN 25): a person in the console, or an API key. */
type Actor = { type: "user"; id: number } | { type: "key" };

/**
 * PUT /applications/{id} (DESIGN 20): one read, then one atomic batch (status, history, event,
 * the applicant's email), conditioned on the revision read; with If-Match the client pins it.
 */
export async function moveApplicationTo(env: Env, db: Database, employerId: number, id: number, request: MoveRequest, ifMatch?: Preconditions, actor: Actor = { type: "key" }) {
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
      actor,
    });
    if (moved) return moved;
    if (pinned) throw new PreconditionFailedError(applicationEtag(await readApplication(db, employerId, id)), "application");
  }
  throw new ConflictError("edit-conflict", "The application changed 20 times while this request was applied; send it again.");
}

/** After a move's answer: the relay poked for its event, the applicant's email queued (the cron sweeps either, should it fail). */
export function settleMove(c: Pick<Context<AppEnv>, "env" | "executionCtx">, moved: { events: RecordedEvent[]; applicantEmailIds: number[] }): void {
  dispatchAfterResponse(c, moved.events);
  if (moved.applicantEmailIds.length) afterResponse(c, enqueueEmails(c.env, { applicantEmails: moved.applicantEmailIds }), "applicant email not queued; the cron will sweep");
}

/**
 * One move of the application as read, in one atomic batch; undefined when it changed since
 * (its revision). A move to withdrawn drops the résumé, deleted from the bucket at once. The
 * applicant's own withdrawal names no actor.
 */
export async function applyMove(
  env: Pick<Env, "RESUMES">,
  db: Database,
  current: ApplicationRecord,
  move: { status: ApplicationStatus; note: string | null; notify: "rejected" | "hired" | null; actor?: Actor },
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
    eventData: JSON.stringify({ application: eventApplication(after), previousStatus: current.status, ...(move.actor && { actor: move.actor }) }),
    notify: move.notify,
    emailsSkipped: current.emailStatus === "skipped",
    dropResume,
    byApplicant: move.actor === undefined,
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
  return movesOf(db, id);
}

const movesOf = async (db: Database, id: number) =>
  (await applicationHistoryOf(db, id)).map((move) => ({ status: move.status, at: new Date(move.at).toISOString(), note: move.note }));

/** DESIGN 25: an application as its page shows it, with its moves. */
export async function applicationWithHistory(db: Database, employerId: number, id: number) {
  const row = await readApplication(db, employerId, id);
  return { application: toApplication(row), history: await movesOf(db, id) };
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
