import type { Capability } from "../capability";
import { consumeAlertsBatch } from "./consumer";
import { consumeAlertsDeadLetters } from "./dead-letters";
import { consumeDeliveryEvents } from "./delivery-events";
import { runAlertsUpkeep } from "./scheduled";
import { alertsSubscriber } from "./subscriber";

/** Job alerts (DESIGN 23): matching job events, the emails' queue, the email service's delivery events, their own upkeep. */
export const alertsCapability = {
  queues: {
    "job-posting-alerts": { consume: consumeAlertsBatch, deadLetters: consumeAlertsDeadLetters },
    // DESIGN 23a: bounces and complaints. A dead letter is applied again: ending alerts is idempotent.
    "job-posting-email-events": { consume: consumeDeliveryEvents, deadLetters: consumeDeliveryEvents },
  },
  subscriber: alertsSubscriber,
  // Not sharded: their own database, once a run beside the shards'.
  cron: { once: { name: "alerts", run: runAlertsUpkeep } },
} satisfies Capability;
