// DESIGN 13, issue 51: receivers deduplicate by `webhook-id` (Standard Webhooks makes it their
// idempotency key), so every delivery of one event to one endpoint must carry one id, whichever
// path wrote or sent its message: the first hand-over, a hand-over again after a lost queue, a
// dead-letter return, the shard an employer moved to, a retry from the log. An id drawn at random
// per fan-out holds only while the first row is found; an id computed from the pair holds always.

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The id of the message that delivers event `eventId` to endpoint `endpointId`: `msg_` + 32 hex
 * digits (the format the docs show), the first 128 bits of SHA-256 over the pair. Event ids are
 * random and endpoint ids unique across shards (DESIGN 22), so no two pairs meet by chance.
 */
export async function eventMessageId(eventId: string, endpointId: number): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${eventId}\n${endpointId}`));
  return `msg_${hex(new Uint8Array(digest, 0, 16))}`;
}

/** A message that delivers no event (webhook.test: each request is a message of its own). */
export function randomMessageId(): string {
  return `msg_${hex(crypto.getRandomValues(new Uint8Array(16)))}`;
}
