import * as z from "../http/zod";
import { int32 } from "../http/limits";
import { EMPLOYER_EVENT_TYPES, OPERATOR_REASONS } from "../events/types";

// DESIGN 26a: what an employer event's webhook carries, for the OpenAPI document's `webhooks`
// (recorded by src/employers/suspension.ts, sent as recorded by src/webhooks).

const EmployerEventSchema = z
  .object({
    type: z.enum(EMPLOYER_EVENT_TYPES),
    timestamp: z.string().max(30).openapi({ format: "date-time", example: "2026-11-23T09:30:00.000Z" }),
    data: z.object({
      employer: z.object({ id: int32(), name: z.string().max(128) }),
      reason: z.enum(OPERATOR_REASONS).openapi({ description: "The operator's reason.", example: "fraud" }),
      at: z.string().max(30).openapi({ format: "date-time", example: "2026-11-23T09:30:00.000Z" }),
    }),
  })
  .openapi("EmployerEvent");

const DESCRIPTIONS: Record<(typeof EMPLOYER_EVENT_TYPES)[number], string> = {
  "employer.suspended":
    "The board's operator suspended your employer account: every job is off the board, your writes answer 403 `/problems/employer-suspended`, your reads still answer.",
  "employer.reinstated": "The board's operator reinstated your employer account: your active jobs are back on the board (removed ones excepted), your writes work again.",
};

/** One `webhooks` entry per employer event type (Standard Webhooks: signed POSTs to your endpoint). */
export const employerEventWebhooks = EMPLOYER_EVENT_TYPES.map((type) => ({
  method: "post" as const,
  path: type,
  tags: ["Webhooks"],
  summary: type,
  description: `${DESCRIPTIONS[type]} Sent to your endpoints subscribed to this type, signed (webhook-id, webhook-timestamp, webhook-signature). Answer 2xx.`,
  request: { body: { required: true, content: { "application/json": { schema: EmployerEventSchema } } } },
  responses: { 200: { description: "Received." } },
}));
