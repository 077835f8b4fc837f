import { createApp } from "./app";
import type { Env } from "./env";
import { runScheduledJobs } from "./scheduled/runner";

const app = createApp();

/** The Worker entry only wires: HTTP to the app, the Cron Trigger to the job runner. */
export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;

export type AppType = typeof app;
