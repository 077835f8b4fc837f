import type { Env } from "../env";
import { maintainApplications } from "../applications/retention";
import type { EventDispatcher } from "../events/dispatch";
import type { RecordedEvent } from "../events/outbox";
import { maintainWebhooks } from "../webhooks/maintenance";
import { runScheduledJobs } from "./runner";

/**
 * Runs the scheduled rules for one Cron Trigger invocation and writes one JSON log line
 * (visible in `wrangler tail` and Workers Logs). A failure is logged, then rethrown so that
 * Cloudflare records the invocation as failed.
 */
export async function handleScheduled(
  controller: Pick<ScheduledController, "cron" | "scheduledTime">,
  env: Env,
  dispatcher: EventDispatcher,
): Promise<void> {
  const started = Date.now();
  const now = new Date(controller.scheduledTime);
  const line = { event: "scheduled", cron: controller.cron, scheduledTime: now.toISOString() };
  try {
    const recorded: RecordedEvent[] = [];
    const rules = await runScheduledJobs(env, now, recorded);
    await dispatcher.dispatch(env, recorded, now.getTime());
    const events = { dispatched: recorded.length, ...(await dispatcher.maintain(env, now.getTime())) };
    const webhooks = await maintainWebhooks(env, now.getTime());
    const applications = await maintainApplications(env, now.getTime());
    console.log(JSON.stringify({ ...line, outcome: "ok", rules, events, webhooks, applications, durationMs: Date.now() - started }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ ...line, outcome: "error", error: message, durationMs: Date.now() - started }));
    throw error;
  }
}
