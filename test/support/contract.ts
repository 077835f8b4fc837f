import { Validator, type OutputUnit } from "@cfworker/json-schema";
import { HTTP_METHODS, openApiDocument, type OpenApiDocument, type Operation } from "./openapi-document";
import { ICON_PATH, STYLESHEET_PATH } from "../../src/ui/assets";

/**
 * The contract check every response of the suite goes through (see `request()` in api.ts):
 * the status must be documented for the operation, and the body must match the documented
 * schema for its media type. A path the document does not know may only answer 404, a known
 * path with a method it does not list only 405, both as problem+json. The document itself and
 * the /docs page must answer 200 with their media type.
 */
export async function assertMatchesContract(request: Request, response: Response): Promise<void> {
  const contract = await compiledContract();
  const method = effectiveMethod(request);
  const { pathname } = new URL(request.url);
  const label = `${request.method}${method !== request.method ? ` (as ${method})` : ""} ${pathname} → ${response.status}`;
  const outside = OUTSIDE_THE_DOCUMENT.get(`${method} ${pathname}`);
  if (outside) {
    const contentType = response.headers.get("Content-Type") ?? "";
    if (response.status !== 200 || !contentType.startsWith(outside)) {
      throw new ContractError(label, `expected 200 ${outside}, got ${response.status} "${contentType}".`);
    }
    return;
  }
  const path = contract.paths.find(({ pattern }) => pattern.test(pathname));

  if (!path || !path.item[method.toLowerCase()]) {
    const expected = path ? 405 : 404;
    if (response.status !== expected) {
      throw new ContractError(
        label,
        path
          ? `${method} is not documented for ${path.template} (documented: ${documentedMethods(path.item)}), so only a 405 may answer.`
          : "the path is not in the OpenAPI document, so only a 404 may answer.",
      );
    }
    return checkBody(contract, label, response, { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } });
  }

  const operation = path.item[method.toLowerCase()];
  const status = String(response.status);
  const documented = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
  if (!documented) {
    throw new ContractError(
      label,
      `status ${status} is not documented for ${method} ${path.template} (documented: ${Object.keys(operation.responses).join(", ")}).`,
    );
  }
  checkRequiredHeaders(contract, label, response, documented.headers ?? {});
  if (request.method === "HEAD") return;
  return checkBody(contract, label, response, documented.content);
}

function documentedMethods(item: Record<string, unknown>): string {
  return Object.keys(item)
    .filter((key) => HTTP_METHODS.includes(key))
    .join(", ")
    .toUpperCase();
}

function checkRequiredHeaders(contract: Contract, label: string, response: Response, headers: Record<string, unknown>): void {
  for (const [name, header] of Object.entries(headers)) {
    const ref = (header as { $ref?: string }).$ref;
    const resolved = (ref ? contract.headers[ref.replace("#/components/headers/", "")] : header) as { required?: boolean } | undefined;
    if (resolved?.required && !response.headers.has(name)) throw new ContractError(label, `the required header ${name} is missing.`);
  }
}

// Served beside the API by design, not described in the document: the document itself, the
// reference page rendered from it, the applicant's withdraw pages (DESIGN 20) and the board's
// web pages (DESIGN 18).
export const OUTSIDE_THE_DOCUMENT = new Map([
  ["GET /api/v1.1/openapi.json", "application/json"],
  ["GET /docs", "text/html"],
]);

/** Routes served beside the API and not in its document, by their route pattern. */
export const PAGES_OUTSIDE_THE_DOCUMENT = new Set([
  "GET /withdraw/:token",
  "POST /withdraw/:token",
  `GET ${STYLESHEET_PATH}`,
  `GET ${ICON_PATH}`,
  "GET /",
  "GET /fr/",
  "GET /fr",
  "GET /robots.txt",
  // DESIGN 24a: IndexNow's key file (a page for the engines, not an API operation).
  "GET /:file{[A-Za-z0-9-]{8,128}\\.txt}",
  "GET /sitemap.xml",
  "GET /:file{sitemap-[1-9][0-9]{0,9}\\.xml}",
  "GET /jobs/:segment",
  "GET /fr/emplois/:segment",
  "POST /jobs/:segment",
  "POST /fr/emplois/:segment",
  "GET /jobs/:segment/sent",
  "GET /fr/emplois/:segment/sent",
  "GET /jobs/:segment/report",
  "POST /jobs/:segment/report",
  "GET /fr/emplois/:segment/report",
  "POST /fr/emplois/:segment/report",
  "GET /fraud-policy",
  "GET /fr/politique-fraude",
  // DESIGN 23a: the job alerts' form and the pages their email links open (src/alerts/handlers.tsx).
  "POST /alerts",
  "POST /fr/alertes",
  "GET /alerts/check-your-mailbox",
  "GET /fr/alertes/verifiez-vos-courriels",
  ...["confirm", "decline", "unsubscribe", "manage"].flatMap((page) => [`GET /alerts/${page}/:token`, `POST /alerts/${page}/:token`]),
  "GET /alerts/feed/:token",
]);

/**
 * DESIGN 25, 26: the consoles' pages (src/console/, src/operator/), their scripts, and the dev
 * stand-in of Access under /cdn-cgi/access/: for people, not integrations.
 */
export const CONSOLE_PAGES = /^\/(employer|operator)(\/|$)|^\/cdn-cgi\/access\/|^\/assets\/passkeys\./;

