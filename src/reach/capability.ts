import type { Capability } from "../capability";
import { consumeReachBatch } from "./consumer";
import { consumeReachDeadLetters } from "./dead-letters";
import { reachSubscriber } from "./subscriber";

/** Reach (DESIGN 24): job pages' changes told to search engines, through its notifier (a Durable Object). */
export const reachCapability = {
  queues: { "job-posting-reach": { consume: consumeReachBatch, deadLetters: consumeReachDeadLetters } },
  subscriber: reachSubscriber,
} satisfies Capability;
