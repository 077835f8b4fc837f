import { createRoute } from "../http/openapi-hono";
import { IdParamSchema, publicCorsHeaders } from "../http/schemas";
import { API_PREFIX } from "../http/version";
import { BoardJobSchema, BoardListSchema, BoardQuerySchema } from "./schemas";

const tags = ["Job board"];
const cached = {
  ...publicCorsHeaders,
  "Cache-Control": { description: "`public, max-age=60`: a repeat may be up to 60 s old (a 404: `max-age=5`, so a job just published shows within 5 s).", schema: { type: "string" as const, maxLength: 40 } },
  ETag: { description: "Send it back in If-None-Match for a 304.", schema: { type: "string" as const, maxLength: 64 } },
};

export const listBoardJobsRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/board/jobs`,
  tags,
  security: [],
  operationId: "listBoardJobs",
  summary: "Search the job board",
  description: "Every employer's active jobs not past their closeDate, newest first; cursor paging.",
  request: { query: BoardQuerySchema },
  responses: { 200: { description: "A page of the board.", headers: cached, content: { "application/json": { schema: BoardListSchema } } } },
});

export const getBoardJobRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/board/jobs/{id}`,
  tags,
  security: [],
  operationId: "getBoardJob",
  summary: "Read a job on the board",
  description: "The public job with how to apply and a schema.org JobPosting. Drafts, archived and expired jobs: 404.",
  request: { params: IdParamSchema },
  responses: {
    200: { description: "The public job.", headers: cached, content: { "application/json": { schema: BoardJobSchema } } },
    304: { description: "Unchanged since the ETag you sent." },
  },
});
