import { createRoute } from "../http/openapi-hono";
import * as z from "../http/zod";
import { documentedObject } from "../http/documented-object";
import { boundedJsonBody } from "../http/middleware/json-body";
import { IdParamSchema, problemResponses } from "../http/schemas";
import { API_PREFIX } from "../http/version";
import { requireJsonBody } from "../http/middleware/json-body";
import {
  ApplicationHistorySchema,
  ApplicationInputSchema,
  ApplicationListQuerySchema,
  ApplicationListSchema,
  ApplicationMoveSchema,
  ApplicationReceiptSchema,
  ApplicationSchema,
} from "./schemas";

const json = <T>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

export const ApplicationFormSchema = z
  .object({
    ...ApplicationInputSchema.shape,
    answers: z
      .string()
      .max(200_000)
      .optional()
      .openapi({ description: "The answers as JSON text; or, instead, one field per question named `answers[key]` (repeated for multiChoice; yesNo `true`/`false`, numbers as JSON numbers)." }),
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

/** DESIGN 21: a test job's application, made with a test key (routes.ts's twin of the apply path). */
export const APPLY_TEST_PATH = `${API_PREFIX}/jobs/:id/applications/test`;

export const applyToTestJobRoute = createRoute({
  ...applyRoute,
  path: `${API_PREFIX}/jobs/{id}/applications/test`,
  tags: ["Applications"],
  security: [{ ApiKey: [] }],
  operationId: "applyToTestJob",
  summary: "Apply to one of your test jobs (test keys)",
  description:
    "With a jpa_test_ key, for a job of your test space that the board would show and whose applicantRoutingType is 1: an application exactly as `POST /board/jobs/{id}/applications` makes it, with its events (application.received) and webhooks, but no email is sent. Any other job, or a live key: 404.",
  responses: {
    201: json(ApplicationReceiptSchema, "Received."),
    ...problemResponses(400, 401, 404, 409, 413, 415, 429),
  },
});

export const listJobApplicationsRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/jobs/{id}/applications`,
  tags: ["Applications"],
  security: [{ ApiKey: [] }],
  operationId: "listJobApplications",
  summary: "List a job's applications",
  description: "Newest first; filter by status and by screenedOut.",
  request: { params: IdParamSchema, query: ApplicationListQuerySchema },
  responses: { 200: json(ApplicationListSchema, "A page of applications.") },
});

const etagHeader = { ETag: { description: "The application's ETag: send it in If-Match to move it only if nobody did since.", schema: { type: "string" as const, maxLength: 40, example: '"51.3"' } } };

export const moveApplicationRoute = createRoute({
  method: "put",
  path: `${API_PREFIX}/applications/{id}`,
  tags: ["Applications"],
  security: [{ ApiKey: [] }],
  operationId: "moveApplication",
  summary: "Move an application to a status",
  description:
    "received → reviewing → interviewing → offered → hired; rejected or withdrawn from any non-final status (any move between non-final ones is allowed). " +
    "A move out of hired, rejected or withdrawn is a 409. Each move is kept in the history; with `notifyApplicant` (rejected or hired) the applicant is emailed.",
  middleware: [requireJsonBody] as const,
  request: {
    params: IdParamSchema,
    headers: z.object({ "if-match": z.string().max(1024).optional().openapi({ description: "The ETag you hold: the move happens only if it is still the current one (else 412).", example: '"51.3"' }) }),
    body: { required: true, content: { "application/json": { schema: ApplicationMoveSchema } } },
  },
  responses: { 200: { ...json(ApplicationSchema, "Moved: the application and its new ETag."), headers: etagHeader }, ...problemResponses(400, 403, 404, 409, 412, 413, 415) },
});

export const applicationHistoryRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/applications/{id}/history`,
  tags: ["Applications"],
  security: [{ ApiKey: [] }],
  operationId: "getApplicationHistory",
  summary: "An application's moves, oldest first",
  description: "Starts with received; every move since, with its note.",
  request: { params: IdParamSchema },
  responses: { 200: json(ApplicationHistorySchema, "The moves.") },
});

export const getApplicationRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/applications/{id}`,
  tags: ["Applications"],
  security: [{ ApiKey: [] }],
  operationId: "getApplication",
  summary: "Read an application",
  request: {
    params: IdParamSchema,
    headers: z.object({ "if-none-match": z.string().max(1024).optional().openapi({ description: "An ETag you hold: 304 with no body while the application still has it.", example: '"51.3"' }) }),
  },
  responses: {
    200: { ...json(ApplicationSchema, "The application, its pipeline status and the state of its emails."), headers: etagHeader },
    304: { description: "Not modified: the application still has the ETag you sent.", headers: etagHeader },
  },
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
