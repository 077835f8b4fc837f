import { Validator, type Schema } from "@cfworker/json-schema";
// The official OpenAPI 3.1 JSON Schema (OAI, Apache-2.0), as packaged by
// @seriousme/openapi-schema-validator with `$dynamicRef`s turned into plain `$ref`s.
import oas31Schema from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { ApplicationInputSchema } from "../src/applications/schemas";
import { BatchDeleteEntrySchema, BatchUpsertEntrySchema } from "../src/jobs/batch/schemas";
import { JobByReferenceInputSchema, JobInputSchema } from "../src/jobs/schemas";
import worker from "../src/index";
import { BASE, request } from "./support/api";
import { CONSOLE_PAGES, documentAdmits, OUTSIDE_THE_DOCUMENT, PAGES_OUTSIDE_THE_DOCUMENT, schemaValidator } from "./support/contract";
import { openApiDocument, operations, type OpenApiDocument } from "./support/openapi-document";

function validateDocument(document: unknown) {
  return new Validator(oas31Schema as Schema, "2020-12", false).validate(document);
}

describe("OpenAPI document (GET /api/v1.1/openapi.json)", () => {
  it("is public: served without an API key", async () => {
    const res = await request("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  });

  it("is a valid OpenAPI 3.1 document according to the official OpenAPI 3.1 JSON Schema", async () => {
    const document = await openApiDocument();
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = validateDocument(document);
    expect(result.errors.filter((e) => !/subschema|did not match/i.test(e.error))).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("the validator is not vacuous: it rejects a document with a response lacking its description", async () => {
    const broken = structuredClone(await openApiDocument());
    delete (broken.paths["/api/v1.1/positiontypes"].get.responses["200"] as { description?: string }).description;
    expect(validateDocument(broken).valid).toBe(false);
  });

  it("documents every route the app serves (method and path)", async () => {
    const document = await openApiDocument();
    const served = createApp()
      .routes.filter(
        (route) =>
          route.method !== "ALL" &&
          !OUTSIDE_THE_DOCUMENT.has(`${route.method} ${route.path}`) &&
          !PAGES_OUTSIDE_THE_DOCUMENT.has(`${route.method} ${route.path}`) &&
          !CONSOLE_PAGES.test(route.path),
      )
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
    const documented = operations(document).map(({ method, path }) => `${method} ${path}`);
    expect(served.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual([...new Set(served)].sort());
  });

  it("names this deployment in servers: BASE_URL when set, otherwise the request's origin", async () => {
    expect((await openApiDocument()).servers).toEqual([{ url: BASE, description: "Production: this deployment", "x-internal": false }]);
    const ctx = {} as ExecutionContext;
    const configured = await worker.fetch(new Request(`${BASE}/api/v1.1/openapi.json`), { ...env, BASE_URL: "https://jobs.example.com/" }, ctx);
    expect(((await configured.json()) as OpenApiDocument).servers?.[0].url).toBe("https://jobs.example.com");
    const other = await exports.default.fetch(new Request("http://localhost:8787/api/v1.1/openapi.json"));
    expect(((await other.json()) as OpenApiDocument).servers?.[0]).toEqual({ url: "http://localhost:8787", description: "Local development (wrangler dev)", "x-internal": false });
  });

  it("describes the conventions: errors, paging, method override, rate limits, bookmarks", async () => {
    const { info } = (await openApiDocument()) as OpenApiDocument & { info: { description: string } };
    for (const term of ["application/problem+json", "pageSize", "X-HTTP-Method-Override", "429", "Retry-After", "X-D1-Bookmark", "X-Request-Id", "RateLimit-Policy", "per employer", "If-Match", "Idempotency-Key", "validateOnly", "Access-Control-Allow-Origin"]) {
      expect(info.description).toContain(term);
    }
  });

  it("every operation has a summary and tags, and every tag used is described", async () => {
    const document = await openApiDocument();
    const described = new Map(document.tags?.map((tag) => [tag.name, tag.description]));
    for (const { method, path, operation } of operations(document)) {
      expect(operation.summary, `${method} ${path}`).toBeTruthy();
      expect(operation.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(described.get(tag), `tag ${tag}`).toBeTruthy();
    }
  });

  it("job, webhook, application and employer operations require the ApiKey security scheme; reference data and the board are public", async () => {
    const document = await openApiDocument();
    expect(document.components.securitySchemes?.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "API-Key" });
    for (const { method, path, operation } of operations(document)) {
      const security = operation.security ?? document.security;
      if (["/api/v1.1/jobs", "/api/v1.1/webhooks", "/api/v1.1/applications", "/api/v1.1/employer"].some((prefix) => path.startsWith(prefix))) {
        expect(security, `${method} ${path}`).toEqual([{ ApiKey: [] }]);
        expect(operation.responses["401"], `${method} ${path} documents 401`).toBeDefined();
        expect(operation.responses["429"], `${method} ${path} documents 429`).toBeDefined();
      } else {
        expect(security, `${method} ${path}`).toEqual([]);
      }
    }
  });

  it("every error status is documented as application/problem+json with the Problem schema", async () => {
    const document = await openApiDocument();
    for (const { method, path, operation } of operations(document)) {
      expect(operation.responses["500"], `${method} ${path} documents 500`).toBeDefined();
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        expect(response.content, `${method} ${path} ${status}`).toEqual({
          "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } },
        });
        expect(response.headers?.["X-Request-Id"], `${method} ${path} ${status}`).toBeDefined();
      }
    }
  });

  it("every operation has examples for its parameters, request body and success response, valid against their schemas", async () => {
    const document = await openApiDocument();
    const schemas = document.components.schemas ?? {};
    const check = (what: string, schema: unknown) => {
      const example = exampleOf(schema, schemas);
      expect(example, `${what} has an example`).not.toBe(MISSING);
      const result = schemaValidator(schema, schemas).validate(JSON.parse(JSON.stringify(example)));
      expect(result.valid, `${what}: example ${JSON.stringify(example)} matches its schema`).toBe(true);
    };
    for (const { method, path, operation } of operations(document)) {
      const name = `${method.toUpperCase()} ${path}`;
      for (const parameter of (operation.parameters ?? []) as { name: string; schema: unknown }[]) {
        check(`${name} parameter ${parameter.name}`, parameter.schema);
      }
      for (const [mediaType, { schema }] of Object.entries(operation.requestBody?.content ?? {})) {
        check(`${name} request body (${mediaType})`, schema);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!status.startsWith("2")) continue;
        for (const [mediaType, { schema }] of Object.entries(response.content ?? {})) {
          check(`${name} ${status} response (${mediaType})`, schema);
        }
      }
    }
  });
});

describe("the document and the API agree on request bodies (issue 34)", () => {
  it("every member (and member of a member) that the API's schema takes as null, the document admits as null, and no other: JobInput, JobByReferenceInput, batch entries, ApplicationInput", async () => {
    const cases = [
      ["JobInput", JobInputSchema, {}],
      ["JobByReferenceInput", JobByReferenceInputSchema, { referenceId: "R-1" }],
      ["BatchUpsertEntry", BatchUpsertEntrySchema, { referenceId: "R-1" }],
      ["BatchDeleteEntry", BatchDeleteEntrySchema, { referenceId: "R-1" }],
      ["ApplicationInput", ApplicationInputSchema, { name: "Ada", email: "ada@example.com" }],
    ] as const;
    let checked = 0;
    for (const [name, schema, base] of cases) {
      for (const patch of nullPatches(schema)) {
        const body = { ...base, ...patch };
        const api = schema.safeParse(body).success;
        expect(await documentAdmits(name, body), `${name} ${JSON.stringify(body)}: the API ${api ? "takes" : "refuses"} it`).toBe(api);
        checked++;
      }
    }
    // Not vacuous: salary's and translations.fr's members are reached too.
    expect(checked).toBeGreaterThan(60);
  });
});

type AnyZod = { _zod: { def: { type: string; innerType?: AnyZod; shape?: Record<string, AnyZod> } } };

/** `{ member: null }` for every member of an object schema, and `{ member: { inner: null } }` for members that are objects. */
function nullPatches(schema: unknown, depth = 0): Record<string, unknown>[] {
  let def = (schema as AnyZod)._zod.def;
  while ((def.type === "optional" || def.type === "nullable") && def.innerType) def = def.innerType._zod.def;
  if (def.type !== "object" || !def.shape || depth > 2) return [];
  return Object.entries(def.shape).flatMap(([key, member]) => [
    { [key]: null },
    ...nullPatches(member, depth + 1).map((inner) => ({ [key]: inner })),
  ]);
}

const MISSING = Symbol("no example");

/**
 * The example a reader of the reference page sees, built the way renderers build it: a
 * schema's own example, else one assembled from its members'. Booleans and `null` need none.
 */
function exampleOf(schema: unknown, schemas: Record<string, unknown>, depth = 0): unknown {
  if (typeof schema !== "object" || schema === null || depth > 20) return MISSING;
  const s = schema as Record<string, any>;
  if (s.$ref) return exampleOf(schemas[String(s.$ref).replace("#/components/schemas/", "")], schemas, depth + 1);
  if ("example" in s) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ("default" in s) return s.default;
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    const example = exampleOf(branch, schemas, depth + 1);
    if (example !== MISSING && example !== null) return example;
  }
  if (s.allOf) {
    const parts = s.allOf.map((part: unknown) => exampleOf(part, schemas, depth + 1));
    return parts.includes(MISSING) ? MISSING : Object.assign({}, ...parts);
  }
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes("object") || s.properties) {
    const required = new Set<string>(s.required ?? []);
    const example: Record<string, unknown> = {};
    for (const [name, member] of Object.entries<unknown>(s.properties ?? {})) {
      const value = exampleOf(member, schemas, depth + 1);
      if (value === MISSING) {
        if (required.has(name)) return MISSING;
        continue;
      }
      example[name] = value;
    }
    return example;
  }
  if (types.includes("array")) {
    const item = exampleOf(s.items, schemas, depth + 1);
    return item === MISSING ? MISSING : [item];
  }
  if (types.includes("boolean")) return false;
  if (types.includes("null")) return null;
  return MISSING;
}
