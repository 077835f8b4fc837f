import type { ApplicantEmailKind } from "../email/applicant";
import type { Answer } from "../screening";
import { decisionDueAt } from "./pipeline";
import type { ApplicationRecord, ApplicationRow } from "./repository";

// An application as the employer's API shows it (DESIGN 15, 20), and as its events tell it.

type EmailStatus = "pending" | "sent" | "failed";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The application's ETag (DESIGN 20: the rules of section 11). */
export const applicationEtag = (row: Pick<ApplicationRecord, "id" | "revision">) => `"${row.id}.${row.revision}"`;

export function toApplication(row: ApplicationRow) {
  return {
    id: row.id,
    jobId: row.jobId,
    // DESIGN 26a: erased on the applicant's request (an event's row, made before the column, has none).
    name: row.erasedAt ? null : row.name,
    email: row.erasedAt ? null : row.email,
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

/** What an event tells of an application: its answer without the state of emails. */
export const eventApplication = (row: ApplicationRow | ApplicationRecord) => {
  const { emailCopy: _copy, applicantEmails: _emails, ...application } = toApplication({ applicantEmails: "[]", moves: 0, ...row });
  return application;
};

