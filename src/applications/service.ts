import { sql } from "drizzle-orm";
import { createDatabase, type Database } from "../db/client";
import type { Env } from "../env";
import { ConflictError, NotFoundError, PreconditionFailedError, ValidationError, type FieldError } from "../http/problem";
import { ifMatchPasses, type Preconditions } from "../jobs/etag";
import { checkAnswers, type Answer, type Question } from "../screening";
import { decisionDueAt, DECISION_DAYS, isFinal, moveEffects, NOTIFIABLE, refusedMove, WITHDRAW_LINK_MS, type ApplicationStatus } from "./pipeline";
import { toFieldErrors } from "../http/validation";
import { findPublished } from "../jobs/published";
import {
  applicationHistoryOf,
  emitDecisionNotices,
  findApplication,
  findByWithdrawToken,
  forgetResumeDeletions,
  insertApplication,
  listApplications,
  moveApplication,
  type ApplicationFilter,
  type ApplicationRecord,
  type ApplicationRow,
  type NewApplication,
} from "./repository";
import { MAX_RESUME_BYTES, recogniseResume } from "./resume";
import { ApplicationInputSchema } from "./schemas";

// DESIGN 15: applications for jobs whose routing type is 1 (collected here, copied by email).

const ROUTING_EMAIL = 1;
const TURNSTILE_VERIFY = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

export interface Submission {
  fields: Record<string, unknown>;
  /** As sent: a File in multipart, anything at all in JSON. */
  resume?: unknown;
  multipart: boolean;
  turnstileToken?: string;
  clientAddress?: string;
  /** Where the applicant's withdraw link points: this deployment's public origin. */
  origin: string;
}

/** A form field sent more than once arrives as a list: each is refused by its name. */
function repeatedFields(fields: Record<string, unknown>): FieldError[] {
  return Object.entries(fields).flatMap(([field, value]) => (Array.isArray(value) ? [{ field, message: `${field} must be sent once.` }] : []));
}

async function checkTurnstile(env: Env, submission: Submission): Promise<void> {
  if (!env.TURNSTILE_SECRET) return;
  const token = submission.turnstileToken;
  const form = new FormData();
  form.set("secret", env.TURNSTILE_SECRET);
  form.set("response", token ?? "");
  if (submission.clientAddress) form.set("remoteip", submission.clientAddress);
  const verdict = token ? ((await (await fetch(TURNSTILE_VERIFY, { method: "POST", body: form })).json()) as { success?: boolean }) : { success: false };
  if (!verdict.success) throw new ValidationError([{ field: "cf-turnstile-response", message: "The Turnstile check did not pass; reload the form and try again." }]);
}

/** The résumé's bytes and recognised type, or the reason it is refused. */
async function readResume(resume: unknown, multipart: boolean): Promise<{ bytes: Uint8Array; filename: string; contentType: string } | FieldError | null> {
  // JSON null, like an empty form field, is no résumé.
  if (resume === undefined || resume === null || resume === "") return null;
  // What a browser sends for a file input left empty: no file name, no bytes.
  if (resume instanceof File && resume.size === 0 && resume.name === "") return null;
  if (!multipart) return { field: "resume", message: "resume must be a file sent with multipart/form-data; a JSON application carries no résumé." };
  if (Array.isArray(resume)) return { field: "resume", message: "resume must be one file; several were sent." };
  if (!(resume instanceof File)) return { field: "resume", message: "resume must be a file (multipart/form-data)." };
  if (resume.size > MAX_RESUME_BYTES) return { field: "resume", message: "resume must be at most 5 MiB." };
  const bytes = new Uint8Array(await resume.arrayBuffer());
  const kind = recogniseResume(bytes);
  if (!kind) return { field: "resume", message: "resume must be a PDF, a Word document (.docx) or plain text; its content is none of these." };
  const base = (resume.name || "resume").replace(/[^\p{L}\p{N}._ -]/gu, "_").replace(/\.[^.]*$/, "").slice(0, 100) || "resume";
  return { bytes, filename: `${base}.${kind.extension}`, contentType: kind.contentType };
}

/**
 * DESIGN 20: the answers as sent. JSON: the `answers` object. Multipart: a field `answers`
 * holding that JSON, or one field per question `answers[key]` (repeated for multiChoice).
 */
export function answersOf(fields: Record<string, unknown>, multipart: boolean): { raw: unknown; errors: FieldError[]; rest: Record<string, unknown> } {
  const rest: Record<string, unknown> = {};
  const perQuestion: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const key = /^answers\[(.*)\]$/.exec(name)?.[1];
    if (multipart && key !== undefined) perQuestion[key] = value;
    else if (name !== "answers") rest[name] = value;
  }
  const whole = fields.answers;
  if (!multipart || whole === undefined) return { raw: multipart && Object.keys(perQuestion).length ? perQuestion : whole, errors: [], rest };
  if (Object.keys(perQuestion).length) return { raw: undefined, errors: [{ field: "answers", message: "Send the answers one way: an answers field with JSON, or one answers[key] field per question." }], rest };
  if (typeof whole !== "string") return { raw: undefined, errors: [{ field: "answers", message: "answers must be sent once, as JSON text." }], rest };
  try {
    return { raw: JSON.parse(whole), errors: [], rest };
  } catch {
    return { raw: undefined, errors: [{ field: "answers", message: "answers must be JSON: { \"question key\": answer }." }], rest };
  }
}

