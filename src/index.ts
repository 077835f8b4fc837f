import { createApp } from "./app";
import { consumeEmailBatch, type QueuedEmail } from "./applications/copies";
import { consumeBoardBatch, type BoardQueueBody } from "./board/consumer";
import { boardSubscriber } from "./board/subscriber";
import type { Env } from "./env";
import { createDispatcher } from "./events/dispatch";
import { handleScheduled } from "./scheduled/handler";
import { consumeViewsBatch } from "./stats/consumer";
import type { JobView } from "./stats/views";
import { consumeWebhookBatch, type WebhookQueueBody } from "./webhooks/consumer";
import { webhooksSubscriber } from "./webhooks/subscriber";

/** Who reacts to events (DESIGN 16): each subscriber owns its queue and consumer. */
const dispatcher = createDispatcher([webhooksSubscriber, boardSubscriber]);
const app = createApp(dispatcher);
/** wrangler.toml's queue names (the same at the top level and in every environment). */
const EMAIL_QUEUE_NAME = "job-posting-emails";
const BOARD_QUEUE_NAME = "job-posting-board";
const VIEWS_QUEUE_NAME = "job-posting-views";

/** The Worker entry only wires: HTTP to the app, the Cron Trigger to the scheduled rules, queues to their consumers. */
export default {
  fetch: app.fetch,
  // Returned, not passed to waitUntil: the invocation lasts until the rules are done and fails
  // when they fail, and callers (tests, /cdn-cgi/local/scheduled) get the outcome.
  scheduled: (controller, env) => handleScheduled(controller, env, dispatcher),
  queue: (batch, env) =>
    batch.queue.startsWith(EMAIL_QUEUE_NAME)
      ? consumeEmailBatch(batch as MessageBatch<QueuedEmail>, env)
      : batch.queue.startsWith(BOARD_QUEUE_NAME)
        ? consumeBoardBatch(batch as MessageBatch<BoardQueueBody>, env)
        : batch.queue.startsWith(VIEWS_QUEUE_NAME)
          ? consumeViewsBatch(batch as MessageBatch<JobView[]>, env)
          : consumeWebhookBatch(batch as MessageBatch<WebhookQueueBody>, env),
} satisfies ExportedHandler<Env>;

export type AppType = typeof app;
