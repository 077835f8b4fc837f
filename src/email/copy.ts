// DESIGN 15: the copy of an application emailed to the job's applicationEmail, written for the
// person who reads it. Every value that reaches a header is one line with no control character
// (DESIGN 6b): nothing an applicant or an employer wrote can add a header or a recipient.

export interface ApplicationCopy {
  job: { id: number; title: string | null };
  application: { id: number; name: string; email: string; phone: string | null; coverLetter: string | null; receivedAt: number };
  resume: { filename: string; contentType: string; content: ArrayBuffer } | null;
}

/** One line for a header: control characters (CR and LF included) become spaces, runs of space one. */
export function headerValue(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]+/gu, " ").replace(/ {2,}/g, " ").trim();
}

/** The cover letter inside the body only, every line quoted, so no line of it reads as ours. */
export function quoted(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map((line) => `> ${line.replace(/[\p{Cc}]/gu, (ch) => (ch === "\t" ? ch : ""))}`);
}

export function composeCopy(copy: ApplicationCopy, from: string, to: string) {
  const { job, application, resume } = copy;
  const title = headerValue(job.title ?? "") || "your job posting";
  const name = headerValue(application.name);
  const lines = [
    `A new application for "${title}" (job ${job.id}) arrived on ${new Date(application.receivedAt).toUTCString()}.`,
    "",
    `Name:  ${name}`,
    `Email: ${headerValue(application.email)}`,
    ...(application.phone ? [`Phone: ${headerValue(application.phone)}`] : []),
    "",
    application.coverLetter ? "Cover letter, as the applicant wrote it:" : "No cover letter was sent.",
    ...(application.coverLetter ? ["", ...quoted(application.coverLetter)] : []),
    "",
    resume ? `The résumé is attached (${headerValue(resume.filename)}).` : "No résumé was attached.",
    "",
    `Application ${application.id}; read it with GET /api/v1.1/applications/${application.id}.`,
  ];
  return {
    from: headerValue(from),
    to: headerValue(to),
    replyTo: headerValue(application.email),
    subject: `New application: ${title} (job ${job.id}) from ${name}`,
    text: lines.join("\n"),
    ...(resume
      ? { attachments: [{ disposition: "attachment" as const, filename: headerValue(resume.filename), type: headerValue(resume.contentType), content: resume.content }] }
      : {}),
  };
}
