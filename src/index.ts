import { createApp } from "./app";
import { consumeEmailBatch, consumeEmailDeadLetters } from "./applications/copies";
import { consumeAlertsBatch } from "./alerts/consumer";
import { consumeAlertsDeadLetters } from "./alerts/dead-letters";
import { consumeDeliveryEvents } from "./alerts/delivery-events";
import { receiveUnsubscribeMail } from "./alerts/inbound";
import { alertsSubscriber } from "./alerts/subscriber";
import { consumeBoardBatch } from "./board/consumer";
import { consumeBoardDeadLetters } from "./board/dead-letters";
import { boardSubscriber } from "./board/subscriber";
import { retryingBindings } from "./db/retrying";
import type { Env } from "./env";
import { createRelayClass } from "./events/relay";
import { consumeReachBatch } from "./reach/consumer";
import { consumeReachDeadLetters } from "./reach/dead-letters";
import { reachSubscriber } from "./reach/subscriber";
import { handleScheduled } from "./scheduled/handler";
import { consumeViewsBatch } from "./stats/consumer";
import { consumeWebhookBatch } from "./webhooks/consumer";
import { consumeWebhookDeadLetters } from "./webhooks/dead-letters";
import { webhooksSubscriber } from "./webhooks/subscriber";

/**
 * Who reacts to events (DESIGN 16): each subscriber owns its queue and consumer (job alerts,
 * DESIGN 23, match the job events on a queue of their own). Each shard's relay (a Durable Object,
 * wrangler.toml's RELAY) hands them their events (DESIGN 22).
 */
export const ShardRelay = createRelayClass([webhooksSubscriber, boardSubscriber, alertsSubscriber, reachSubscriber]);
/** DESIGN 24: reach's notifier (wrangler.toml's REACH), one instance that gathers and sends to search engines. */
export { ReachNotifier } from "./reach/notifier";
const app = createApp();
/** wrangler.toml's queue names (the same at the top level and in every environment). */
const EMAIL_QUEUE_NAME = "job-posting-emails";
const BOARD_QUEUE_NAME = "job-posting-board";
const VIEWS_QUEUE_NAME = "job-posting-views";
const ALERTS_QUEUE_NAME = "job-posting-alerts";
const REACH_QUEUE_NAME = "job-posting-reach";
/** DESIGN 23a: the email service's delivery events (bounces, complaints), for job alerts. */
const EMAIL_EVENTS_QUEUE_NAME = "job-posting-email-events";
/** DESIGN 16a: every consumed queue has a dead-letter queue, named after it with this suffix. */
const DEAD_LETTERS = "-dlq";

type Consumer = (batch: MessageBatch<never>, env: Env) => Promise<void>;
/** Each queue's consumer, then its dead letters' (which hand back what the first gave up on). */
const consumers: Record<string, [Consumer, Consumer]> = {
  [EMAIL_QUEUE_NAME]: [consumeEmailBatch, consumeEmailDeadLetters],
  [BOARD_QUEUE_NAME]: [consumeBoardBatch, consumeBoardDeadLetters],
  [ALERTS_QUEUE_NAME]: [consumeAlertsBatch, consumeAlertsDeadLetters],
  [REACH_QUEUE_NAME]: [consumeReachBatch, consumeReachDeadLetters],
  // A delivery event's dead letter is applied again: ending alerts is idempotent.
  [EMAIL_EVENTS_QUEUE_NAME]: [consumeDeliveryEvents, consumeDeliveryEvents],
  // A view's dead letter is counted again: its own retries cover a longer outage.
  [VIEWS_QUEUE_NAME]: [consumeViewsBatch, consumeViewsBatch],
};
const webhooks: [Consumer, Consumer] = [consumeWebhookBatch, consumeWebhookDeadLetters];

/**
 * The Worker entry only wires: HTTP to the app, the Cron Trigger to the scheduled rules, queues to
 * their consumers, inbound mail to job alerts; each on bindings whose D1 databases retry D1's
 * transient errors (src/db/retrying.ts), so no module below has to.
 */
export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, retryingBindings(env), ctx),
  // Returned, not passed to waitUntil: the invocation lasts until the rules are done and fails
  // when they fail, and callers (tests, /cdn-cgi/local/scheduled) get the outcome.
  scheduled: (controller, env) => handleScheduled(controller, retryingBindings(env)),
  queue: (batch, givenEnv) => {
    const env = retryingBindings(givenEnv);
    const dead = batch.queue.endsWith(DEAD_LETTERS);
    const name = dead ? batch.queue.slice(0, -DEAD_LETTERS.length) : batch.queue;
    const [consume, handBack] = consumers[name] ?? webhooks;
    return (dead ? handBack : consume)(batch as MessageBatch<never>, env);
  },
  // DESIGN 23: mail to ALERTS_UNSUBSCRIBE_MAILTO (List-Unsubscribe's mailto:), when Email Routing sends it here.
  email: async (message, env) => {
    await receiveUnsubscribeMail(message, retryingBindings(env), Date.now());
  },
} satisfies ExportedHandler<Env>;

export type AppType = typeof app;
