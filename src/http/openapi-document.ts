// The OpenAPI document, built at build time (scripts/openapi.mjs), never in the Worker: from the
// definitions the app recorded as it registered its routes (src/http/openapi-hono.ts), completed
// with what the shared middleware does, by @hono/zod-openapi's generator (zod-to-openapi). The
// Worker serves the result, with `servers` filled in per request (src/http/openapi.ts).
import { OpenAPIHono as DocumentedHono, type RouteConfig } from "@hono/zod-openapi";
import type { DefinitionRecorder } from "./openapi-hono";
import { problemResponses, type ProblemStatus } from "./schemas";

const DESCRIPTION = `
Create, update, archive, re-publish, delete and list your job postings, and read the reference
data (locations, categories, position, salary and applicant routing types) they refer to.

## Authentication
Every job operation needs your key in the \`API-Key\` header. A missing or unknown key is a
\`401\` with \`WWW-Authenticate: API-Key\`. Reference data and this document are public.

## Errors
Every error is an [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) \`application/problem+json\`
body: \`type\`, \`title\`, \`status\`, \`detail\`, \`instance\`, \`requestId\` and, for a \`400\`,
\`errors\`: one \`{ "field", "message" }\` entry per broken rule (all of them, not only the first).
\`field\` is the member's path in the body (\`locations[1].description\`, \`salary.type.id\`) or the
query parameter's name (\`pageSize\`). A job of another employer is a \`404\`, never a \`403\`
(a \`403\` means your account is suspended: see Trust and safety).
An unknown path is a \`404\` and a method the path does not support is a \`405\` with \`Allow\`;
both with the same problem body. A \`500\` never carries internals: quote its \`requestId\`.
A \`503\` with \`Retry-After\` means the database stayed busy through the server's own retries
(\`/problems/service-unavailable\`), or your data is being moved to another database
(\`/problems/employer-moving\`: your reads are served, your writes refused for the seconds its
last step takes): send the request again after that many seconds (with the same
\`Idempotency-Key\` for a \`POST\`); nothing of a refused request was stored.

Every response carries an \`X-Request-Id\` header; include it when you report a problem.

## Trust and safety
The board's operator may remove a job that breaks the board's rules: \`GET /jobs/{id}\` then
carries \`moderation\` (\`{ "status": "removed", "reason", "at" }\`), the job is archived and off
the board, and a write that would publish it is a \`409\` (\`/problems/job-removed\`); other
changes are allowed, so you can fix it before asking for a review. Your webhooks receive
\`job.removed\` and \`job.restored\`. The operator may also suspend your employer account: every
job leaves the board, your writes answer \`403\` (\`/problems/employer-suspended\`, nothing
stored), your reads still answer, and your webhooks receive \`employer.suspended\` (then
\`employer.reinstated\`).

## Paging
Lists take \`page\` (default 1) and \`pageSize\` (default 10, at most 100) and answer
\`{ "data": [...], "paging": { total, page, pages, pageSize, previous, next } }\`.
\`previous\` and \`next\` are ready-made absolute addresses carrying the same query parameters
(\`null\` at either end): follow them rather than building page addresses yourself.

## Method override
Clients that cannot send \`PUT\` or \`DELETE\` send \`POST\` with the header
\`X-HTTP-Method-Override: PUT\` (or \`DELETE\`). The header is read only on \`POST\` and only
these two values count; anything else leaves the request a \`POST\`.

## Rate limits
Job requests are limited per employer: all of its API keys together share one limit. Every
answer says which limit applies in a \`RateLimit-Policy\` header (\`"jobs";q=1000;w=60\`: 1 000
requests per 60 seconds). Over the limit, the answer is \`429\` with a \`Retry-After\` header
giving the seconds to wait; retry after that, not before. A batch counts as one request.

## CORS
Reference data and this document may be read from any origin (\`Access-Control-Allow-Origin: *\`,
preflights answered). The job API sends no CORS headers: API keys do not belong in browsers.

## Safe retries and concurrent editors
Every answer carrying one job has an \`ETag\`. Send it in \`If-Match\` on a PUT or DELETE to
change the job only if nobody else did (else \`412\`), and in \`If-None-Match\` on a GET for a
\`304\` while it is unchanged. \`Idempotency-Key\` on \`POST /jobs\` and \`POST /jobs/batch\`
makes a retry answer the first response again. \`?validateOnly=true\` checks a write without
storing it.

## Read-your-writes consistency
Responses carry an \`X-D1-Bookmark\` header naming the database state they reflect. Send the
last one you received back in the \`X-D1-Bookmark\` request header, and the next read is
guaranteed to see at least that state, even when served from a read replica.

## Versioning
The version is part of the path: \`/api/v1.1\`.
`.trim();

const TAGS = [
  {
    name: "Jobs",
    description:
      "Your job postings: create (POST, or PUT with a referenceId), read, list, partially update, archive and re-publish (status), delete. API key required.",
  },
  {
    name: "Webhooks",
    description:
      "Endpoints that receive your jobs' lifecycle events (Standard Webhooks: signed, retried, never lost once stored), their delivery log and test events. API key required.",
  },
  {
    name: "Employer",
    description:
      "Your public name and the settings the Canadian posting rules read (Ontario headcount, federal regulation, warn or enforce). API key required.",
  },
  {
    name: "Job board",
    description: "The public side: every employer's active jobs for job seekers, with schema.org JobPosting. No key; cacheable; any origin.",
  },
  {
    name: "Applications",
    description: "Applications job seekers sent through the board for your jobs (routing type 1), with their résumés. API key required.",
  },
  {
    name: "Reference data",
    description:
      "Ids that job requests refer to: position types, salary types, applicant routing types, job categories and Canadian locations. Public, cacheable.",
  },
];

