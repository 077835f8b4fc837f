import { shardsOfBoardJobs, type JobHome } from "../board/pages";
import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { isShard, shardDatabase } from "../shards/bindings";
import { lockedEmployers } from "../shards/locks";
import { addViews } from "./repository";
import type { JobView } from "./views";

const whole = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0;

/** Shards followed from the one the board names, at most, for one view (a chain of moves). */
const MAX_FOLLOWS = 3;
/** DESIGN 22: views of an employer being moved are counted once it is done: sent again this much later. */
const WHILE_MOVING_DELAY_SECONDS = 30;

/**
 * Counts views in `shard`. DESIGN 22: those it does not count whose employer left the shard (the
 * board's row names the shard until the new shard's repair) are counted where it moved; those of
 * an employer being moved are sent again for later; the rest are of jobs deleted meanwhile.
 */
async function countViews(env: Env, shard: number, views: JobView[], homes: Map<number, JobHome>, follows = 0): Promise<void> {
  let uncounted: JobView[];
  try {
    uncounted = await addViews(createDatabase(shardDatabase(env, shard)), views);
  } catch (error) {
    // This shard's write stored nothing; the others' did. Its views go back on the queue alone,
    // so a retry counts no other shard's twice (should this send fail too, the whole batch is retried).
    console.error(JSON.stringify({ event: "views-requeued", shard, error: String(error) }));
    await env.VIEWS_QUEUE.send(views);
    return;
  }
  const employerOf = (view: JobView) => homes.get(view.jobId)?.employerId ?? null;
  const employers = [...new Set(uncounted.map(employerOf).filter((id): id is number => id !== null))];
  if (employers.length === 0) return;
  const locked = await lockedEmployers(shardDatabase(env, shard), employers);
  const later = uncounted.filter((view) => locked.get(employerOf(view)!) === null);
  if (later.length) await env.VIEWS_QUEUE.send(later, { delaySeconds: WHILE_MOVING_DELAY_SECONDS });
  const moved = Map.groupBy(
    uncounted.filter((view) => locked.get(employerOf(view)!) != null),
    (view) => locked.get(employerOf(view)!)!,
  );
  for (const [to, followed] of moved) if (follows < MAX_FOLLOWS && isShard(env, to)) await countViews(env, to, followed, homes, follows + 1);
}

/**
 * The views queue's consumer (DESIGN 21): a whole batch summed per job and day, one write per
 * shard, each job's views in the shard the board's row of the job names (DESIGN 22). A view of a
 * job that left the board in the seconds before its count arrived has no row to name a shard, and
 * is not counted (as a view of its 410 page is not).
 */
export async function consumeViewsBatch(batch: MessageBatch<JobView[]>, env: Env): Promise<void> {
  const summed = new Map<string, JobView>();
  for (const message of batch.messages) {
    for (const view of Array.isArray(message.body) ? message.body : []) {
      if (!whole(view?.jobId) || !whole(view.day) || !whole(view.views)) continue;
      const key = `${view.jobId}.${view.day}`;
      const seen = summed.get(key);
      if (seen) seen.views += view.views;
      else summed.set(key, { jobId: view.jobId, day: view.day, views: view.views });
    }
  }
  const views = [...summed.values()];
  const homes = await shardsOfBoardJobs(env, [...new Set(views.map((view) => view.jobId))]);
  const byShard = Map.groupBy(
    views.filter((view) => isShard(env, homes.get(view.jobId)?.shard ?? -1)),
    (view) => homes.get(view.jobId)!.shard,
  );
  for (const [shard, counted] of byShard) await countViews(env, shard, counted, homes);
  batch.ackAll();
}
