import type { Database } from "../db/client";
import type { Env } from "../env";
import { TEST_EVENT_TYPE } from "../events/types";
import { ConflictError, NotFoundError, ValidationError } from "../http/problem";
import {
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
  type EndpointRow,
} from "./repository";
import { enqueueMessages } from "./consumer";
import { insertDirectMessage, listDeliveries, rescheduleMessage } from "./messages";
import { allowsInsecureWebhooks, MAX_ENDPOINTS, ROTATION_OVERLAP_MS, urlProblem } from "./rules";
import type { EndpointInputSchema, EndpointUpdateSchema } from "./schemas";
import { encryptSecret, newSigningSecret } from "./secrets";
import type { z } from "@hono/zod-openapi";

// The endpoint management use cases (DESIGN 13). Secrets leave only in the answers to
// create and rotate; they are never logged.

export interface WebhookCaller {
  db: Database;
  env: Env;
  employerId: number;
}

const NOT_FOUND = "You have no webhook endpoint with this id.";

export function toEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

function checkUrl(env: Env, url: string): void {
  const problem = urlProblem(url, allowsInsecureWebhooks(env));
  if (problem) throw new ValidationError([{ field: "url", message: problem }]);
}

async function owned({ db, employerId }: WebhookCaller, id: number): Promise<EndpointRow> {
  const row = await findEndpoint(db, employerId, id);
  if (!row) throw new NotFoundError(NOT_FOUND);
  return row;
}

export async function createEndpoint(caller: WebhookCaller, input: z.infer<typeof EndpointInputSchema>) {
  checkUrl(caller.env, input.url);
  const secret = newSigningSecret();
  const now = Date.now();
  const row = await insertEndpoint(
    caller.db,
    {
      employerId: caller.employerId,
      url: input.url,
      events: JSON.stringify([...new Set(input.events ?? [])]),
      description: input.description || null,
      secret: await encryptSecret(secret, caller.env.WEBHOOK_ENCRYPTION_KEY),
      createdAt: now,
    },
    MAX_ENDPOINTS,
  );
  if (!row) throw new ConflictError("endpoint-limit", `You have ${MAX_ENDPOINTS} webhook endpoints, the most allowed; delete one first.`);
  return { ...toEndpoint(row), secret };
}

export const listOwnEndpoints = async ({ db, employerId }: WebhookCaller) => (await listEndpoints(db, employerId)).map(toEndpoint);

export const getEndpoint = async (caller: WebhookCaller, id: number) => toEndpoint(await owned(caller, id));

export async function changeEndpoint(caller: WebhookCaller, id: number, input: z.infer<typeof EndpointUpdateSchema>) {
  if (input.url !== undefined) checkUrl(caller.env, input.url);
  const changes = {
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.events !== undefined ? { events: JSON.stringify([...new Set(input.events ?? [])]) } : {}),
    ...(input.description !== undefined ? { description: input.description || null } : {}),
    // Re-enabling starts a new streak: the 5 days count from the next failure.
    ...(input.enabled !== undefined ? { enabled: input.enabled, ...(input.enabled ? { failingSince: null } : {}) } : {}),
  };
  const row = await updateEndpoint(caller.db, caller.employerId, id, changes);
  if (!row) throw new NotFoundError(NOT_FOUND);
  return toEndpoint(row);
}

export async function removeEndpoint({ db, employerId }: WebhookCaller, id: number): Promise<void> {
  if (!(await deleteEndpoint(db, employerId, id))) throw new NotFoundError(NOT_FOUND);
}

/** A new secret; the current one keeps signing alongside for 24 hours (at most two sign). */
export async function rotateSecret(caller: WebhookCaller, id: number) {
  const current = await owned(caller, id);
  const secret = newSigningSecret();
  const row = await updateEndpoint(caller.db, caller.employerId, id, {
    secret: await encryptSecret(secret, caller.env.WEBHOOK_ENCRYPTION_KEY),
    previousSecret: current.secret,
    previousSecretUntil: Date.now() + ROTATION_OVERLAP_MS,
  });
  if (!row) throw new NotFoundError(NOT_FOUND);
  return { ...toEndpoint(row), secret };
}

export async function sendTestEvent(caller: WebhookCaller, id: number): Promise<string> {
  const endpoint = await owned(caller, id);
  const now = Date.now();
  const messageId = await insertDirectMessage(
    caller.db,
    { employerId: caller.employerId, endpointId: endpoint.id, type: TEST_EVENT_TYPE, data: { endpointId: endpoint.id, message: "A test event from the Job Posting API." } },
    now,
  );
  await enqueueMessages(caller.env, [messageId], caller.db);
  return messageId;
}

export async function deliveryLog(caller: WebhookCaller, id: number, filter: Parameters<typeof listDeliveries>[2]) {
  const endpoint = await owned(caller, id);
  const { rows, total } = await listDeliveries(caller.db, endpoint.id, filter);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    total,
    data: rows.map((row) => ({
      id: row.id,
      type: row.type,
      createdAt: iso(row.createdAt)!,
      attempts: row.attempts,
      lastStatusCode: row.lastStatusCode,
      status: row.status,
      nextAttemptAt: row.status === "pending" ? iso(row.nextAttemptAt) : null,
    })),
  };
}

export async function retryDelivery(caller: WebhookCaller, id: number, messageId: string): Promise<void> {
  const endpoint = await owned(caller, id);
  if (!(await rescheduleMessage(caller.db, caller.employerId, endpoint.id, messageId, Date.now()))) {
    throw new NotFoundError("This endpoint has no message with this id (the log keeps 30 days).");
  }
  await enqueueMessages(caller.env, [messageId], caller.db);
}
