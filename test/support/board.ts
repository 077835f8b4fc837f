import { env } from "cloudflare:workers";
import { repairAtOnce, repairBoard } from "../../src/board/reconcile";
import { atShard } from "../../src/shards/bindings";

/** Per shard (DESIGN 22: DB, DB_1), the newest event settled so far. */
const settledUpTo = [0, 0];

/**
 * The board is fed by a queue (DESIGN 17): a write reaches it about a second later. Waits until
 * the board's consumer has taken the newest revision of every job that recorded an event (the
 * real queue and consumer do the work), then runs the cron's repair once, which also catches
 * what a test changed in DB by hand. Fails after `timeoutMs`.
 */
export async function settleBoard(timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const [shard, db] of [env.DB, env.DB_1!].entries()) {
    const { upTo } = (await db.prepare("SELECT coalesce(max(seq), 0) AS upTo FROM events").first<{ upTo: number }>())!;
    for (;;) {
      // Only the events since the last settle: a test may wipe the board's revisions on purpose.
      const { results: expected } = await db
        .prepare(
          "SELECT subject_id AS id, max(revision) AS revision, max(type = 'job.deleted') AS deleted FROM events WHERE type LIKE 'job.%' AND seq > ? AND seq <= ? GROUP BY subject_id",
        )
        .bind(settledUpTo[shard], upTo)
        .all<{ id: number; revision: number; deleted: number }>();
      const { results: seen } = await env.BOARD_DB.prepare("SELECT job_id AS id, revision, deleted FROM board_revisions").all<{ id: number; revision: number; deleted: number }>();
      const applied = new Map(seen.map((row) => [row.id, row]));
      const waiting = expected.filter((job) => {
        const board = applied.get(job.id);
        return !board || board.revision < job.revision || board.deleted < job.deleted;
      });
      if (waiting.length === 0) break;
      if (Date.now() > deadline) throw new Error(`the board did not take ${waiting.length} job change(s) of shard ${shard} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    settledUpTo[shard] = upTo;
    const shardEnv = atShard(env, shard);
    await repairBoard(shardEnv, Date.now(), { inFlightSeconds: 0, repair: repairAtOnce(shardEnv, Date.now()) });
  }
}

/** Retries `check` until it passes (the board queue repairs what the cron found), or rethrows after `timeoutMs`. */
export async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
