import { createRoute } from "../../http/openapi-hono";
import { API_PREFIX } from "../../http/version";
import { requireJsonBody } from "../../http/middleware/json-body";
import { problemResponses } from "../../http/schemas";
import { IdempotencyKeyHeaderSchema } from "../../idempotency/schemas";
import { ValidateOnlyQuerySchema } from "../schemas";
import { MAX_RECONCILE_IDS, ReconcileRequestSchema, ReconcileResponseSchema } from "./schemas";

export const reconcileJobsRoute = createRoute({
  method: "post",
  path: `${API_PREFIX}/jobs/reconcile`,
  tags: ["Jobs"],
  security: [{ ApiKey: [] }],
  operationId: "reconcileJobs",
  summary: "Archive or delete every active job not in your list",
  description: [
    `Send the referenceIds of all your open jobs (1 to ${MAX_RECONCILE_IDS}): every \`active\` job of yours whose referenceId is not listed is archived (or, with \`action: "delete"\`, deleted).`,
    "Drafts, archived jobs and jobs without a referenceId are never touched.",
    "Each job changed emits the events of the single request: `job.updated` and `job.archived`, or `job.deleted`.",
    "All of it is one atomic step. `validateOnly=true` answers what would change and changes nothing; Idempotency-Key works as on `POST /jobs/batch`.",
  ].join(" "),
  middleware: [requireJsonBody] as const,
  request: {
    query: ValidateOnlyQuerySchema,
    headers: IdempotencyKeyHeaderSchema,
    body: { required: true, description: "The referenceIds that stay open, and what to do with the rest.", content: { "application/json": { schema: ReconcileRequestSchema } } },
  },
  responses: {
    200: { description: "The jobs archived or deleted (or that would be).", content: { "application/json": { schema: ReconcileResponseSchema } } },
    ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429, 500),
  },
});
