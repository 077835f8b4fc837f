import { etagOf } from "./etag";
import { parseJobSnapshot, type JobRow } from "./repository";
import { toJob } from "./representation";

/**
 * The jobs capability's public rendering of its events' data (DESIGN 13, 13a), for whoever
 * delivers them: a job event's recorded data holds the job's row as the change left it,
 * rendered by the one representation with its ETag and revision (and `expiresAt` for
 * job.expiring, `moderation` for job.removed and job.restored), and who made it (`actor`);
 * `job.deleted` names only what the job was and who deleted it, and is sent as recorded.
 */
export function renderJobEventData(type: string, recorded: string): unknown {
  const parsed = JSON.parse(recorded) as { job?: Record<string, unknown>; actor?: unknown; moderation?: unknown };
  if (!parsed.job || type === "job.deleted") return parsed;
  const row = parseJobSnapshot(JSON.stringify(parsed.job));
  const job = toJob(row);
  // DESIGN 21a: job.expiring says when, as its own member; DESIGN 25: who made the change (events
  // recorded before it name no one); DESIGN 26a: job.removed and job.restored say what the operator did.
  return {
    job,
    etag: etagOf(row),
    revision: row.revision,
    ...(type === "job.expiring" ? { expiresAt: job.closeDate } : {}),
    ...(parsed.actor ? { actor: parsed.actor } : {}),
    ...(parsed.moderation ? { moderation: parsed.moderation } : {}),
  };
}

/** The job as a job event's change left it, or null for `job.deleted` (which names only its id). */
export function jobOfEvent(type: string, recorded: string): JobRow | null {
  const parsed = JSON.parse(recorded) as { job?: Record<string, unknown> };
  if (!parsed.job || type === "job.deleted") return null;
  return parseJobSnapshot(JSON.stringify(parsed.job));
}

/** A job as one of its events left it (`row` null: deleted). */
export interface JobChangeOfEvent {
  jobId: number;
  revision: number;
  row: JobRow | null;
}

/** The job changes of these events (job events only), as jobOfEvent reads them. */
export function jobChangesOf(events: { type: string; subjectId: number; revision: number | null; data: string }[]): JobChangeOfEvent[] {
  return events.filter((event) => event.type.startsWith("job.")).map((event) => ({ jobId: event.subjectId, revision: event.revision ?? 0, row: jobOfEvent(event.type, event.data) }));
}

/** The newest change of each job (a deletion is the newest there can be), whatever order they came in. */
export function newestPerJob<T extends JobChangeOfEvent>(changes: T[]): T[] {
  const newest = new Map<number, T>();
  for (const change of changes) {
    const seen = newest.get(change.jobId);
    if (!seen || (seen.row !== null && (change.row === null || change.revision > seen.revision))) newest.set(change.jobId, change);
  }
  return [...newest.values()];
}
