import type { EventSubscriber } from "./events/dispatch";
import type { QueueConsumers } from "./queues/dispatch";
import type { NamedTask, OnceStage, ShardStage } from "./scheduled/handler";

/**
 * What a capability brings to the Worker (DESIGN 16b), as one small declaration in its folder
 * (`capability.ts`). The entry (src/index.ts, with the app it builds) is the only module that
 * lists them; the platform runs what it is handed.
 */
export interface Capability {
  /** The queues it consumes (wrangler.toml's names), each with its consumer and its dead letters' (DESIGN 16a). */
  queues?: QueueConsumers;
  /** It reacts to events: every shard's relay hands them to it (DESIGN 16, 22). */
  subscriber?: EventSubscriber;
  /** Its stages of the hourly Cron Trigger: per shard (the entry puts them in order), once a run, or a named task a command invokes. */
  cron?: {
    shard?: Readonly<Record<string, ShardStage>>;
    once?: OnceStage;
    tasks?: Readonly<Record<string, NamedTask>>;
  };
}
