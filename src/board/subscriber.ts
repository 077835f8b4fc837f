import type { EventSubscriber } from "../events/dispatch";
import { takenAmong } from "../events/receipts";
import { all, createBoardDatabase } from "./database/client";
import { boardReceipts } from "./database/tables";
import { EMPLOYER_EVENT_TYPES, EMPLOYER_RENAMED, JOB_EVENT_TYPES } from "../events/types";

// job.expiring changes no job: nothing for the board to show. DESIGN 26: a suspension takes every
// job of its employer off the board, a reinstatement puts them back.
const shown = new Set<string>([...JOB_EVENT_TYPES.filter((type) => type !== "job.expiring"), EMPLOYER_RENAMED, ...EMPLOYER_EVENT_TYPES]);

/**
 * At most this many events (or jobs to repair) per message of the board queue. A request's
 * change is one or two events, so a consumer invocation takes many of them at once (80 messages,
 * wrangler.toml), and the cron's thousands still make at most 800 changes per invocation:
 * within D1's 1 000 queries per invocation.
 */
export const BOARD_CHANGES_PER_MESSAGE = 10;

/** The board reacts to every change of what it shows (DESIGN 17), on a queue of its own. */
export const boardSubscriber: EventSubscriber = {
  name: "board",
  queue: (env) => env.BOARD_QUEUE,
  accepts: (type) => shown.has(type),
  eventsPerNotice: BOARD_CHANGES_PER_MESSAGE,
  taken: async (env, shard, ids) => (await all<{ id: string }>(createBoardDatabase(env.BOARD_DB), takenAmong(boardReceipts, shard, ids))).map((row) => row.id),
};
