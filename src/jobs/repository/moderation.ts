import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { guard } from "../../db/guards";
import { jsonRows } from "../../db/lists";
import { formatDate } from "../dates";
import { moderationEventStatement } from "./event-sources";
import { all, writeBatch } from "./statements";
import type { JobRow } from "./rows";

// DESIGN 26a: the operator's acts on a job, whoever posted it: a removal archives it and records
// why, a restoration clears that (the job stays archived), each with its event, in one batch.

/** A job as the operator's acts read it, with whether its employer lives in this shard. */
export type ModeratedJob = Pick<JobRow, "id" | "employerId" | "employerName" | "title" | "status" | "revision" | "moderationStatus"> & {
  /** DESIGN 22: the employer moved away: this shard's row is a stale copy (the move deletes it). */
  movedTo: number | null;
};

/** These jobs of this shard, by id (a job gone is left out). */
export function findModeratedJobs(db: Database, jobIds: readonly number[]): Promise<ModeratedJob[]> {
  if (jobIds.length === 0) return Promise.resolve([]);
  return all<ModeratedJob>(
    db,
    sql`SELECT j.id, j.employer_id AS employerId, e.name AS employerName, j.title, j.status, j.revision, j.moderation_status AS moderationStatus,
        e.moved_to AS movedTo
      FROM jobs j JOIN employers e ON e.id = j.employer_id WHERE j.id IN (SELECT value FROM ${jsonRows([...jobIds])})`,
  );
}

/** What the act does: removed (archived, with why and when, s), or restored (publishable again, still archived). */
export type ModerationChange = { removed: { reason: string; at: number } } | { restored: { at: number } };

/**
 * One atomic batch, only at the revision read (else RevisionMismatch): the job changed (revision
 * + 1), its event, and `alongside` (its reports resolved).
 */
export async function moderateJob(
  db: Database,
  read: Pick<ModeratedJob, "id" | "employerId" | "revision">,
  change: ModerationChange,
  occurredAt: number,
  alongside: SQL[],
): Promise<void> {
  const now = Math.floor(occurredAt / 1000);
  const which = sql`id = ${read.id} AND employer_id = ${read.employerId} AND revision = ${read.revision}`;
  const [set, type, moderation] =
    "removed" in change
      ? [
          sql`status = 'archived', moderation_status = 'removed', moderation_reason = ${change.removed.reason}, moderation_at = ${change.removed.at}`,
          "job.removed" as const,
          { status: "removed", reason: change.removed.reason, at: formatDate(change.removed.at) },
        ]
      : [
          sql`moderation_status = NULL, moderation_reason = NULL, moderation_at = NULL`,
          "job.restored" as const,
          { status: "restored", at: formatDate(change.restored.at) },
        ];
  await writeBatch(
    db,
    [
      guard(sql`EXISTS (SELECT 1 FROM jobs WHERE ${which})`, "revision"),
      sql`UPDATE jobs SET ${set}, revision = revision + 1, updated_at = max(updated_at, ${now}) WHERE ${which}`,
      moderationEventStatement(read.employerId, read.id, type, occurredAt, moderation),
      ...alongside,
    ],
  );
}
