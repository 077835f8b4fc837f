// DESIGN 15: the copy of an application emailed to the job's applicationEmail, written for the
// person who reads it.

export interface ApplicationCopy {
  job: { id: number; title: string | null };
  application: { id: number; name: string; email: string; phone: string | null; coverLetter: string | null; receivedAt: number };
  resume: { filename: string; contentType: string; content: ArrayBuffer } | null;
}

export function composeCopy(copy: ApplicationCopy, from: string, to: string) {
  const { job, application, resume } = copy;
  const title = job.title ?? "your job posting";
  const lines = [
    `A new application for "${title}" (job ${job.id}) arrived on ${new Date(application.receivedAt).toUTCString()}.`,
    "",
    `Name:  ${application.name}`,
    `Email: ${application.email}`,
    ...(application.phone ? [`Phone: ${application.phone}`] : []),
    "",
    application.coverLetter ? "Cover letter:" : "No cover letter was sent.",
    ...(application.coverLetter ? ["", application.coverLetter] : []),
    "",
    resume ? `The résumé is attached (${resume.filename}).` : "No résumé was attached.",
    "",
    `Application ${application.id}; read it with GET /api/v1.1/applications/${application.id}.`,
  ];
  return {
    from,
    to,
    replyTo: application.email,
    subject: `New application: ${title} (job ${job.id}) from ${application.name}`,
    text: lines.join("\n"),
    ...(resume ? { attachments: [{ disposition: "attachment" as const, filename: resume.filename, type: resume.contentType, content: resume.content }] } : {}),
  };
}
