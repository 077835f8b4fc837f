import type { EventSubscriber } from "../events/dispatch";
import { EMPLOYER_RENAMED, JOB_EVENT_TYPES } from "../events/types";

const shown = new Set<string>([...JOB_EVENT_TYPES, EMPLOYER_RENAMED]);

/** The board reacts to every change of what it shows (DESIGN 17), on a queue of its own. */
export const boardSubscriber: EventSubscriber = {
  name: "board",
  queue: (env) => env.BOARD_QUEUE,
  accepts: (type) => shown.has(type),
};
