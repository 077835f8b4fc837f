import { createApp } from "./app";
import type { Env } from "./env";
import { consumeWebhookBatch, type QueuedMessage } from "./events/delivery";
import { handleScheduled } from "./scheduled/handler";

const app = createApp();
/** wrangler.toml's queue names (the same at the top level and in [env.dev]). */
const WEBHOOK_QUEUE_NAME = "job-posting-webhooks";

/** The Worker entry only wires: HTTP to the app, the Cron Trigger to the scheduled rules, queues to their consumers. */
export default {
  fetch: app.fetch,
  // Returned, not passed to waitUntil: the invocation lasts until the rules are done and fails
  // when they fail, and callers (tests, /cdn-cgi/local/scheduled) get the outcome.
  scheduled: (controller, env) => handleScheduled(controller, env),
  queue: (batch, env) => (batch.queue.startsWith(WEBHOOK_QUEUE_NAME) ? consumeWebhookBatch(batch as MessageBatch<QueuedMessage>, env) : Promise.resolve()),
} satisfies ExportedHandler<Env>;

export type AppType = typeof app;
