import type { Database } from "../db/client";
import type { Env } from "../env";
import { ConflictError, NotFoundError, ValidationError, type FieldError } from "../http/problem";
import { toFieldErrors } from "../http/validation";
import { findPublished } from "../jobs/published";
import { findApplication, insertApplication, listApplications, type ApplicationRow } from "./repository";
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
 * Checks the job (on the board, routing 1), every field and the résumé's bytes (one 400 naming
 * each), stores the résumé in R2 under a random key, then the application and its event in one
 * batch. Returns the application and the events it recorded, for their subscribers.
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
  const repeated = repeatedFields(submission.fields);
  const parsed = ApplicationInputSchema.safeParse(submission.fields);
  const errors = [...repeated, ...(parsed.success ? [] : toFieldErrors(parsed.error.issues).filter((e) => !repeated.some((r) => r.field === e.field)))];
  const resume = await readResume(submission.resume, submission.multipart);
  if (resume && "field" in resume) errors.push(resume);
  if (errors.length || !parsed.success) throw new ValidationError(errors);

  const file = resume && !("field" in resume) ? resume : null;
  const key = file ? `resumes/${crypto.randomUUID()}` : null;
  if (file && key) await env.RESUMES.put(key, file.bytes, { httpMetadata: { contentType: file.contentType } });
  const receivedAt = Date.now();
  try {
    const { id, events } = await insertApplication(db, {
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
    });
    return { receipt: { id, jobId: job.id, receivedAt: new Date(receivedAt).toISOString() }, events };
  } catch (error) {
    // The application was not stored: its résumé must not stay behind.
    if (key) await env.RESUMES.delete(key);
    throw error;
  }
}

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
    emailCopy: { status: row.emailStatus, attempts: row.emailAttempts, sentAt: row.emailSentAt === null ? null : new Date(row.emailSentAt).toISOString() },
  };
}

const NOT_FOUND = "You have no application with this id.";

export async function readApplication(db: Database, employerId: number, id: number) {
  const row = await findApplication(db, employerId, id);
  if (!row) throw new NotFoundError(NOT_FOUND);
  return row;
}

export async function applicationsOfJob(db: Database, employerId: number, jobId: number, page: number, pageSize: number) {
  const { rows, total } = await listApplications(db, employerId, jobId, page, pageSize);
  return { data: rows.map(toApplication), total };
}

export async function resumeOf(env: Env, db: Database, employerId: number, id: number) {
  const row = await readApplication(db, employerId, id);
  const object = row.resumeKey ? await env.RESUMES.get(row.resumeKey) : null;
  if (!object) throw new NotFoundError("This application has no résumé.");
  return { row, object };
}
