import type { SQL } from "drizzle-orm";
import { newestPerJob } from "../jobs/event-data";
import type { JobRow } from "../jobs/repository";
import { batch, type BoardDatabase } from "./database/client";
import { loadGazetteer } from "./database/places";
import { putJob, recordEmployers, recordRevisions, removeJob, type Freshness } from "./database/writes";
import { isOnBoard, projectJob } from "./projection";

// DESIGN 17: how a job's change reaches the board, for the queue consumer and the cron's repair alike.

/** A job as a change left it: `row` null when the job was deleted; `shard` the employer side's shard it came from (DESIGN 22). */
export interface JobChange {
  jobId: number;
  revision: number;
  row: JobRow | null;
  shard: number;
}

/**
 * Changes per D1 batch: with the employers' and the revisions' statements, about 200 statements.
 * A queue invocation takes at most 80 messages of at most 10 changes (wrangler.toml,
 * src/board/subscriber.ts), so at most 800: within D1's 1 000 queries per invocation.
 */
const CHANGES_PER_BATCH = 200;

/**
 * Applies each job's newest change: on the board when its job is active and not past its
 * closeDate, off it otherwise. `freshness` says which changes the board takes (writes.ts).
 * `alongside` (the consumer's renames and receipts) goes in the last batch, after every change.
 */
export async function applyJobChanges(db: BoardDatabase, changes: JobChange[], freshness: Freshness, nowSeconds: number, alongside: SQL[] = []): Promise<void> {
  const newest = newestPerJob(changes);
  if (newest.length === 0) {
    await batch(db, alongside);
    return;
  }
  const gazetteer = await loadGazetteer(db);
  for (let i = 0; i < newest.length; i += CHANGES_PER_BATCH) {
    const chunk = newest.slice(i, i + CHANGES_PER_BATCH);
    const entries = chunk.map((change) => (change.row && isOnBoard(change.row, nowSeconds) ? projectJob(change.row, gazetteer) : null));
    const employers = new Map(entries.flatMap((entry) => (entry ? [[entry.employerId, entry.employerName] as const] : [])));
    await batch(db, [
      recordEmployers([...employers].map(([id, name]) => ({ id, name }))),
      ...chunk.map((change, j) => {
        const entry = entries[j];
        return entry ? putJob(entry, freshness, change.shard) : removeJob(change.jobId, change.revision, freshness, change.row === null);
      }),
      recordRevisions(chunk.map((change, j) => ({ jobId: change.jobId, revision: change.revision, deleted: change.row === null, listed: entries[j] !== null, shard: change.shard }))),
      ...(i + CHANGES_PER_BATCH >= newest.length ? alongside : []),
    ]);
  }
}
