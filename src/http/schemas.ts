import * as z from "./zod";
import { INT32_MAX, int32 } from "./limits";

export const FieldErrorSchema = z
  .object({
    field: z.string().max(300).openapi({ example: "salary.type.id" }),
    message: z.string().max(1000).openapi({ example: "salary.type.id is required." }),
    rule: z.string().max(40).optional().openapi({ description: "`/problems/posting-rules` only: the broken posting rule's id.", example: "on.pay" }),
    law: z.string().max(200).optional().openapi({ description: "`/problems/posting-rules` only: the law's citation.", example: "Employment Standards Act, 2000, S.O. 2000, c. 41, s. 8.2; O. Reg. 476/24" }),
  })
  .openapi("FieldError");

export const ProblemSchema = z
  .object({
    type: z.string().max(200).openapi({ example: "/problems/validation-error" }),
    title: z.string().max(200).openapi({ example: "Your request is not valid." }),
    status: int32(400, 599).openapi({ example: 400 }),
    detail: z.string().max(2000).openapi({ example: "The request has invalid members; see errors." }),
    errors: z.array(FieldErrorSchema).max(1000).optional(),
    instance: z.string().max(2048).openapi({ example: "/api/v1.1/jobs" }),
    requestId: z.string().max(64).openapi({ example: "5f0c6e2e-3d1b-4b8e-9a51-0c1d2e3f4a5b" }),
  })
  .passthrough()
  .openapi("Problem", { description: "RFC 9457 problem details; every error response has this shape." });

const PROBLEM_DESCRIPTIONS = {
  400: "Malformed JSON or failed validation; `errors` names every broken member.",
  401: "Missing or unknown API-Key.",
  403: "The board's operator suspended your employer account (`/problems/employer-suspended`): reads are served, writes refused, nothing of the request stored.",
  404: "No such resource (or it belongs to another employer).",
  405: "Method not allowed on this path; see the Allow header.",
  409: "Conflict with the current state; `type` says which (on a job write, `/problems/job-removed`: the board's operator removed the job, which may be changed but not published until restored).",
  412: "If-Match named none of the job's current ETag; the ETag header carries the current one.",
  413: "Request body larger than 1 MiB.",
  415: "Body is not application/json.",
  422:
    "The Idempotency-Key was already used with a different request body (`/problems/idempotency-key-reused`); or, on job writes while your " +
    "postingRules setting is `enforce`, the job would be active with a broken posting rule (`/problems/posting-rules`: one `errors[]` entry per rule, " +
    "with `field`, `rule`, `law` and `message`; nothing was stored).",
  429: "Rate limit exceeded; see Retry-After.",
  500: "Unexpected error; quote the requestId when asking for help.",
  503:
    "The database is briefly unavailable (busy or unreachable after retries: `/problems/service-unavailable`), or your data is being moved to " +
    "another database (`/problems/employer-moving`: reads are served, writes are refused, nothing of the request stored, for the seconds the move's " +
    "last step takes); retry after Retry-After seconds.",
} as const;

export type ProblemStatus = keyof typeof PROBLEM_DESCRIPTIONS;

/** OpenAPI response entries for the given error statuses, all with the problem+json schema. */
export function problemResponses<S extends ProblemStatus>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: PROBLEM_DESCRIPTIONS[status], content: { "application/problem+json": { schema: ProblemSchema } } },
    ]),
  ) as unknown as Record<S, { description: string; content: { "application/problem+json": { schema: typeof ProblemSchema } } }>;
}

export const PagingSchema = z
  .object({
    total: int32(0).openapi({ example: 42 }),
    page: int32().openapi({ example: 1 }),
    pages: int32(0).openapi({ example: 5 }),
    pageSize: int32(1, 100).openapi({ example: 10 }),
    previous: z.string().max(2048).nullable().openapi({ example: null }),
    next: z.string().max(2048).nullable().openapi({ example: "https://api.example.com/api/v1.1/jobs?status=active&page=2" }),
  })
  .openapi("Paging");

// Query values arrive as text: only decimals are accepted, then bounded as numbers, so that
// `page=0` reads "page must be at least 1." and `pageSize=500` "pageSize must be at most 100.".
const pageNumber = (name: string, fallback: number, max = INT32_MAX) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,9})$/, `${name} must be a whole number from 1 to ${max}.`)
    .optional()
    .transform((value) => (value === undefined ? fallback : Number(value)))
    .pipe(z.number().int().min(1).max(max))
    .openapi({ param: { name, in: "query" }, type: "integer", format: "int32", minimum: 1, maximum: max, default: fallback } as never);

/** `page` (default 1) and `pageSize` (default 10, at most 100), shared by every list. */
export const PagingQuerySchema = z.object({
  page: pageNumber("page", 1),
  pageSize: pageNumber("pageSize", 10, 100),
});

/** Path ids are canonical decimal Int32: no sign, no leading zero, no exponent. */
export const IdParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, `id must be a whole number from 1 to ${INT32_MAX}.`)
    .transform(Number)
    .refine((n) => n <= INT32_MAX, `id must be a whole number from 1 to ${INT32_MAX}.`)
    .openapi({ param: { name: "id", in: "path" }, type: "integer", format: "int32", minimum: 1, maximum: INT32_MAX, example: 1234 } as never),
});

/** DESIGN 11: what public responses (reference data, the document, the board) send for browsers. */
export const publicCorsHeaders = {
  "Access-Control-Allow-Origin": {
    description: "Public data: any origin may read it (`*`). The job API sends no CORS headers: keys do not belong in browsers.",
    schema: { type: "string" as const, enum: ["*"] },
  },
};
