import { exports } from "cloudflare:workers";
import { BASE } from "./api";

export type OpenApiDocument = {
  openapi: string;
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown>; headers?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  [member: string]: unknown;
};

export type Operation = {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { description: string; content?: Record<string, MediaType>; headers?: Record<string, unknown> }>;
};

export type MediaType = { schema?: unknown; example?: unknown; examples?: Record<string, unknown> };

let document: Promise<OpenApiDocument> | undefined;

/** The document the Worker serves, fetched once per test file, straight from the Worker. */
export function openApiDocument(): Promise<OpenApiDocument> {
  document ??= exports.default.fetch(new Request(`${BASE}/api/v1.1/openapi.json`)).then(async (res) => {
    if (res.status !== 200) throw new Error(`GET /api/v1.1/openapi.json answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as OpenApiDocument;
  });
  return document;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of the document with its method and path. */
export function operations(document: OpenApiDocument): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}
