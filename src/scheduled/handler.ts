import type { Env } from "../env";
import { maintainApplications } from "../applications/retention";
import { enqueueMessages, maintainWebhooks } from "../events/delivery";
import { runScheduledJobs } from "./runner";

/**
 * Runs the scheduled rules for one Cron Trigger invocation and writes one JSON log line
 * (visible in `wrangler tail` and Workers Logs). A failure is logged, then rethrown so that
 * Cloudflare records the invocation as failed.
 */
export async function handleScheduled(
  controller: Pick<ScheduledController, "cron" | "scheduledTime">,
  env: Pick<Env, "DB" | "WEBHOOK_QUEUE" | "RESUMES" | "EMAIL_QUEUE">,
): Promise<void> {
  const started = Date.now();
  const now = new Date(controller.scheduledTime);
  const line = { event: "scheduled", cron: controller.cron, scheduledTime: now.toISOString() };
  try {
    const messages: string[] = [];
    const rules = await runScheduledJobs(env, now, messages);
    await enqueueMessages(env, messages);
    const webhooks = { ...(await maintainWebhooks(env, now.getTime())), enqueued: messages.length };
    const applications = await maintainApplications(env, now.getTime());
    console.log(JSON.stringify({ ...line, outcome: "ok", rules, webhooks, applications, durationMs: Date.now() - started }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ ...line, outcome: "error", error: message, durationMs: Date.now() - started }));
    throw error;
  }
}
