import type { EventSubscriber } from "../events/dispatch";
import { SUBSCRIBABLE_EVENT_TYPES } from "../events/types";

const subscribable = new Set<string>(SUBSCRIBABLE_EVENT_TYPES);

/** Webhooks react to every type an endpoint can subscribe to; their consumer fans them out. */
export const webhooksSubscriber: EventSubscriber = {
  name: "webhooks",
  queue: (env) => env.WEBHOOK_QUEUE,
  accepts: (type) => subscribable.has(type),
};
