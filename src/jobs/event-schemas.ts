import * as z from "../http/zod";
import { int32 } from "../http/limits";
import { JOB_EVENT_TYPES } from "../events/types";
import { JobSchema, MODERATION_REASONS } from "./schemas";

// DESIGN 13, 25, 26a: what a job event's webhook carries, for the OpenAPI document's `webhooks` (the
// sending itself is src/webhooks; the data is rendered by ./event-data.ts).

const EventActorSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("user"), id: int32().openapi({ description: "The person of your employer console who made the change." }) }),
    z.object({ type: z.literal("key") }).openapi({ description: "A request with one of your API keys." }),
    z.object({ type: z.literal("system") }).openapi({ description: "The service on its schedule: expiry, auto-refresh, the expiring notice." }),
    z.object({ type: z.literal("operator") }).openapi({ description: "The board's operator: a removal or a restoration (job.removed, job.restored)." }),
  ])
  .openapi("EventActor", { description: "Who made the change. Absent on events recorded before it was added." });

/** DESIGN 26a: what the operator did (job.removed: why and when; job.restored: when). */
const EventModerationSchema = z
  .object({
    status: z.enum(["removed", "restored"]),
    reason: z.enum(MODERATION_REASONS).optional().openapi({ description: "job.removed only: why." }),
    at: z.string().max(20).openapi({ format: "date-time", example: "2026-11-23T09:30:00Z" }),
  })
  .openapi("EventModeration", { description: "job.removed and job.restored only: the operator's act." });

const envelope = <T extends z.ZodType>(type: z.ZodType, data: T) => z.object({ type, timestamp: z.string().max(30).openapi({ format: "date-time", example: "2026-11-22T16:00:00.000Z" }), data });

const JobEventSchema = envelope(
  z.enum(JOB_EVENT_TYPES.filter((type) => type !== "job.deleted") as [string, ...string[]]),
  z.object({
    job: JobSchema,
    etag: z.string().max(64).openapi({ description: "The job's ETag after the change (quotes included)." }),
    revision: int32(),
    expiresAt: z.string().max(20).optional().openapi({ description: "job.expiring only: the closeDate." }),
    actor: EventActorSchema.optional(),
    moderation: EventModerationSchema.optional(),
  }),
).openapi("JobEvent");

const JobDeletedEventSchema = envelope(
  z.literal("job.deleted"),
  z.object({ job: z.object({ id: int32(), referenceId: z.string().max(50).nullable() }), actor: EventActorSchema.optional() }),
).openapi("JobDeletedEvent");

/** One `webhooks` entry per job event type (Standard Webhooks: signed POSTs to your endpoint). */
export const jobEventWebhooks = JOB_EVENT_TYPES.map((type) => ({
  method: "post" as const,
  path: type,
  tags: ["Webhooks"],
  summary: `${type}`,
  description: "Sent to your endpoints subscribed to this type, signed (webhook-id, webhook-timestamp, webhook-signature). Answer 2xx.",
  request: { body: { required: true, content: { "application/json": { schema: type === "job.deleted" ? JobDeletedEventSchema : JobEventSchema } } } },
  responses: { 200: { description: "Received." } },
}));