export class ContractError extends Error {
  constructor(label: string, problem: string) {
    super(`Response does not match the OpenAPI document: ${label}: ${problem}`);
    this.name = "ContractError";
  }
}

type Contract = {
  paths: { template: string; pattern: RegExp; item: Record<string, Operation> }[];
  defs: Record<string, unknown>;
  headers: Record<string, unknown>;
  validators: Map<unknown, Validator>;
};

let contract: Promise<Contract> | undefined;

function compiledContract(): Promise<Contract> {
  contract ??= openApiDocument().then(compile);
  return contract;
}

function compile(document: OpenApiDocument): Contract {
  const paths = Object.entries(document.paths)
    .map(([template, item]) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
      item,
    }))
    // A literal segment beats a parameter: /jobs/{id} must not swallow a sibling literal path.
    .sort((a, b) => a.template.split("{").length - b.template.split("{").length);
  return { paths, defs: document.components.schemas ?? {}, headers: document.components.headers ?? {}, validators: new Map() };
}

/**
 * A validator for one schema of the document. JSON Schema validators resolve `$ref`s inside the
 * schema, so the document's component schemas become its `$defs`, references rewritten to match.
 */
export function schemaValidator(schema: unknown, componentSchemas: Record<string, unknown>): Validator {
  return new Validator({ ...(toJsonSchema(schema) as object), $defs: toJsonSchema(componentSchemas) as object }, "2020-12", false);
}

/**
 * Whether the document's component schema `name` admits `value`: what a client generated from
 * the document would let through (issue 34: the document and the API must agree on it).
 */
export async function documentAdmits(name: string, value: unknown): Promise<boolean> {
  const document = await openApiDocument();
  const schemas = document.components.schemas ?? {};
  if (!(name in schemas)) throw new Error(`The document has no component schema ${name}.`);
  return schemaValidator({ $ref: `#/components/schemas/${name}` }, schemas).validate(value).valid;
}

/**
 * Whether the document admits `value` for the parameter `name` (query, header or path) of
 * `method path`, as a generated client checks it: typed by the schema (an integer as a number).
 */
export async function parameterAdmits(method: string, path: string, name: string, value: unknown): Promise<boolean> {
  const document = await openApiDocument();
  const operation = document.paths[path]?.[method.toLowerCase()];
  const parameter = (operation?.parameters as { name: string; schema: unknown }[] | undefined)?.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (!parameter) throw new Error(`${method.toUpperCase()} ${path} documents no parameter ${name}.`);
  return schemaValidator(parameter.schema, document.components.schemas ?? {}).validate(value).valid;
}

/**
 * OpenAPI's `example` is an annotation, but @cfworker/json-schema walks unknown keywords as
 * subschemas (an example `{ "id": 1 }` reads as a draft-4 id): drop examples, rewrite refs.
 */
function toJsonSchema(value: unknown, parentKey = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => toJsonSchema(item));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => parentKey === "properties" || (key !== "example" && key !== "examples"))
      .map(([key, member]) =>
        key === "$ref" && typeof member === "string"
          ? [key, member.replace("#/components/schemas/", "#/$defs/")]
          : [key, toJsonSchema(member, key)],
      ),
  );
}

function effectiveMethod(request: Request): string {
  const override = request.headers.get("X-HTTP-Method-Override")?.trim().toUpperCase();
  if (request.method === "POST" && (override === "PUT" || override === "DELETE")) return override;
  return request.method === "HEAD" ? "GET" : request.method;
}

async function checkBody(
  contract: Contract,
  label: string,
  response: Response,
  content: Record<string, { schema?: unknown }> | undefined,
): Promise<void> {
  const text = await response.clone().text();
  if (!content || Object.keys(content).length === 0) {
    if (text !== "") throw new ContractError(label, `the documented response has no body, but one came: ${text.slice(0, 200)}`);
    return;
  }
  const mediaType = response.headers.get("Content-Type")?.split(";")[0].trim().toLowerCase() ?? "";
  const documented = content[mediaType];
  if (!documented) {
    throw new ContractError(label, `Content-Type "${mediaType}" is not documented (documented: ${Object.keys(content).join(", ")}).`);
  }
  if (!/^application\/(.+\+)?json$/.test(mediaType) || documented.schema === undefined) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ContractError(label, `the body is not JSON: ${text.slice(0, 200)}`);
  }
  const result = validatorFor(contract, documented.schema).validate(body);
  if (!result.valid) {
    throw new ContractError(label, `the ${mediaType} body does not match its schema:\n${describeErrors(result.errors)}\nbody: ${text.slice(0, 1000)}`);
  }
}

function validatorFor(contract: Contract, schema: unknown): Validator {
  let validator = contract.validators.get(schema);
  if (!validator) {
    validator = schemaValidator(schema, contract.defs);
    contract.validators.set(schema, validator);
  }
  return validator;
}

// The validator reports every enclosing subschema too; the leaves say what is actually wrong.
function describeErrors(errors: OutputUnit[]): string {
  const leaves = errors.filter((e) => !/subschema|items did not match|properties? did not match|had errors/i.test(e.error));
  return (leaves.length ? leaves : errors)
    .slice(0, 10)
    .map((e) => `  at ${e.instanceLocation}: ${e.error} (schema ${e.keywordLocation})`)
    .join("\n");
}
