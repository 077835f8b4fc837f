import type { Capability } from "../capability";
import { consumeWebhookBatch } from "./consumer";
import { consumeWebhookDeadLetters } from "./dead-letters";
import { maintainWebhooks } from "./maintenance";
import { webhooksSubscriber } from "./subscriber";

/** Webhooks (DESIGN 13): the fan-out of events, the deliveries' queue, the sweep and the log's retention. */
export const webhooksCapability = {
  queues: { "job-posting-webhooks": { consume: consumeWebhookBatch, deadLetters: consumeWebhookDeadLetters } },
  subscriber: webhooksSubscriber,
  cron: { shard: { maintain: { name: "webhooks", run: (env, now, { bounds }) => maintainWebhooks(env, now.getTime(), bounds) } } },
} satisfies Capability;
