import type { Env } from "../env";
import { expireApplications, purgeDeletedResumes } from "../applications/retention";
import { sweepEmailCopies } from "../applications/copies";
import { emitDueDecisionNotices } from "../applications/service";
import { pokeRelay } from "../events/dispatch";
import type { RecordedEvent } from "../events/outbox";
import { maintainWebhooks } from "../webhooks/maintenance";
import { runScheduledJobs } from "../jobs/scheduled-rules";
import { mergeSearchIndex } from "../jobs/search-index";
import { rebuildBoard, repairBoard } from "../board/reconcile";
import { runAlertsUpkeep } from "../alerts/scheduled";
import { atShard, shardNumbers } from "../shards/bindings";
import { cronBounds } from "./chunks";
import { failureOf, runStages } from "./stages";

/**
 * Runs the scheduled work for one Cron Trigger invocation: every shard at once (DESIGN 22), each
 * stage by stage, and writes one JSON log line (visible in `wrangler tail` and Workers Logs) with
 * each shard's stages' outcomes. A failed stage does not stop the ones after it, nor another
 * shard's; once all ran, the invocation fails (rethrows) if any failed, so that Cloudflare
 * records it as failed.
 */
export async function handleScheduled(controller: Pick<ScheduledController, "cron" | "scheduledTime">, env: Env): Promise<void> {
  if (controller.cron === BOARD_REBUILD) return rebuild(env, controller.scheduledTime);
  const started = Date.now();
  const now = new Date(controller.scheduledTime);
  const shards = shardNumbers(env);
  // Job alerts (DESIGN 23) are not sharded: their upkeep runs once, beside the shards'.
  const [runs, alerts] = await Promise.all([Promise.all(shards.map((shard) => runShard(atShard(env, shard), now))), runAlertsUpkeep(env, now.getTime())]);
  const failed = runs.some((run) => run.errors.length > 0) || alerts.errors.length > 0;
  const line = {
    event: "scheduled",
    cron: controller.cron,
    scheduledTime: now.toISOString(),
    outcome: failed ? "error" : "ok",
    shards: runs.map((run, i) => ({ shard: shards[i], stages: run.stages })),
    alerts: alerts.stages,
    durationMs: Date.now() - started,
  };
  if (!failed) {
    console.log(JSON.stringify(line));
    return;
  }
  console.error(JSON.stringify(line));
  throw failureOf({
    stages: {
      ...Object.fromEntries(runs.flatMap((run, i) => Object.entries(run.stages).map(([name, stage]) => [`shard ${shards[i]} ${name}`, stage]))),
      ...alerts.stages,
    },
    errors: [...runs.flatMap((run) => run.errors), ...alerts.errors],
  });
}

/** One shard's share of a run, in its own bindings (`env.DB` is the shard's), within its own budget. */
function runShard(env: Env, now: Date) {
  // One budget for the shard's run: each stage's rules take their chunks within what is left of it.
  const bounds = cronBounds();
  const recorded: RecordedEvent[] = [];
  return runStages([
    ["rules", async () => ({ rules: await runScheduledJobs(env, now, recorded, bounds) })],
    // DESIGN 20: interviewed applicants still waiting, 7 days before their decision is due.
    ["decisionNotices", async () => ({ rules: await emitDueDecisionNotices(env, now.getTime(), recorded, bounds) })],
    // The rules' and notices' events (none of a chunk that failed: its batch stored nothing), and
    // any a request recorded whose poke was lost, go through the shard's relay (DESIGN 22); the
    // poke also starts again a relay whose alarm was lost.
    [
      "events",
      async () => {
        await pokeRelay(env);
        return { recorded: recorded.length };
      },
    ],
    // After the events: what they could not bring to the board, this repairs (DESIGN 17).
    ["board", async () => ({ ...(await repairBoard(env, now.getTime())) })],
    ["webhooks", () => maintainWebhooks(env, now.getTime(), bounds)],
    // Before the purge, so that the résumés of applications expired now go in the same run.
    ["retention", async () => ({ rules: await expireApplications(env, now.getTime(), bounds) })],
    ["resumes", async () => ({ deleted: await purgeDeletedResumes(env) })],
    ["emailCopies", async () => ({ requeued: await sweepEmailCopies(env, now.getTime()) })],
    // Last: the list's search index, whose entries the rules moved, merged a bounded statement at
    // a time within its own budget (src/jobs/search-index.ts); what a run leaves, the next goes on with.
    ["searchMerge", async () => ({ ...(await mergeSearchIndex(env)) })],
  ]);
}

/**
 * Not a Cron Trigger: `npm run board:rebuild` invokes the scheduled handler with this name to
 * rebuild the board from scratch (scripts/board-rebuild.mjs).
 */
export const BOARD_REBUILD = "board:rebuild";

async function rebuild(env: Env, scheduledTime: number): Promise<void> {
  const started = Date.now();
  const outcome = await rebuildBoard(env, shardNumbers(env).map((shard) => atShard(env, shard)), scheduledTime);
  console.log(JSON.stringify({ event: "board-rebuild", ...outcome, durationMs: Date.now() - started }));
}
