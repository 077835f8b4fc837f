import { etagOf } from "../jobs/etag";
import { parseJobSnapshot } from "../jobs/repository";
import { toJob } from "../jobs/representation";

/**
 * The payload a receiver gets (DESIGN 13, 13a): `{ type, timestamp, data }`. A job event's
 * stored data holds the job's row as the change left it; it is rendered here by the one
 * representation, with its ETag and revision. Other data is sent as stored.
 */
export function renderPayload(type: string, occurredAt: number, data: string): string {
  const parsed = JSON.parse(data) as { job?: Record<string, unknown> };
  const job = parsed.job;
  const rendered =
    job && type.startsWith("job.") && type !== "job.deleted"
      ? (() => {
          const row = parseJobSnapshot(JSON.stringify(job));
          return { job: toJob(row), etag: etagOf(row), revision: row.revision };
        })()
      : parsed;
  return JSON.stringify({ type, timestamp: new Date(occurredAt).toISOString(), data: rendered });
}