/** The document's top level; `servers` is per request (the deployment as the client reached it). */
const DOCUMENT_CONFIG = {
  openapi: "3.1.0",
  info: { title: "Job Posting API", version: "1.1", description: DESCRIPTION },
  servers: [],
  tags: TAGS,
  // Secure by default: a public operation says so with `security: []`.
  security: [{ ApiKey: [] }],
};

/**
 * zod-to-openapi renders `.nullable()` of an already-registered schema as
 * `allOf: [{ $ref }, { type: [..., "null"] }]`, which rejects null (the `$ref` must hold too).
 * Rewritten to what it means: `anyOf: [{ $ref }, { type: "null" }]`.
 */
function fixNullableRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fixNullableRefs);
  if (typeof value !== "object" || value === null) return value;
  const node = Object.fromEntries(Object.entries(value).map(([key, member]) => [key, fixNullableRefs(member)]));
  const [ref, extra, ...more] = Array.isArray(node.allOf) ? node.allOf : [];
  if (more.length === 0 && ref?.$ref && Array.isArray(extra?.type) && extra.type.includes("null")) {
    const { type: _type, ...metadata } = extra;
    const { allOf: _allOf, ...rest } = node;
    const nonNull = Object.keys(metadata).length ? { allOf: [ref, metadata] } : ref;
    return { ...rest, anyOf: [nonNull, { type: "null" }] };
  }
  return node;
}

// Always sent with the responses that document them, hence `required`.
const HEADERS = {
  RequestId: { description: "Identifies this request in our logs.", required: true, schema: { type: "string", maxLength: 64 } },
  RetryAfter: { description: "Seconds to wait before retrying.", required: true, schema: { type: "integer", format: "int32", minimum: 0, maximum: 86400 } },
  RateLimitPolicy: {
    description:
      'The rate limit that applies (IETF draft-ietf-httpapi-ratelimit-headers): `"jobs";q=1000;w=60` is 1 000 requests per 60 seconds per employer, all its keys together.',
    required: true,
    schema: { type: "string", maxLength: 100, example: '"jobs";q=1000;w=60' },
  },
  WwwAuthenticate: {
    description: "The credential the API expects.",
    required: true,
    schema: { type: "string", maxLength: 64, example: 'API-Key header="API-Key"' },
  },
} as const;

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

type Responses = RouteConfig["responses"];

/**
 * Responses the shared middleware and hooks can produce for any operation, so that no route
 * has to remember them: 400 from request validation, 401 and 429 from authentication and rate
 * limiting, 404 for an id in the path, 413/415 for a body, 500 and 503 (a busy database) always.
 * A route's own entry wins.
 */
function standardProblems(route: RouteConfig): ProblemStatus[] {
  const request = route.request ?? {};
  return [
    ...(request.params || request.query || request.body ? [400 as const] : []),
    ...(isPublic(route) ? [] : [401 as const, 429 as const]),
    ...(route.path.includes("{") ? [404 as const] : []),
    ...(request.body ? [413 as const, 415 as const] : []),
    500 as const,
    503 as const,
  ];
}

function withHeaders(status: string, response: Responses[string], limited: boolean): Responses[string] {
  if ("$ref" in response) return response;
  const headers: Record<string, unknown> = { "X-Request-Id": headerRef("RequestId") };
  if (limited && /^[24]/.test(status)) headers["RateLimit-Policy"] = headerRef("RateLimitPolicy");
  if (status === "401") headers["WWW-Authenticate"] = headerRef("WwwAuthenticate");
  if (status === "429" || status === "503") headers["Retry-After"] = headerRef("RetryAfter");
  return { ...response, headers: { ...headers, ...(response.headers as object | undefined) } as never };
}

const isPublic = (route: RouteConfig) => Array.isArray(route.security) && route.security.length === 0;

function completeOperation(route: RouteConfig): RouteConfig {
  const responses: Responses = { ...problemResponses(...standardProblems(route)), ...route.responses };
  // Authenticated operations are rate limited per employer, and say so on every answer.
  const limited = !isPublic(route);
  return {
    ...route,
    responses: Object.fromEntries(Object.entries(responses).map(([status, r]) => [status, withHeaders(status, r, limited)])),
  };
}

/**
 * The document of every operation `app` registered (call it with the app, all routes mounted):
 * each operation completed and the shared components registered, so that the document describes
 * what the middleware really does.
 */
export function buildDocument(app: { openAPIRegistry: unknown }): object {
  const generator = new DocumentedHono();
  const registry = generator.openAPIRegistry;
  for (const definition of (app.openAPIRegistry as DefinitionRecorder).definitions) {
    if (definition.type === "route") registry.registerPath(completeOperation(definition.route));
    else if (definition.type === "schema") registry.register(definition.refId, definition.schema);
    else if (definition.type === "webhook") registry.registerWebhook(definition.webhook);
    else registry.registerComponent(definition.componentType as never, definition.name, definition.component as never);
  }
  registry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "API-Key",
    description: 'Your employer API key. Create one with `npm run keys -- create --name "Acme Ltd."`.',
  });
  for (const [name, header] of Object.entries(HEADERS)) registry.registerComponent("headers", name, header);
  return fixNullableRefs(generator.getOpenAPI31Document(DOCUMENT_CONFIG)) as object;
}
