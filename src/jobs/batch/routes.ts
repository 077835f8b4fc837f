import { createRoute } from "../../http/openapi-hono";
import { API_PREFIX } from "../../http/version";
import { requireJsonBody } from "../../http/middleware/json-body";
import { problemResponses } from "../../http/schemas";
import { IdempotencyKeyHeaderSchema } from "../../idempotency/schemas";
import { ValidateOnlyQuerySchema } from "../schemas";
import { BatchRequestSchema, BatchResponseSchema, MAX_BATCH_ENTRIES } from "./schemas";

export const syncJobsRoute = createRoute({
  method: "post",
  path: `${API_PREFIX}/jobs/batch`,
  tags: ["Jobs"],
  security: [{ ApiKey: [] }],
  operationId: "syncJobs",
  summary: "Upsert and delete many jobs in one request",
  description: [
    `Up to ${MAX_BATCH_ENTRIES} entries in all: each \`upsert\` entry is a \`PUT /jobs\` body (by referenceId; creates or partially updates),`,
    "each `delete` entry a `DELETE /jobs` body; either may carry `ifMatch`. A referenceId appears once per batch.",
    "Entries succeed or fail on their own; every accepted entry is written in one atomic step.",
    "The answer lists each entry's result in request order (upserts, then deletes) with the status the single request would have had.",
    "Counts as one request for the rate limit. Idempotency-Key and validateOnly work as on `POST /jobs`.",
  ].join(" "),
  middleware: [requireJsonBody] as const,
  request: {
    query: ValidateOnlyQuerySchema,
    headers: IdempotencyKeyHeaderSchema,
    body: { required: true, description: "The entries.", content: { "application/json": { schema: BatchRequestSchema } } },
  },
  responses: {
    200: { description: "Each entry's result, in request order.", content: { "application/json": { schema: BatchResponseSchema } } },
    ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429, 500),
  },
});
