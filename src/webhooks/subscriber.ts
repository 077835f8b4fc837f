import { createDatabase } from "../db/client";
import type { EventSubscriber } from "../events/dispatch";
import { takenAmong } from "../events/receipts";
import { SUBSCRIBABLE_EVENT_TYPES } from "../events/types";
import { atShard } from "../shards/bindings";
import { webhookReceipts } from "./tables";

const subscribable = new Set<string>(SUBSCRIBABLE_EVENT_TYPES);

/** Webhooks react to every type an endpoint can subscribe to; their consumer fans them out. */
export const webhooksSubscriber: EventSubscriber = {
  name: "webhooks",
  queue: (env) => env.WEBHOOK_QUEUE,
  accepts: (type) => subscribable.has(type),
  // The fan-out records its receipts in the shard whose outbox recorded the events.
  taken: async (env, shard, ids) => (await createDatabase(atShard(env, shard).DB).all<{ id: string }>(takenAmong(webhookReceipts, shard, ids))).map((row) => row.id),
};
