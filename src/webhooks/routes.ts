import { createRoute } from "../http/openapi-hono";
import { requireJsonBody } from "../http/middleware/json-body";
import { IdParamSchema, problemResponses } from "../http/schemas";
import { API_PREFIX } from "../http/version";
import {
  AcceptedSchema,
  DeliveryListSchema,
  DeliveryQuerySchema,
  EndpointInputSchema,
  EndpointListSchema,
  EndpointSchema,
  EndpointUpdateSchema,
  EndpointWithSecretSchema,
  MessageParamsSchema,
} from "./schemas";

const tags = ["Webhooks"];
const security = [{ ApiKey: [] }];
const ENDPOINTS = `${API_PREFIX}/webhooks`;
const ENDPOINT = `${API_PREFIX}/webhooks/{id}`;
const json = <T>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const body = <T>(schema: T, description: string) => ({ required: true, description, content: { "application/json": { schema } } });

export const createEndpointRoute = createRoute({
  method: "post",
  path: ENDPOINTS,
  tags,
  security,
  operationId: "createWebhookEndpoint",
  summary: "Subscribe an endpoint to events",
  description: "At most 10 per employer. The answer shows the signing secret, once. https only (DESIGN 13's URL rules).",
  middleware: [requireJsonBody] as const,
  request: { body: body(EndpointInputSchema, "The receiving address and the events it wants.") },
  responses: { 201: json(EndpointWithSecretSchema, "Created; keep the secret."), ...problemResponses(400, 409) },
});

export const listEndpointsRoute = createRoute({
  method: "get",
  path: ENDPOINTS,
  tags,
  security,
  operationId: "listWebhookEndpoints",
  summary: "List your webhook endpoints",
  responses: { 200: json(EndpointListSchema, "Your endpoints (no secrets).") },
});

export const getEndpointRoute = createRoute({
  method: "get",
  path: ENDPOINT,
  tags,
  security,
  operationId: "getWebhookEndpoint",
  summary: "Read one webhook endpoint",
  request: { params: IdParamSchema },
  responses: { 200: json(EndpointSchema, "The endpoint (no secret).") },
});

export const updateEndpointRoute = createRoute({
  method: "put",
  path: ENDPOINT,
  tags,
  security,
  operationId: "updateWebhookEndpoint",
  summary: "Change a webhook endpoint",
  description: "Partial: url, events, description, enabled.",
  middleware: [requireJsonBody] as const,
  request: { params: IdParamSchema, body: body(EndpointUpdateSchema, "The members to change.") },
  responses: { 200: json(EndpointSchema, "Updated.") },
});

export const deleteEndpointRoute = createRoute({
  method: "delete",
  path: ENDPOINT,
  tags,
  security,
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  request: { params: IdParamSchema },
  responses: { 204: { description: "Deleted, with its delivery log." } },
});

export const rotateSecretRoute = createRoute({
  method: "post",
  path: `${ENDPOINT}/rotate-secret`,
  tags,
  security,
  operationId: "rotateWebhookSecret",
  summary: "Rotate the signing secret",
  description: "A new secret, shown once; the old one keeps signing alongside for 24 hours (two signatures).",
  request: { params: IdParamSchema },
  responses: { 200: json(EndpointWithSecretSchema, "The endpoint with its new secret.") },
});

export const testEndpointRoute = createRoute({
  method: "post",
  path: `${ENDPOINT}/test`,
  tags,
  security,
  operationId: "testWebhookEndpoint",
  summary: "Send a webhook.test event now",
  request: { params: IdParamSchema },
  responses: { 202: json(AcceptedSchema, "Queued for delivery.") },
});

export const listDeliveriesRoute = createRoute({
  method: "get",
  path: `${ENDPOINT}/deliveries`,
  tags,
  security,
  operationId: "listWebhookDeliveries",
  summary: "The endpoint's delivery log",
  description: "The latest messages first (30 days kept): attempts, last status code, status, next attempt.",
  request: { params: IdParamSchema, query: DeliveryQuerySchema },
  responses: { 200: json(DeliveryListSchema, "A page of messages.") },
});

export const retryDeliveryRoute = createRoute({
  method: "post",
  path: `${ENDPOINT}/deliveries/{messageId}/retry`,
  tags,
  security,
  operationId: "retryWebhookDelivery",
  summary: "Send a message again now",
  request: { params: MessageParamsSchema },
  responses: { 202: json(AcceptedSchema, "Queued for delivery.") },
});
