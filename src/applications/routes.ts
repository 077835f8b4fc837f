import { createRoute, z } from "@hono/zod-openapi";
import { documentedObject } from "../http/documented-object";
import { boundedJsonBody } from "../http/middleware/json-body";
import { IdParamSchema, PagingQuerySchema, problemResponses } from "../http/schemas";
import { API_PREFIX } from "../http/version";
import { ApplicationInputSchema, ApplicationListSchema, ApplicationReceiptSchema, ApplicationSchema } from "./schemas";

const json = <T>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

export const ApplicationFormSchema = z
  .object({
    ...ApplicationInputSchema.shape,
    resume: z.string().max(5 * 1024 * 1024).optional().openapi({ type: "string", format: "binary", maxLength: 5 * 1024 * 1024, description: "PDF, DOCX or plain text, at most 5 MiB; recognised by its bytes." }),
    "cf-turnstile-response": z.string().max(2048).optional().openapi({ description: "Required when the deployment sets TURNSTILE_SECRET." }),
  })
  .openapi("ApplicationForm");

/** The apply path, for the middleware that must run before its body is read (src/app.ts). */
export const APPLY_PATH = `${API_PREFIX}/board/jobs/:id/applications`;

export const applyRoute = createRoute({
  method: "post",
  path: `${API_PREFIX}/board/jobs/{id}/applications`,
  tags: ["Job board"],
  security: [],
  operationId: "applyToJob",
  middleware: [boundedJsonBody] as const,
  summary: "Apply to a job on the board",
  description:
    "For jobs whose applicantRoutingType is 1 (Email): the application is stored and a copy is emailed to the employer. JSON, or multipart/form-data with a résumé. Bodies up to 6 MiB. At most 10 per 60 s per address.",
  request: {
    params: IdParamSchema,
    body: {
      required: true,
      content: {
        "application/json": { schema: documentedObject<typeof ApplicationInputSchema>("ApplicationInput") },
        "multipart/form-data": { schema: documentedObject<typeof ApplicationFormSchema>("ApplicationForm") },
      },
    },
  },
  responses: {
    201: json(ApplicationReceiptSchema, "Received."),
    ...problemResponses(400, 404, 409, 413, 415, 429),
  },
});

export const listJobApplicationsRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/jobs/{id}/applications`,
  tags: ["Applications"],
  security: [{ ApiKey: [] }],
  operationId: "listJobApplications",
  summary: "List a job's applications",
  description: "Newest first.",
  request: { params: IdParamSchema, query: PagingQuerySchema },
  responses: { 200: json(ApplicationListSchema, "A page of applications.") },
});

export const getApplicationRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/applications/{id}`,
  tags: ["Applications"],
  security: [{ ApiKey: [] }],
  operationId: "getApplication",
  summary: "Read an application",
  request: { params: IdParamSchema },
  responses: { 200: json(ApplicationSchema, "The application and the status of its emailed copy.") },
});

export const getResumeRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/applications/{id}/resume`,
  tags: ["Applications"],
  security: [{ ApiKey: [] }],
  operationId: "getApplicationResume",
  summary: "Download an application's résumé",
  request: { params: IdParamSchema },
  responses: {
    200: {
      description: "The file, as an attachment, in its recognised type.",
      content: {
        "application/pdf": { schema: { type: "string" as const, format: "binary", maxLength: 5 * 1024 * 1024, example: "%PDF-1.7 …" } },
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document": {
          schema: { type: "string" as const, format: "binary", maxLength: 5 * 1024 * 1024, example: "PK…" },
        },
        "text/plain": { schema: { type: "string" as const, maxLength: 5 * 1024 * 1024, example: "Ada Lovelace, mathematician." } },
      },
    },
  },
});
