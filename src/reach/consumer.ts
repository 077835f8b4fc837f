import { createDatabase } from "../db/client";
import type { EventNotice } from "../events/dispatch";
import { findEvents } from "../events/repository";
import type { Env } from "../env";
import { jobChangesOf, newestPerJob, type JobChangeOfEvent } from "../jobs/event-data";
import { atShard } from "../shards/bindings";
import { notifierOf } from "./notifier";
import { pageOf, type PageChange } from "./rules";

/** SHA-256 of what a search engine shows, in base64: compared, never read. */
async function digestOf(facts: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(facts)));
  return btoa(String.fromCharCode(...hash));
}

/**
 * The reach queue's consumer (DESIGN 24). The events a batch names, read through the events
 * capability from the outbox of the shard each notice names (read only), become each job's
 * newest page, handed to the notifier in one call with the receipts of every event named (those
 * reach has no use for included: taken, DESIGN 16a). Should it fail, the queue delivers the
 * batch again; the notifier ignores what it already has (revisions guard every page).
 */
export async function consumeReachBatch(batch: MessageBatch<EventNotice>, env: Env): Promise<void> {
  const now = Date.now();
  const found: JobChangeOfEvent[] = [];
  const receipts: { shard: number; ids: string[] }[] = [];
  for (const [shard, group] of Map.groupBy(batch.messages, (message) => message.body.shard ?? 0)) {
    const ids = group.flatMap((message) => message.body.events);
    receipts.push({ shard, ids });
    found.push(...jobChangesOf(await findEvents(createDatabase(atShard(env, shard).DB), ids)));
  }
  const changes: PageChange[] = await Promise.all(
    newestPerJob(found).map(async ({ jobId, revision, row }) => {
      const { facts, ...page } = pageOf(jobId, revision, row, Math.floor(now / 1000));
      return { ...page, digest: facts === null ? null : await digestOf(facts) };
    }),
  );
  await notifierOf(env).gather({ changes, receipts, now });
  batch.ackAll();
}
