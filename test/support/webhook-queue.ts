import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { consumeWebhookBatch, type WebhookQueueBody } from "../../src/webhooks/consumer";
import { webhooksSubscriber } from "../../src/webhooks/subscriber";
import { API, shardDb, type TestEmployer } from "./api";

// The webhooks queue in tests: the test drives the consumer itself, hop by hop (the Worker's own
// webhooks queue has no consumer in tests: test/vitest.config.ts).

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

/** The recording order of the newest event in `who`'s shard (0: none yet). */
async function lastSeq(who: TestEmployer): Promise<number> {
  return (await shardDb(who.shard).prepare("SELECT coalesce(max(seq), 0) AS seq FROM events").first<{ seq: number }>())!.seq;
}

/**
 * Drives the Worker like a client, with a recording queue for what the request itself queues; waits
 * for its waitUntil work, then fans out, as the webhooks consumer would, the events it recorded
 * that webhooks take. (Its shard's relay hands them to the Worker's webhooks queue too, which no
 * test consumes behind the test's back: test/vitest.config.ts.) `noticed`: those events; `sent`:
 * the messages handed over for an attempt.
 */
export async function call(who: TestEmployer, path: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  const pending: Promise<unknown>[] = [];
  const queued = recordingQueue();
  const headers = new Headers({ "API-Key": who.apiKey, ...init.headers });
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const before = await lastSeq(who);
  const res = await worker.fetch(
    new Request(`${API}${path}`, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }),
    { ...env, WEBHOOK_QUEUE: queued.queue },
    { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException: () => {} } as unknown as ExecutionContext,
  );
  await Promise.all(pending);
  const recorded = await shardDb(who.shard)
    .prepare("SELECT id, type FROM events WHERE seq > ? AND employer_id = ? ORDER BY seq")
    .bind(before, who.employerId)
    .all<{ id: string; type: string }>();
  const noticed = recorded.results.filter((event) => webhooksSubscriber.accepts(event.type)).map((event) => event.id);
  const notices: WebhookQueueBody[] = noticed.length ? [{ events: noticed, shard: who.shard }] : [];
  return { res, noticed, sent: [...messageIdsIn(queued.bodies), ...(await fanOut(notices))] };
}
