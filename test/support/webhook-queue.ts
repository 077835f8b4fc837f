import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { consumeWebhookBatch, type WebhookQueueBody } from "../../src/webhooks/consumer";
import { API, type TestEmployer } from "./api";

// The webhooks queue in tests: the test drives the consumer itself, hop by hop.

/** The queue as the Worker sees it, recording what is handed over (so nothing is consumed behind the test's back). */
export function recordingQueue() {
  const bodies: WebhookQueueBody[] = [];
  const queue = {
    send: async (body: WebhookQueueBody) => void bodies.push(body),
    sendBatch: async (messages: { body: WebhookQueueBody }[]) => void bodies.push(...messages.map((m) => m.body)),
  } as unknown as Queue<WebhookQueueBody>;
  return { queue, bodies };
}

export const messageIdsIn = (bodies: WebhookQueueBody[]) => bodies.flatMap((body) => ("id" in body ? [body.id] : []));

/**
 * The queue's first hop (DESIGN 16): the events handed over are fanned out by the webhooks
 * consumer; returns the ids of the messages it handed over for their first attempt.
 */
export async function fanOut(bodies: WebhookQueueBody[]): Promise<string[]> {
  const next = recordingQueue();
  await consumeWebhookBatch(queueBatch(bodies.filter((body) => "events" in body)).batch, { ...env, WEBHOOK_QUEUE: next.queue });
  return messageIdsIn(next.bodies);
}

/** A MessageBatch for the consumer, recording each message's ack or retry. */
export function queueBatch(bodies: WebhookQueueBody[]) {
  const outcomes: { id: string; ack?: true; retryDelay?: number }[] = [];
  const messages = bodies.map((body, i) => ({
    id: "id" in body ? body.id : `notice-${i}`,
    body,
    timestamp: new Date(),
    attempts: 1,
    ack() {
      outcomes.push({ id: this.id, ack: true });
    },
    retry(options?: { delaySeconds?: number }) {
      outcomes.push({ id: this.id, retryDelay: options?.delaySeconds });
    },
  }));
  return { batch: { queue: "job-posting-webhooks", messages, ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<WebhookQueueBody>, outcomes };
}

/** A batch of message ids, each due for an attempt. */
export const batchOf = (ids: string[]) => queueBatch(ids.map((id) => ({ id })));

/**
 * Drives the Worker like a client, with a recording queue; waits for its waitUntil work, then
 * for the fan-out of the events it handed over. `noticed`: the events handed over; `sent`: the
 * messages handed over for an attempt.
 */
export async function call(who: TestEmployer, path: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}, queue?: Queue<WebhookQueueBody>) {
  const pending: Promise<unknown>[] = [];
  const handedOver = recordingQueue();
  const headers = new Headers({ "API-Key": who.apiKey, ...init.headers });
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const res = await worker.fetch(
    new Request(`${API}${path}`, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }),
    { ...env, WEBHOOK_QUEUE: queue ?? handedOver.queue },
    { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException: () => {} } as unknown as ExecutionContext,
  );
  await Promise.all(pending);
  const noticed = handedOver.bodies.flatMap((body) => ("events" in body ? body.events : []));
  return { res, noticed, sent: [...messageIdsIn(handedOver.bodies), ...(await fanOut(handedOver.bodies))] };
}
