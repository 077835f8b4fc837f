import type { Env } from "../env";
import { pruneReceipts } from "../events/receipts";
import { runStages } from "../scheduled/stages";
import { batch, createAlertsDatabase } from "./database/client";
import { alertReceipts } from "./database/tables";
import { askToKeep, dueAlertIds, endAlerts, pruneMatches, purgeAlerts, stalePendingSends, unansweredKeepIds } from "./repository";
import { queueSends, type AlertWork } from "./service";

// DESIGN 23, 23a: the alerts' share of every cron run, once for the whole Worker (alerts are not
// sharded). The run's scheduledTime is "now" for all of it, so tests can fast-forward.

/** Due alerts handed to the queue per run, 10 per message (the consumer builds each email). */
const DUE_PER_RUN = 10_000;
const DUE_PER_MESSAGE = 10;
const SENDS_PER_RUN = 1_000;
const PURGED_PER_RUN = 1_000;
export const PENDING_KEPT_MS = 7 * 86_400_000;
/** Consent records are kept 3 years after their alert ends (DESIGN 23). */
export const ENDED_KEPT_MS = 3 * 365 * 86_400_000;
/** After 12 months an alert asks once whether to keep it; 30 days without an answer end it (DESIGN 23). */
export const KEEP_ASKED_AFTER_MS = 365 * 86_400_000;
export const KEEP_ANSWER_MS = 30 * 86_400_000;
const KEEP_PER_RUN = 1_000;
/** Old matches deleted per statement, and statements per run: bounded, so one run never holds the database long. */
export const PRUNED_PER_CHUNK = 500;
export const PRUNE_CHUNKS_PER_RUN = 20;

export function runAlertsUpkeep(env: Env, now: number) {
  const db = createAlertsDatabase(env.ALERTS_DB);
  return runStages([
    [
      "alertsDue",
      async () => {
        const ids = await dueAlertIds(db, now, DUE_PER_RUN);
        const bodies: { body: AlertWork }[] = [];
        for (let i = 0; i < ids.length; i += DUE_PER_MESSAGE) bodies.push({ body: { due: ids.slice(i, i + DUE_PER_MESSAGE), now } });
        for (let i = 0; i < bodies.length; i += 100) await env.ALERTS_QUEUE.sendBatch(bodies.slice(i, i + 100));
        return { due: ids.length };
      },
    ],
    [
      // Emails whose message was lost (or whose consumer died before recording) go again; the ledger
      // row's status is checked before each send, so none goes twice.
      "alertEmails",
      async () => {
        const ids = await stalePendingSends(db, now - 60_000, SENDS_PER_RUN);
        await queueSends(env, ids);
        return { requeued: ids.length };
      },
    ],
    [
      "alertsKeep",
      async () => {
        const expired = await unansweredKeepIds(db, now - KEEP_ANSWER_MS, KEEP_PER_RUN);
        await endAlerts(db, expired, "expired-unanswered", now);
        const asked = await askToKeep(db, now - KEEP_ASKED_AFTER_MS, now, KEEP_PER_RUN);
        await queueSends(env, asked);
        return { asked: asked.length, ended: expired.length };
      },
    ],
    ["alertsRetention", async () => ({ deleted: await purgeAlerts(db, now - PENDING_KEPT_MS, now - ENDED_KEPT_MS, PURGED_PER_RUN) })],
    [
      // Matches of alerts just ended, and those more than 30 days older than their alert's last email
      // (repository.ts pruneMatches), in chunks until one comes back short or the run's share is done.
      "alertsMatchesPruned",
      async () => {
        let pruned = 0;
        let chunks = 0;
        while (chunks < PRUNE_CHUNKS_PER_RUN) {
          const deleted = await pruneMatches(db, now, PRUNED_PER_CHUNK);
          chunks++;
          pruned += deleted;
          if (deleted < PRUNED_PER_CHUNK) break;
        }
        return { pruned, chunks };
      },
    ],
    // DESIGN 16a: the consumer's receipts, kept past the events' own retention.
    ["alertsReceiptsPruned", async () => ({ pruned: await pruneReceipts(alertReceipts, now, async (statement) => (await batch(db, [statement]))[0].meta.changes) })],
  ]);
}
