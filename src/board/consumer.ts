import { createDatabase } from "../db/client";
import type { EventNotice } from "../events/dispatch";
import { takeEvents } from "../events/receipts";
import { findEvents } from "../events/repository";
import { EMPLOYER_RENAMED } from "../events/types";
import type { Env } from "../env";
import { jobChangesOf } from "../jobs/event-data";
import { atShard } from "../shards/bindings";
import { createBoardDatabase } from "./database/client";
import { boardReceipts } from "./database/tables";
import { renameEmployer } from "./database/writes";
import { applyJobChanges } from "./feed";
import { applySuspensions } from "./suspensions";
import { repairJobs, type RepairNotice } from "./reconcile";

/** What the board queue carries: events to apply, or jobs the cron found to repair. */
export type BoardQueueBody = EventNotice | RepairNotice;

/**
 * The board queue's consumer (DESIGN 17): the events a batch names, read from the outbox of the
 * shard each notice names (DESIGN 22), become the board's changes, each recording its job's
 * shard; an employer's suspension or reinstatement (DESIGN 26) takes its jobs off or puts them
 * back. Should it fail, the queue delivers the batch again; applying is idempotent (revisions
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
    const changes = jobChangesOf(events).map((change) => ({ ...change, shard }));
    const renames = events
      .filter((event) => event.type === EMPLOYER_RENAMED)
      .flatMap((event) => renameEmployer(event.employerId, (JSON.parse(event.data) as { name: string }).name, event.occurredAt));
    // DESIGN 26: before the job changes, so that none of a suspended employer's is put back.
    const suspensions = events
      .filter((event) => event.type === "employer.suspended" || event.type === "employer.reinstated")
      .map((event) => ({ employerId: event.employerId, suspended: event.type === "employer.suspended", at: event.occurredAt }));
    await applySuspensions(board, shardEnv, suspensions, Date.now());
    // DESIGN 16a: the receipts of every event handed over, in the batch that ends the changes.
    const handedOver = bodies.flatMap((body) => ("events" in body ? body.events : []));
    const receipts = handedOver.length ? [takeEvents(boardReceipts, shard, handedOver, Date.now())] : [];
    await applyJobChanges(board, changes, "newer", Math.floor(Date.now() / 1000), [...renames, ...receipts]);
  }
  batchOfNotices.ackAll();
}