/** The withdraw pages (DESIGN 20): `${WITHDRAW_PATH}/{token}`. */
export const WITHDRAW_PATH = "/withdraw";

/** A random token for the withdraw link (the application keeps its SHA-256 only). */
function newWithdrawToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What an event tells of an application: its answer without the state of emails. */
const eventApplication = (row: ApplicationRow | ApplicationRecord) => {
  const { emailCopy: _copy, applicantEmails: _emails, ...application } = toApplication({ applicantEmails: "[]", moves: 0, ...row });
  return application;
};

/**
 * Checks the job (on the board, routing 1), every field, every answer against the job's
 * questions and the résumé's bytes (one 400 naming each), stores the résumé in R2 under a random
 * key, then in one batch the application, its history, the applicant's confirmation and its
 * event: as many round trips with 20 answers as with none. Returns the application and what
 * the queues are to be handed.
 */
export async function submitApplication(env: Env, db: Database, jobId: number, submission: Submission) {
  const job = await findPublished(db, jobId, Math.floor(Date.now() / 1000));
  if (!job) throw new NotFoundError("No job on the board has this id.");
  if (job.routingTypeId !== ROUTING_EMAIL) {
    throw new ConflictError(
      "applications-not-collected",
      job.applicationUrl ? `This job takes applications on the employer's site: ${job.applicationUrl}` : "This job does not take applications here.",
      job.applicationUrl ? { applicationUrl: job.applicationUrl } : {},
    );
  }
  await checkTurnstile(env, submission);
  const given = answersOf(submission.fields, submission.multipart);
  const questions = (job.questions === null ? [] : JSON.parse(job.questions)) as Question[];
  const checked = given.errors.length ? { answers: {}, screenedOut: false, errors: given.errors } : checkAnswers(questions, given.raw, submission.multipart);
  const repeated = repeatedFields(given.rest);
  const parsed = ApplicationInputSchema.safeParse(given.rest);
  const errors = [...repeated, ...(parsed.success ? [] : toFieldErrors(parsed.error.issues).filter((e) => !repeated.some((r) => r.field === e.field))), ...checked.errors];
  const resume = await readResume(submission.resume, submission.multipart);
  if (resume && "field" in resume) errors.push(resume);
  if (errors.length || !parsed.success) throw new ValidationError(errors);

  const file = resume && !("field" in resume) ? resume : null;
  const key = file ? `resumes/${crypto.randomUUID()}` : null;
  if (file && key) await env.RESUMES.put(key, file.bytes, { httpMetadata: { contentType: file.contentType } });
  const receivedAt = Date.now();
  const withdrawToken = newWithdrawToken();
  const application = {
    jobId: job.id,
    employerId: job.employerId,
    name: parsed.data.name,
    email: parsed.data.email,
    phone: parsed.data.phone || null,
    coverLetter: parsed.data.coverLetter || null,
    receivedAt,
    resumeKey: key,
    resumeFilename: file?.filename ?? null,
    resumeType: file?.contentType ?? null,
    resumeSize: file?.bytes.length ?? null,
    answers: Object.keys(checked.answers).length ? JSON.stringify(checked.answers) : null,
    screenedOut: checked.screenedOut,
    status: "received" as const,
    updatedAt: receivedAt,
    language: parsed.data.language ?? "en",
    withdrawTokenHash: await tokenHash(withdrawToken),
    withdrawExpiresAt: receivedAt + WITHDRAW_LINK_MS,
  };
  try {
    const eventData = JSON.stringify({ application: eventApplication(asStored(application)) });
    const withdrawLink = `${submission.origin}${WITHDRAW_PATH}/${withdrawToken}`;
    const { id, confirmationId, events } = await insertApplication(db, application, { withdrawLink }, { data: eventData });
    return { receipt: { id, jobId: job.id, receivedAt: new Date(receivedAt).toISOString() }, events, confirmationId };
  } catch (error) {
    // The application was not stored: its résumé must not stay behind.
    if (key) await env.RESUMES.delete(key);
    throw error;
  }
}

/** A new application as it will be stored, for its event's data before it has an id. */
const asStored = (application: NewApplication): ApplicationRecord =>
  ({ id: 0, emailStatus: "pending", emailAttempts: 0, emailSentAt: null, emailNextAttemptAt: null, revision: 1, interviewedAt: null, decisionNoticeAt: null, ...application }) as ApplicationRecord;

