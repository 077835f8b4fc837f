import type { Capability } from "../capability";
import { consumeBoardBatch } from "./consumer";
import { consumeBoardDeadLetters } from "./dead-letters";
import { BOARD_REBUILD, rebuildBoard, repairBoard } from "./reconcile";
import { boardSubscriber } from "./subscriber";

/** The board (DESIGN 17): its read model fed by events, repaired by the cron, rebuilt on command. */
export const boardCapability = {
  queues: { "job-posting-board": { consume: consumeBoardBatch, deadLetters: consumeBoardDeadLetters } },
  subscriber: boardSubscriber,
  cron: {
    // After the events: what they could not bring to the board, this repairs.
    shard: { repair: { name: "board", run: async (env, now) => ({ ...(await repairBoard(env, now.getTime())) }) } },
    tasks: {
      [BOARD_REBUILD]: async (env, shards, scheduledTime) => {
        const started = Date.now();
        const outcome = await rebuildBoard(env, shards, scheduledTime);
        console.log(JSON.stringify({ event: "board-rebuild", ...outcome, durationMs: Date.now() - started }));
      },
    },
  },
} satisfies Capability;
