import { createApp } from "./app";
import type { Env } from "./env";
import { handleScheduled } from "./scheduled/handler";

const app = createApp();

/** The Worker entry only wires: HTTP to the app, the Cron Trigger to the scheduled rules. */
export default {
  fetch: app.fetch,
  // Returned, not passed to waitUntil: the invocation lasts until the rules are done and fails
  // when they fail, and callers (tests, /cdn-cgi/local/scheduled) get the outcome.
  scheduled: (controller, env) => handleScheduled(controller, env),
} satisfies ExportedHandler<Env>;

export type AppType = typeof app;
