import * as z from "../http/zod";
import type { Env } from "../env";
import { endAlertsOfAddress } from "./service";

// DESIGN 23, 23a: the email service's delivery events arrive on job-posting-email-events. A hard
// bounce or a complaint ends every alert of that address within minutes, recorded with why; a soft
// bounce changes nothing. A message that is not such an event is logged and dropped (it can never
// become valid by retrying).

const DeliveryEventSchema = z.object({
  type: z.enum(["bounced", "complained"]),
  recipient: z.string().trim().min(3).max(254),
  bounceType: z.enum(["hard", "soft"]).optional(),
});

export async function consumeDeliveryEvents(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const now = Date.now();
  for (const message of batch.messages) {
    const parsed = DeliveryEventSchema.safeParse(message.body);
    if (!parsed.success) {
      console.error(JSON.stringify({ level: "error", message: "not a delivery event", queue: batch.queue, issues: parsed.error.issues.map((issue) => issue.path.join(".")) }));
      message.ack();
      continue;
    }
    const event = parsed.data;
    // A bounce without its kind is taken as hard: an address that cannot receive mail must not keep getting it.
    if (event.type === "bounced" && event.bounceType === "soft") {
      message.ack();
      continue;
    }
    await endAlertsOfAddress(env, event.recipient, event.type === "complained" ? "complained" : `bounced:${event.bounceType ?? "hard"}`, now);
    message.ack();
  }
}
