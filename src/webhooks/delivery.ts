import type { Database } from "../db/client";
import type { Env } from "../env";
import type { MessageRow } from "./messages";
import { renderPayload } from "./payload";
import { findEndpointById, recordEndpointOutcome } from "./repository";
import { allowsInsecureWebhooks, ATTEMPT_TIMEOUT_MS, urlProblem } from "./rules";
import { decryptSecret } from "./secrets";
import { webhookHeaders } from "./signing";

export type AttemptOutcome = { skipped: true } | { skipped: false; delivered: boolean; statusCode: number | null };

/**
 * One attempt to deliver a message to its endpoint (DESIGN 13): signed by the endpoint's
 * secret (and the previous one during a rotation), POSTed with a 10-second limit, redirects not
 * followed; any 2xx is a delivery. A deleted or disabled endpoint is skipped. An address the
 * rules now refuse (DESIGN 6b) gets no request: a failed attempt.
 */
export async function attemptDelivery(env: Env, db: Database, message: MessageRow, now = Date.now()): Promise<AttemptOutcome> {
  const endpoint = await findEndpointById(db, message.endpointId);
  if (!endpoint || !endpoint.enabled) return { skipped: true };
  // Checked again here: the stored address may predate a rule that refuses it.
  if (urlProblem(endpoint.url, allowsInsecureWebhooks(env))) {
    await recordEndpointOutcome(db, endpoint.id, false, now);
    return { skipped: false, delivered: false, statusCode: null };
  }
  const secrets = [await decryptSecret(endpoint.secret, env.WEBHOOK_ENCRYPTION_KEY)];
  if (endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) > now) {
    secrets.push(await decryptSecret(endpoint.previousSecret, env.WEBHOOK_ENCRYPTION_KEY));
  }
  const body = renderPayload(message.type, message.occurredAt, message.data);
  let statusCode: number | null = null;
  try {
    const res = await fetch(endpoint.url, {
      method: "POST",
      headers: await webhookHeaders(message.id, body, secrets, now),
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    statusCode = res.status;
    await res.body?.cancel();
  } catch {
    // Unreachable, refused or timed out: a failed attempt with no status.
  }
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  await recordEndpointOutcome(db, endpoint.id, delivered, now);
  return { skipped: false, delivered, statusCode };
}
