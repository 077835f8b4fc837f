import type { Env } from "../env";
import { alertOfToken, endAlert } from "./service";

// DESIGN 23: the mailto: form of List-Unsubscribe (RFC 2369), where inbound mail is set up — Email
// Routing sends ALERTS_UNSUBSCRIBE_MAILTO's mail to this Worker's `email` handler. The subject
// holds the alert's manage token (as its https unsubscribe address does): that alert ends at
// once, recorded as an unsubscribe. Nothing is ever sent back (no bounce, no reply): a message
// to another address, or without a token that names an alert, is dropped and logged.

/** A token in a subject: 43 base64url characters standing alone. */
const TOKEN_IN_TEXT = /(?:^|[^A-Za-z0-9_-])([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;

export type InboundOutcome = "unsubscribed" | "not-for-alerts" | "no-alert";

export async function receiveUnsubscribeMail(message: Pick<ForwardableEmailMessage, "to" | "headers">, env: Env, now: number): Promise<InboundOutcome> {
  const address = env.ALERTS_UNSUBSCRIBE_MAILTO?.trim().toLowerCase();
  if (!address || message.to.trim().toLowerCase() !== address) {
    console.warn(JSON.stringify({ level: "warn", message: "inbound email not for the alerts' unsubscribe address: dropped" }));
    return "not-for-alerts";
  }
  const token = TOKEN_IN_TEXT.exec(message.headers.get("Subject") ?? "")?.[1];
  const alert = token ? await alertOfToken(env, "manage", token) : undefined;
  if (!alert) {
    console.warn(JSON.stringify({ level: "warn", message: "unsubscribe email names no alert: dropped" }));
    return "no-alert";
  }
  await endAlert(env, alert, false, "unsubscribed", now);
  return "unsubscribed";
}
