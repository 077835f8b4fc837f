import { etagOf } from "./etag";
import { parseJobSnapshot, type JobRow } from "./repository";
import { toJob } from "./representation";

/**
 * The jobs capability's public rendering of its events' data (DESIGN 13, 13a), for whoever
 * delivers them: a job event's recorded data holds the job's row as the change left it,
 * rendered by the one representation with its ETag and revision (and `expiresAt` for
 * job.expiring); `job.deleted` names only
 * what the job was, and is sent as recorded.
 */
export function renderJobEventData(type: string, recorded: string): unknown {
  const parsed = JSON.parse(recorded) as { job?: Record<string, unknown> };
  if (!parsed.job || type === "job.deleted") return parsed;
  const row = parseJobSnapshot(JSON.stringify(parsed.job));
  const job = toJob(row);
  // DESIGN 21a: job.expiring says when, as its own member.
  return { job, etag: etagOf(row), revision: row.revision, ...(type === "job.expiring" ? { expiresAt: job.closeDate } : {}) };
}

/** The job as a job event's change left it, or null for `job.deleted` (which names only its id). */
export function jobOfEvent(type: string, recorded: string): JobRow | null {
  const parsed = JSON.parse(recorded) as { job?: Record<string, unknown> };
  if (!parsed.job || type === "job.deleted") return null;
  return parseJobSnapshot(JSON.stringify(parsed.job));
}
