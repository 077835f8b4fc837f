import { createRoute } from "../http/openapi-hono";
import * as z from "../http/zod";
import { API_PREFIX } from "../http/version";
import { documentedObject } from "../http/documented-object";
import { requireJsonBody } from "../http/middleware/json-body";
import { IdempotencyKeyHeaderSchema } from "../idempotency/schemas";
import { IdParamSchema, problemResponses } from "../http/schemas";
import {
  JobByReferenceInputSchema,
  JobInputSchema,
  JobListQuerySchema,
  JobListSchema,
  JobPreviewSchema,
  JobSchema,
  ReferenceIdBodySchema,
  ValidateOnlyQuerySchema,
} from "./schemas";

const tags = ["Jobs"];
const security = [{ ApiKey: [] }];
const JOBS = `${API_PREFIX}/jobs`;
const JOB = `${API_PREFIX}/jobs/{id}`;

const jsonBody = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});
const etagHeader = {
  ETag: {
    description: "The job's current entity tag (DESIGN 11): send it in If-Match to change the job only if nobody else did.",
    schema: { type: "string" as const, maxLength: 64, example: '"1234.7.1"' },
  },
};
const jobResponse = (description: string) => ({
  description,
  headers: etagHeader,
  content: { "application/json": { schema: JobSchema } },
});
const locationHeader = {
  Location: {
    description: "Absolute address of the new job: {base_url}/api/v1.1/jobs/{id}.",
    schema: { type: "string" as const, maxLength: 2048, example: "https://api.example.com/api/v1.1/jobs/1234" },
  },
  ...etagHeader,
};
const previewResponse = {
  description: "`validateOnly=true`: the job as it would be stored; nothing was written.",
  content: { "application/json": { schema: JobPreviewSchema } },
};
/** 200 of a PUT: the updated job, or with `validateOnly=true` the job as it would be stored. */
const updatedOrPreview = {
  description: "Updated (with an ETag), or with `validateOnly=true` the job as it would be stored (nothing written).",
  headers: etagHeader,
  content: { "application/json": { schema: z.union([JobSchema, JobPreviewSchema]) } },
};
const ifMatchHeader = z.object({
  "if-match": z
    .string()
    .max(1024)
    .optional()
    .openapi({
      description:
        "Change the job only if its current ETag is one of these (`*`: any existing job). Otherwise 412 with the current ETag. Weak tags never match.",
      example: '"1234.7.1"',
    }),
});

export const getJobRoute = createRoute({
  method: "get",
  path: JOB,
  tags,
  security,
  operationId: "getJob",
  summary: "Read one job",
  request: {
    params: IdParamSchema,
    headers: z.object({
      "if-none-match": z
        .string()
        .max(1024)
        .optional()
        .openapi({ description: "An ETag you hold: 304 with no body while the job still has it.", example: '"1234.7.1"' }),
    }),
  },
  responses: {
    200: jobResponse("The job."),
    304: { description: "The job still has the ETag you sent in If-None-Match.", headers: etagHeader },
    ...problemResponses(400, 401, 404, 429, 500),
  },
});

export const listJobsRoute = createRoute({
  method: "get",
  path: JOBS,
  tags,
  security,
  operationId: "listJobs",
  summary: "List your jobs",
  description:
    "Headers of your jobs, newest publishDate first (then highest id). `q` matches title or referenceId (case-insensitive substring).",
  request: { query: JobListQuerySchema },
  responses: {
    200: { description: "A page of job headers.", content: { "application/json": { schema: JobListSchema } } },
    ...problemResponses(400, 401, 429, 500),
  },
});

export const createJobRoute = createRoute({
  method: "post",
  path: JOBS,
  tags,
  security,
  operationId: "createJob",
  summary: "Create a job",
  description:
    "Defaults: status draft, closeDate 60 days after publishDate, booleans false. A referenceId already used by you is a 409 naming the existing job (`existingJobId`).",
  middleware: [requireJsonBody] as const,
  request: {
    query: ValidateOnlyQuerySchema,
    headers: IdempotencyKeyHeaderSchema,
    body: jsonBody(documentedObject<typeof JobInputSchema>("JobInput"), "The job; locations and categories are required."),
  },
  responses: {
    200: previewResponse,
    201: { ...jobResponse("Created (or, with Idempotent-Replayed: true, the first response to this Idempotency-Key again)."), headers: locationHeader },
    ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429, 500),
  },
});

export const updateJobRoute = createRoute({
  method: "put",
  path: JOB,
  tags,
  security,
  operationId: "updateJob",
  summary: "Partially update a job",
  description:
    "Only the members sent change (JSON Merge Patch); the merged job must satisfy every rule. Moving back to draft is a 409. A job the board's operator removed (its `moderation` member) may be changed but not published: `status: active` is a 409 `/problems/job-removed`.",
  middleware: [requireJsonBody] as const,
  request: {
    params: IdParamSchema,
    query: ValidateOnlyQuerySchema,
    headers: ifMatchHeader,
    body: jsonBody(documentedObject<typeof JobInputSchema>("JobInput"), "The members to change."),
  },
  responses: { 200: updatedOrPreview, ...problemResponses(400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 500) },
});

export const putJobByReferenceRoute = createRoute({
  method: "put",
  path: JOBS,
  tags,
  security,
  operationId: "putJobByReferenceId",
  summary: "Create or partially update the job with this referenceId",
  description:
    "Idempotent: repeating the same PUT never creates a second job, even when the repeats arrive together. A job the board's operator removed may be changed but not published (409 `/problems/job-removed`).",
  middleware: [requireJsonBody] as const,
  request: {
    query: ValidateOnlyQuerySchema,
    headers: ifMatchHeader,
    body: jsonBody(
      documentedObject<typeof JobByReferenceInputSchema>("JobByReferenceInput"),
      "referenceId names the job; the other members as for POST.",
    ),
  },
  responses: {
    200: updatedOrPreview,
    201: { ...jobResponse("Created."), headers: locationHeader },
    ...problemResponses(400, 401, 403, 409, 412, 413, 415, 422, 429, 500),
  },
});

export const deleteJobRoute = createRoute({
  method: "delete",
  path: JOB,
  tags,
  security,
  operationId: "deleteJob",
  summary: "Delete a job",
  request: { params: IdParamSchema, headers: ifMatchHeader },
  responses: { 204: { description: "Deleted; no body." }, ...problemResponses(400, 401, 403, 404, 412, 429, 500) },
});

export const deleteJobByReferenceRoute = createRoute({
  method: "delete",
  path: JOBS,
  tags,
  security,
  operationId: "deleteJobByReferenceId",
  summary: "Delete the job with this referenceId",
  middleware: [requireJsonBody] as const,
  request: { headers: ifMatchHeader, body: jsonBody(ReferenceIdBodySchema, "The job's referenceId.") },
  responses: { 204: { description: "Deleted; no body." }, ...problemResponses(400, 401, 403, 404, 412, 413, 415, 429, 500) },
});
