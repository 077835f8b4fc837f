import { withLaterMembers, type JobRow } from "../jobs/repository";
import { toJob } from "../jobs/representation";
import type { BoardJobRow } from "./database/reads";
import type { FoundRow } from "./search";
import { jobPostingLd } from "./rules";
import { withoutKnockout } from "../screening";

// What job seekers see of a job (DESIGN 14): never its referenceId or applicationEmail (absent,
// not null), and no employer when the job is confidential. The board keeps the public job and
// its list item (src/board/projection.ts); the employer's name is the board's own, current one.

/** A list item's JSON text: the stored item with its employer, url and distance put in. */
export function boardItemJson(row: FoundRow, url: string): string {
  const [head, tail] = row.item.split("\u0000");
  const employer = row.confidential ? "null" : JSON.stringify({ id: row.employerId, name: row.employerName });
  const distance = row.distanceKm === undefined ? "" : `,"distanceKm":${row.distanceKm}`;
  return `${head},"employer":${employer},${tail},"url":${JSON.stringify(url)}${distance}}`;
}

export function toBoardJob(row: BoardJobRow) {
  const stored: JobRow = { ...withLaterMembers(JSON.parse(row.job) as JobRow), employerName: row.employerName };
  const { referenceId: _referenceId, applicationEmail: _applicationEmail, postingRules: _postingRules, ...job } = toJob(stored);
  const employer = stored.confidential ? null : { id: stored.employerId, name: stored.employerName };
  const routing = job.applicantRoutingType?.id;
  const apply = routing === 1 ? { method: "email" as const } : routing === 2 && job.applicationUrl ? { method: "url" as const, url: job.applicationUrl } : null;
  return { ...job, questions: job.questions.map(withoutKnockout), employer, apply, jsonLd: jobPostingLd(toJob(stored), employer?.name ?? null) };
}
