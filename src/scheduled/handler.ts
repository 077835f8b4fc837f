import type { Env } from "../env";
import { pokeRelay } from "../events/dispatch";
import type { RecordedEvent } from "../events/outbox";
import { atShard, shardNumbers } from "../shards/bindings";
import { cronBounds, type Bounds } from "./chunks";
import { failureOf, runStages, type Stage, type StagesRun } from "./stages";

// DESIGN 16b: the cron's runner knows no capability. The entry hands it the stages each
// capability brings (src/index.ts), in the order they run.

/** What one shard's run gives each of its stages: the events its rules recorded, and one time budget for the shard. */
export interface ShardRun {
  recorded: RecordedEvent[];
  bounds: Bounds;
}

/** A stage of every shard's run, in the shard's own bindings (`env.DB` is the shard's). */
export interface ShardStage {
  name: string;
  run: (env: Env, now: Date, run: ShardRun) => Promise<Record<string, unknown>>;
}

/** Work that is not sharded (job alerts' own database): once a run, beside the shards', its own stages reported under `name`. */
export interface OnceStage {
  name: string;
  run: (env: Env, nowMs: number) => Promise<StagesRun>;
}

/** Not a Cron Trigger: a command invokes the scheduled handler under this name (`npm run board:rebuild`). */
export type NamedTask = (env: Env, shards: Env[], scheduledTime: number) => Promise<void>;

export interface CronPlan {
  /** Every shard's stages, in order: the rules and the notices record events, `EVENTS_STAGE` hands them over, upkeep follows. */
  shardStages: readonly ShardStage[];
  once: readonly OnceStage[];
  tasks: Readonly<Record<string, NamedTask>>;
}

/**
 * The events the rules and notices recorded (none of a chunk that failed: its batch stored
 * nothing), and any a request recorded whose poke was lost, go through the shard's relay (DESIGN
 * 22); the poke also starts again a relay whose alarm was lost.
 */
export const EVENTS_STAGE: ShardStage = {
  name: "events",
  run: async (env, _now, { recorded }) => {
    await pokeRelay(env);
    return { recorded: recorded.length };
  },
};

/**
 * The scheduled handler for this plan. A run: every shard at once (DESIGN 22), each stage by
 * stage, and the work that is not sharded beside them; then one JSON log line (visible in
 * `wrangler tail` and Workers Logs) with each shard's stages' outcomes. A failed stage does not
 * stop the ones after it, nor another shard's; once all ran, the invocation fails (rethrows) if
 * any failed, so that Cloudflare records it as failed.
 */
export function createScheduledHandler(plan: CronPlan) {
  return async function handleScheduled(controller: Pick<ScheduledController, "cron" | "scheduledTime">, env: Env): Promise<void> {
    const task = Object.hasOwn(plan.tasks, controller.cron) ? plan.tasks[controller.cron] : undefined;
    if (task) return task(env, shardNumbers(env).map((shard) => atShard(env, shard)), controller.scheduledTime);
    const started = Date.now();
    const now = new Date(controller.scheduledTime);
    const shards = shardNumbers(env);
    const [runs, once] = await Promise.all([
      Promise.all(shards.map((shard) => runShard(plan.shardStages, atShard(env, shard), now))),
      Promise.all(plan.once.map((stage) => stage.run(env, now.getTime()))),
    ]);
    const failed = runs.some((run) => run.errors.length > 0) || once.some((run) => run.errors.length > 0);
    const line = {
      event: "scheduled",
      cron: controller.cron,
      scheduledTime: now.toISOString(),
      outcome: failed ? "error" : "ok",
      shards: runs.map((run, i) => ({ shard: shards[i], stages: run.stages })),
      ...Object.fromEntries(plan.once.map((stage, i) => [stage.name, once[i].stages])),
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
        ...Object.assign({}, ...once.map((run) => run.stages)),
      },
      errors: [...runs.flatMap((run) => run.errors), ...once.flatMap((run) => run.errors)],
    });
  };
}

/** One shard's share of a run, within its own budget: each stage's rules take their chunks within what is left of it. */
function runShard(stages: readonly ShardStage[], env: Env, now: Date) {
  const run: ShardRun = { recorded: [], bounds: cronBounds() };
  return runStages(stages.map((stage): Stage => [stage.name, () => stage.run(env, now, run)]));
}
