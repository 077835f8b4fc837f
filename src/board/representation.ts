import type { JobRow } from "../jobs/repository";
import { toJob } from "../jobs/representation";
import type { BoardRow } from "./database/reads";
import { jobPostingLd } from "./rules";

// What job seekers see of a job (DESIGN 14): never its referenceId or applicationEmail (absent,
// not null), and no employer when the job is confidential. The board keeps the public job
// (src/board/projection.ts); the employer's name is the board's own, current one.

const jobOf = (row: BoardRow): JobRow => ({ ...(JSON.parse(row.job) as JobRow), employerName: row.employerName });

const employerOf = (job: JobRow) => (job.confidential ? null : { id: job.employerId, name: job.employerName });

export function toBoardItem(row: BoardRow & { distanceKm?: number }, urlOf: (id: number) => string) {
  const stored = jobOf(row);
  const job = toJob(stored);
  return {
    id: job.id,
    title: job.title,
    employer: employerOf(stored),
    publishDate: job.publishDate,
    closeDate: job.closeDate,
    locations: job.locations,
    categories: job.categories,
    positionType: job.positionType,
    salary: job.salary,
    summary: row.summary,
    url: urlOf(job.id),
    ...(row.distanceKm !== undefined ? { distanceKm: row.distanceKm } : {}),
  };
}

export function toBoardJob(row: BoardRow) {
  const stored = jobOf(row);
  const { referenceId: _referenceId, applicationEmail: _applicationEmail, ...job } = toJob(stored);
  const employer = employerOf(stored);
  const routing = job.applicantRoutingType?.id;
  const apply = routing === 1 ? { method: "email" as const } : routing === 2 && job.applicationUrl ? { method: "url" as const, url: job.applicationUrl } : null;
  return { ...job, employer, apply, jsonLd: jobPostingLd(toJob(stored), employer?.name ?? null) };
}
