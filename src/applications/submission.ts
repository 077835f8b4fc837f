import type { Database } from "../db/client";
import type { Env } from "../env";
import { ConflictError, EmployerMovingError, NotFoundError, ValidationError, type FieldError } from "../http/problem";
import { EmployerMovedError, MOVING_RETRY_AFTER_SECONDS } from "../shards/locks";
import { toFieldErrors } from "../http/validation";
import { findPublished, findTestJob } from "../jobs/published";
import { checkAnswers, type Question } from "../screening";
import { WITHDRAW_LINK_MS } from "./pipeline";
import { eventApplication } from "./representation";
import { insertApplication, type ApplicationRecord, type NewApplication } from "./repository";
import { MAX_RESUME_BYTES, recogniseResume } from "./resume";
import { ApplicationInputSchema } from "./schemas";
import { newWithdrawToken, tokenHash, WITHDRAW_PATH } from "./withdraw";
import { shardOf } from "../shards/bindings";

// DESIGN 15 and 20: an application sent through the board: its fields, its answers to the
// job's screening questions and its résumé, checked together, then stored in one batch.

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
  /** DESIGN 21: an application to a test job of this test space (no Turnstile, no email). */
  testSpaceId?: number;
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

/**
 * Checks the job (on the board, routing 1), every field, every answer against the job's
 * questions and the résumé's bytes (one 400 naming each), stores the résumé in R2 under a random
 * key, then in one batch the application, its history, the applicant's confirmation and its
 * event: as many round trips with 20 answers as with none. Returns the application and what
 * the queues are to be handed.
 */
export async function submitApplication(env: Env, db: Database, jobId: number, submission: Submission) {
  const now = Math.floor(Date.now() / 1000);
  const test = submission.testSpaceId !== undefined;
  const job = test ? await findTestJob(db, submission.testSpaceId!, jobId, now) : await findPublished(db, jobId, now);
  if (!job) throw new NotFoundError(test ? "Your test space has no open job with this id." : "No job on the board has this id.");
  // DESIGN 22: the employer moved away (served again where it lives), or is moving (a 503 to retry).
  if (job.employerMovedTo !== null) throw new EmployerMovedError(job.employerMovedTo);
  if (job.employerFrozen) throw new EmployerMovingError(MOVING_RETRY_AFTER_SECONDS);
  if (job.routingTypeId !== ROUTING_EMAIL) {
    throw new ConflictError(
      "applications-not-collected",
      job.applicationUrl ? `This job takes applications on the employer's site: ${job.applicationUrl}` : "This job does not take applications here.",
      job.applicationUrl ? { applicationUrl: job.applicationUrl } : {},
    );
  }
  if (!test) await checkTurnstile(env, submission);
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
  const withdrawToken = newWithdrawToken(shardOf(env));
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
    // A test job's application sends no email: none is queued, and the copy says so.
    const { id, confirmationId, events } = await insertApplication(db, test ? { ...application, emailStatus: "skipped" } : application, test ? null : { withdrawLink }, { data: eventData });
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

