import * as z from "../http/zod";
import { int32 } from "../http/limits";
import { IdParamSchema, PagingQuerySchema, PagingSchema } from "../http/schemas";
import { SUBSCRIBABLE_EVENT_TYPES } from "../events/types";
import { MAX_ENDPOINTS, MAX_URL_LENGTH } from "./rules";

const EventsSchema = z
  .array(z.enum(SUBSCRIBABLE_EVENT_TYPES))
  .max(SUBSCRIBABLE_EVENT_TYPES.length)
  .openapi({ description: "Event types to receive; absent or `[]`: every job and application type.", example: ["job.created", "job.expired"] });

export const EndpointInputSchema = z
  .object({
    url: z.string().max(MAX_URL_LENGTH).openapi({ format: "uri", example: "https://ats.example.com/hooks/job-postings" }),
    events: EventsSchema.optional(),
    description: z.string().max(200).nullable().optional().openapi({ example: "Our ATS" }),
  })
  .openapi("WebhookEndpointInput");

export const EndpointUpdateSchema = z
  .object({
    url: EndpointInputSchema.shape.url.optional(),
    events: EventsSchema.nullable().optional(),
    description: EndpointInputSchema.shape.description,
    enabled: z.boolean().optional().openapi({ description: "Re-enable an endpoint the service disabled after 5 days of failures." }),
  })
  .openapi("WebhookEndpointUpdate");

export const EndpointSchema = z
  .object({
    id: int32().openapi({ example: 12 }),
    url: z.string().max(MAX_URL_LENGTH).openapi({ example: "https://ats.example.com/hooks/job-postings" }),
    events: z.array(z.string().max(40)).max(SUBSCRIBABLE_EVENT_TYPES.length).openapi({ example: [] }),
    description: z.string().max(200).nullable().openapi({ example: "Our ATS" }),
    enabled: z.boolean(),
    createdAt: z.string().max(30).openapi({ format: "date-time", example: "2026-11-22T15:00:00.000Z" }),
  })
  .openapi("WebhookEndpoint");

export const EndpointWithSecretSchema = z
  .object({
    ...EndpointSchema.shape,
    secret: z
      .string()
      .max(100)
      .openapi({ description: "The signing secret: shown only now. Verify with any Standard Webhooks library.", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
  })
  .openapi("WebhookEndpointWithSecret");

export const EndpointListSchema = z.object({ data: z.array(EndpointSchema).max(MAX_ENDPOINTS) }).openapi("WebhookEndpointList");

const MESSAGE_STATUSES = ["pending", "delivered", "failed"] as const;

export const DeliverySchema = z
  .object({
    id: z.string().max(40).openapi({ description: "The message id: the `webhook-id` header of every attempt.", example: "msg_2b0f4c7e9a1d4b3f8e6a5c7d9e0f1a2b" }),
    type: z.string().max(40).openapi({ example: "job.updated" }),
    createdAt: z.string().max(30).openapi({ format: "date-time", example: "2026-11-22T15:00:00.000Z" }),
    attempts: int32(0, 100).openapi({ example: 1 }),
    lastStatusCode: int32(100, 599).nullable().openapi({ example: 200 }),
    status: z.enum(MESSAGE_STATUSES),
    nextAttemptAt: z.string().max(30).nullable().openapi({ format: "date-time", example: null }),
  })
  .openapi("WebhookDelivery");

export const DeliveryListSchema = z.object({ data: z.array(DeliverySchema).max(100), paging: PagingSchema }).openapi("WebhookDeliveryList");

export const DeliveryQuerySchema = PagingQuerySchema.extend({
  status: z.enum(MESSAGE_STATUSES).optional().openapi({ param: { name: "status", in: "query" }, example: "failed" }),
});

export const MessageParamsSchema = IdParamSchema.extend({
  messageId: z
    .string()
    .regex(/^msg_[0-9a-f]{32}$/, "messageId must be a message id as the delivery log shows it (msg_ and 32 hex digits).")
    .openapi({ param: { name: "messageId", in: "path" }, maxLength: 36, example: "msg_2b0f4c7e9a1d4b3f8e6a5c7d9e0f1a2b" }),
});

export const AcceptedSchema = z
  .object({ id: z.string().max(40).openapi({ example: "msg_2b0f4c7e9a1d4b3f8e6a5c7d9e0f1a2b" }) })
  .openapi("WebhookMessageAccepted");