type ApplicantEmailKind = "confirmation" | "rejected" | "hired";
type EmailStatus = "pending" | "sent" | "failed";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The application's ETag (DESIGN 20: the rules of section 11). */
export const applicationEtag = (row: Pick<ApplicationRecord, "id" | "revision">) => `"${row.id}.${row.revision}"`;

export function toApplication(row: ApplicationRow) {
  return {
    id: row.id,
    jobId: row.jobId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    coverLetter: row.coverLetter,
    receivedAt: new Date(row.receivedAt).toISOString(),
    resume: row.resumeKey ? { filename: row.resumeFilename!, contentType: row.resumeType!, size: row.resumeSize! } : null,
    emailCopy: { status: row.emailStatus, attempts: row.emailAttempts, sentAt: iso(row.emailSentAt) },
    answers: (row.answers === null ? {} : JSON.parse(row.answers)) as Record<string, Answer>,
    screenedOut: Boolean(row.screenedOut),
    status: row.status,
    updatedAt: new Date(row.updatedAt).toISOString(),
    interviewedAt: iso(row.interviewedAt),
    decisionDueAt: iso(decisionDueAt(row.status, row.interviewedAt)),
    applicantEmails: (JSON.parse(row.applicantEmails) as { kind: ApplicantEmailKind; status: EmailStatus; attempts: number; sentAt: number | null }[]).map((email) => ({
      ...email,
      sentAt: iso(email.sentAt),
    })),
  };
}

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
    const at = Math.max(Date.now(), current.updatedAt);
    const effects = moveEffects(current, request.status, at);
    const after = { ...current, status: request.status, revision: current.revision + 1, updatedAt: at, interviewedAt: effects.interviewedAt };
    const dropResume = request.status === "withdrawn" ? current.resumeKey : null;
    const moved = await moveApplication(db, {
      id,
      employerId,
      expectedRevision: current.revision,
      status: request.status,
      at,
      note: request.note ?? null,
      interviewedAt: effects.interviewedAt,
      decisionNoticeAt: effects.decisionNoticeAt,
      eventData: JSON.stringify({ application: eventApplication(dropResume ? { ...after, resumeKey: null } : after), previousStatus: current.status }),
      notify: request.notifyApplicant ? (request.status as "rejected" | "hired") : null,
      dropResume,
    });
    if (moved) {
      if (dropResume) await deleteResumeNow(env, db, dropResume);
      return moved;
    }
    if (pinned) throw new PreconditionFailedError(applicationEtag(await readApplication(db, employerId, id)), "application");
  }
  throw new ConflictError("edit-conflict", "The application changed 20 times while this request was applied; send it again.");
}

/** A withdrawn application's résumé leaves the bucket at once; should that fail, the cron's purge retries it. */
async function deleteResumeNow(env: Pick<Env, "RESUMES">, db: Database, key: string): Promise<void> {
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

/** The withdraw link's application, while the link works and the application is open; else undefined (a 404 page). */
export async function withdrawable(db: Database, token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const application = await findByWithdrawToken(db, await tokenHash(token), Date.now());
  return application && !isFinal(application.status) ? application : undefined;
}

/** The applicant withdraws through the link: the application is withdrawn, its résumé deleted, the link used up. */
export async function withdrawByLink(env: Env, db: Database, token: string) {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const application = await withdrawable(db, token);
    if (!application) return undefined;
    const at = Math.max(Date.now(), application.updatedAt);
    const after = { ...application, status: "withdrawn" as const, revision: application.revision + 1, updatedAt: at, resumeKey: null };
    const moved = await moveApplication(db, {
      id: application.id,
      employerId: application.employerId,
      expectedRevision: application.revision,
      status: "withdrawn",
      at,
      note: "Withdrawn by the applicant through the link in the confirmation email.",
      interviewedAt: application.interviewedAt,
      decisionNoticeAt: null,
      eventData: JSON.stringify({ application: eventApplication(after), previousStatus: application.status }),
      notify: null,
      dropResume: application.resumeKey,
    });
    if (moved) {
      if (application.resumeKey) await deleteResumeNow(env, db, application.resumeKey);
      return moved;
    }
  }
  throw new ConflictError("edit-conflict", "The application changed 20 times while it was withdrawn; try again.");
}

/** For the cron: `application.decision_due`, once per interview, 7 days before the decision is due. */
export async function emitDueDecisionNotices(env: Pick<Env, "DB">, now: number) {
  const due = (days: number) => `strftime('%Y-%m-%dT%H:%M:%fZ', (interviewed_at + ${days * 86_400_000}) / 1000.0, 'unixepoch')`;
  const data = sql`json_object('application', json_object('id', id, 'jobId', job_id, 'name', name, 'email', email, 'status', status,
    'interviewedAt', strftime('%Y-%m-%dT%H:%M:%fZ', interviewed_at / 1000.0, 'unixepoch'), 'decisionDueAt', ${sql.raw(due(DECISION_DAYS))}))`;
  return emitDecisionNotices(createDatabase(env.DB), now, data);
}
