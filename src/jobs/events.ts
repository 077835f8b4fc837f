import type { JobEventType } from "../events/types";
import type { JobState } from "./rules";

// DESIGN 13 and 13a: which events a change of a job emits. Pure: the write paths record what
// this says in the same atomic batch as the change.

/**
 * A request's write: a creation is `job.created` (and `job.published` when created active); a
 * change is `job.updated`, plus `job.published` when the job entered active (re-publish
 * included) and `job.archived` when it was archived. No change, no event.
 */
export function eventsOfWrite(before: JobState | null, after: JobState, changed: boolean): JobEventType[] {
  if (!before) return after.status === "active" ? ["job.created", "job.published"] : ["job.created"];
  if (!changed) return [];
  const types: JobEventType[] = ["job.updated"];
  if (after.status !== before.status && after.status === "active") types.push("job.published");
  if (after.status !== before.status && after.status === "archived") types.push("job.archived");
  return types;
}
