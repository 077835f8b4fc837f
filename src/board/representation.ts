import { toJob } from "../jobs/representation";
import type { JobRow } from "../jobs/repository";
import { jobPostingLd, summaryOf } from "./rules";

// What job seekers see of a job (DESIGN 14): never its referenceId or applicationEmail (absent,
// not null), and no employer when the job is confidential.

const employerOf = (row: JobRow) => (row.confidential ? null : { id: row.employerId, name: row.employerName });

export function toBoardItem(row: JobRow, url: string) {
  const job = toJob(row);
  return {
    id: job.id,
    title: job.title,
    employer: employerOf(row),
    publishDate: job.publishDate,
    closeDate: job.closeDate,
    locations: job.locations,
    categories: job.categories,
    positionType: job.positionType,
    salary: job.salary,
    summary: summaryOf(job.description),
    url,
  };
}

export function toBoardJob(row: JobRow) {
  const { referenceId: _referenceId, applicationEmail: _applicationEmail, ...job } = toJob(row);
  const employer = employerOf(row);
  const routing = job.applicantRoutingType?.id;
  const apply = routing === 1 ? { method: "email" as const } : routing === 2 && job.applicationUrl ? { method: "url" as const, url: job.applicationUrl } : null;
  return { ...job, employer, apply, jsonLd: jobPostingLd(toJob(row), employer?.name ?? null) };
}
