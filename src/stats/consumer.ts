import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { addViews } from "./repository";
import type { JobView } from "./views";

const whole = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0;

/** The views queue's consumer (DESIGN 21): a whole batch summed per job and day, one write. */
export async function consumeViewsBatch(batch: MessageBatch<JobView[]>, env: Pick<Env, "DB">): Promise<void> {
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
  // A failure throws: the queue retries the whole batch, and nothing was written.
  await addViews(createDatabase(env.DB), [...summed.values()]);
  batch.ackAll();
}
