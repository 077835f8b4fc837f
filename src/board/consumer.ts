import { createDatabase } from "../db/client";
import type { EventNotice } from "../events/dispatch";
import { findEvents } from "../events/repository";
import { EMPLOYER_RENAMED } from "../events/types";
import type { Env } from "../env";
import { jobOfEvent } from "../jobs/event-data";
import { atShard } from "../shards/bindings";
import { batch, createBoardDatabase } from "./database/client";
import { renameEmployer } from "./database/writes";
import { applyJobChanges } from "./feed";
import { repairJobs, type RepairNotice } from "./reconcile";

/** What the board queue carries: events to apply, or jobs the cron found to repair. */
export type BoardQueueBody = EventNotice | RepairNotice;

/**
 * The board queue's consumer (DESIGN 17): the events a batch names, read from the outbox of the
 * shard each notice names (DESIGN 22), become the board's changes, each recording its job's
 * shard. Should it fail, the queue delivers the batch again; applying is idempotent (revisions
 * guard every write), and what is never applied the cron repairs.
 */
export async function consumeBoardBatch(batchOfNotices: MessageBatch<BoardQueueBody>, env: Env): Promise<void> {
  const byShard = Map.groupBy(
    batchOfNotices.messages.map((message) => message.body),
    (body) => body.shard ?? 0,
  );
  const board = createBoardDatabase(env.BOARD_DB);
  for (const [shard, bodies] of byShard) {
    const shardEnv = atShard(env, shard);
    const repairs = bodies.flatMap((body) => ("repair" in body ? body.repair : []));
    if (repairs.length) await repairJobs(shardEnv, repairs, Date.now());
    const events = await findEvents(createDatabase(shardEnv.DB), bodies.flatMap((body) => ("events" in body ? body.events : [])));
    const changes = events
      .filter((event) => event.type.startsWith("job."))
      .map((event) => ({ jobId: event.subjectId, revision: event.revision ?? 0, row: jobOfEvent(event.type, event.data), shard }));
    await applyJobChanges(board, changes, "newer", Math.floor(Date.now() / 1000));
    for (const event of events.filter((e) => e.type === EMPLOYER_RENAMED)) {
      const { name } = JSON.parse(event.data) as { name: string };
      await batch(board, renameEmployer(event.employerId, name, event.occurredAt));
    }
  }
  batchOfNotices.ackAll();
}
