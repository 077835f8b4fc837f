import { createRoute } from "../http/openapi-hono";
import { IdParamSchema, problemResponses } from "../http/schemas";
import { API_PREFIX } from "../http/version";
import { JobStatsSchema, StatsQuerySchema } from "./schemas";

export const jobStatsRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/jobs/{id}/stats`,
  tags: ["Jobs"],
  security: [{ ApiKey: [] }],
  operationId: "getJobStats",
  summary: "A job's views and applications per day",
  description: [
    "Every day of the range (UTC, both ends included, zeros too) with `views` and `applications`, and their `totals`.",
    "Views are answers of `GET /board/jobs/{id}` and of the job's pages (200, or 304: the page was shown), cached repeats included; they arrive within seconds.",
    "Applications are counted on the day they were received. A test job's numbers stay 0.",
  ].join(" "),
  request: { params: IdParamSchema, query: StatsQuerySchema },
  responses: {
    200: { description: "The job's numbers.", content: { "application/json": { schema: JobStatsSchema } } },
    ...problemResponses(400, 401, 404, 429, 500),
  },
});
