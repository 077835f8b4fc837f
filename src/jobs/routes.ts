import { createRoute, z } from "@hono/zod-openapi";
import { requireJsonBody } from "../http/middleware/json-body";
import { IdParamSchema, problemResponses } from "../http/schemas";
import {
  JobByReferenceInputSchema,
  JobInputSchema,
  JobListQuerySchema,
  JobListSchema,
  JobSchema,
  ReferenceIdBodySchema,
} from "./schemas";

const tags = ["Jobs"];
const security = [{ ApiKey: [] }];
const JOBS = "/api/v1.1/jobs";
const JOB = "/api/v1.1/jobs/{id}";

const jsonBody = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});
const jobResponse = (description: string) => ({ description, content: { "application/json": { schema: JobSchema } } });
const locationHeader = {
  Location: {
    description: "Absolute address of the new job: {base_url}/api/v1.1/jobs/{id}.",
    schema: { type: "string" as const, example: "https://api.example.com/api/v1.1/jobs/1234" },
  },
};

export const getJobRoute = createRoute({
  method: "get",
  path: JOB,
  tags,
  security,
  summary: "Read one job",
  request: { params: IdParamSchema },
  responses: { 200: jobResponse("The job."), ...problemResponses(400, 401, 404, 429, 500) },
});

export const listJobsRoute = createRoute({
  method: "get",
  path: JOBS,
  tags,
  security,
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
  summary: "Create a job",
  description:
    "Defaults: status draft, closeDate 60 days after publishDate, booleans false. A referenceId already used by you is a 409 naming the existing job (`existingJobId`).",
  middleware: [requireJsonBody] as const,
  request: { body: jsonBody(JobInputSchema, "The job; locations and categories are required.") },
  responses: {
    201: { ...jobResponse("Created."), headers: locationHeader },
    ...problemResponses(400, 401, 409, 413, 415, 429, 500),
  },
});

export const updateJobRoute = createRoute({
  method: "put",
  path: JOB,
  tags,
  security,
  summary: "Partially update a job",
  description:
    "Only the members sent change (JSON Merge Patch); the merged job must satisfy every rule. Moving back to draft is a 409.",
  middleware: [requireJsonBody] as const,
  request: { params: IdParamSchema, body: jsonBody(JobInputSchema, "The members to change.") },
  responses: { 200: jobResponse("Updated."), ...problemResponses(400, 401, 404, 409, 413, 415, 429, 500) },
});

export const putJobByReferenceRoute = createRoute({
  method: "put",
  path: JOBS,
  tags,
  security,
  summary: "Create or partially update the job with this referenceId",
  description: "Idempotent: repeating the same PUT never creates a second job, even when the repeats arrive together.",
  middleware: [requireJsonBody] as const,
  request: { body: jsonBody(JobByReferenceInputSchema, "referenceId names the job; the other members as for POST.") },
  responses: {
    200: jobResponse("Updated."),
    201: { ...jobResponse("Created."), headers: locationHeader },
    ...problemResponses(400, 401, 409, 413, 415, 429, 500),
  },
});

export const deleteJobRoute = createRoute({
  method: "delete",
  path: JOB,
  tags,
  security,
  summary: "Delete a job",
  request: { params: IdParamSchema },
  responses: { 204: { description: "Deleted; no body." }, ...problemResponses(400, 401, 404, 429, 500) },
});

export const deleteJobByReferenceRoute = createRoute({
  method: "delete",
  path: JOBS,
  tags,
  security,
  summary: "Delete the job with this referenceId",
  middleware: [requireJsonBody] as const,
  request: { body: jsonBody(ReferenceIdBodySchema, "The job's referenceId.") },
  responses: { 204: { description: "Deleted; no body." }, ...problemResponses(400, 401, 404, 413, 415, 429, 500) },
});
