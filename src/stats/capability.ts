import type { Capability } from "../capability";
import { consumeViewsBatch } from "./consumer";

/** Per-job numbers (DESIGN 21): views counted from their queue. A dead letter is counted again: its own retries cover a longer outage. */
export const statsCapability = {
  queues: { "job-posting-views": { consume: consumeViewsBatch, deadLetters: consumeViewsBatch } },
} satisfies Capability;
