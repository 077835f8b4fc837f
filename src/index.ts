import { createApp } from "./app";
import { accountsCapability as accounts } from "./accounts/capability";
import { alertsCapability as alerts } from "./alerts/capability";
import { receiveUnsubscribeMail } from "./alerts/inbound";
import { applicationsCapability as applications } from "./applications/capability";
import { boardCapability as board } from "./board/capability";
import type { Capability } from "./capability";
import { retryingBindings } from "./db/retrying";
import type { Env } from "./env";
import { createRelayClass } from "./events/relay";
import { jobsCapability as jobs } from "./jobs/capability";
import { createQueueHandler } from "./queues/dispatch";
import { reachCapability as reach } from "./reach/capability";
import { createScheduledHandler, EVENTS_STAGE } from "./scheduled/handler";
import { statsCapability as stats } from "./stats/capability";
import { webhooksCapability as webhooks } from "./webhooks/capability";

// DESIGN 16b: the one composition root. Each capability declares what it brings (its
// capability.ts); this module, and the app it builds (src/app.ts), are the only ones that list
// them. The relay, the cron's runner and the queue dispatch are handed their lists here.

const capabilities: Capability[] = [jobs, applications, webhooks, board, alerts, reach, stats, accounts];

/** Who reacts to events (DESIGN 16): each shard's relay (a Durable Object, wrangler.toml's RELAY) hands them their events (DESIGN 22). */
export const ShardRelay = createRelayClass(capabilities.flatMap((capability) => (capability.subscriber ? [capability.subscriber] : [])));
/** DESIGN 24: reach's notifier (wrangler.toml's REACH), one instance that gathers and sends to search engines. */
export { ReachNotifier } from "./reach/notifier";
/** DESIGN 22b: the move of an employer between shards (wrangler.toml's MOVES), one per employer. */
export { EmployerMove } from "./shards/employer-move";

const scheduled = createScheduledHandler({
  // In this order: the rules and the notices record events, the events go to the relay, and the
  // upkeep follows; the search index is merged last, after the rules moved its entries.
  shardStages: [
    jobs.cron.shard.rules,
    applications.cron.shard.decisionNotices,
    EVENTS_STAGE,
    board.cron.shard.repair,
    webhooks.cron.shard.maintain,
    applications.cron.shard.retention,
    applications.cron.shard.resumes,
    applications.cron.shard.emailCopies,
    jobs.cron.shard.searchMerge,
  ],
  once: capabilities.flatMap((capability) => (capability.cron?.once ? [capability.cron.once] : [])),
  tasks: Object.assign({}, ...capabilities.map((capability) => capability.cron?.tasks ?? {})),
});
const queue = createQueueHandler(Object.assign({}, ...capabilities.map((capability) => capability.queues ?? {})));
const app = createApp();

/**
 * The Worker entry only wires: HTTP to the app, the Cron Trigger to the scheduled stages, queues
 * to their consumers, inbound mail to job alerts; each on bindings whose D1 databases retry D1's
 * transient errors (src/db/retrying.ts), so no module below has to.
 */
export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, retryingBindings(env), ctx),
  // Returned, not passed to waitUntil: the invocation lasts until the stages are done and fails
  // when they fail, and callers (tests, /cdn-cgi/local/scheduled) get the outcome.
  scheduled: (controller, env) => scheduled(controller, retryingBindings(env)),
  queue: (batch, env) => queue(batch, retryingBindings(env)),
  // DESIGN 23: mail to ALERTS_UNSUBSCRIBE_MAILTO (List-Unsubscribe's mailto:), when Email Routing sends it here.
  email: async (message, env) => {
    await receiveUnsubscribeMail(message, retryingBindings(env), Date.now());
  },
} satisfies ExportedHandler<Env>;

export type AppType = typeof app;
