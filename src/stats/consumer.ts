import { shardsOfBoardJobs } from "../board/pages";
import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { isShard, shardDatabase } from "../shards/bindings";
import { addViews } from "./repository";
import type { JobView } from "./views";

const whole = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0;

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
  const shards = await shardsOfBoardJobs(env, [...new Set(views.map((view) => view.jobId))]);
  const byShard = Map.groupBy(
    views.filter((view) => isShard(env, shards.get(view.jobId) ?? -1)),
    (view) => shards.get(view.jobId)!,
  );
  for (const [shard, counted] of byShard) {
    try {
      await addViews(createDatabase(shardDatabase(env, shard)), counted);
    } catch (error) {
      // This shard's write stored nothing; the others' did. Its views go back on the queue alone,
      // so a retry counts no other shard's twice (should this send fail too, the whole batch is retried).
      console.error(JSON.stringify({ event: "views-requeued", shard, error: String(error) }));
      await env.VIEWS_QUEUE.send(counted);
    }
  }
  batch.ackAll();
}
