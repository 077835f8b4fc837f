// The Worker's OpenAPIHono: routes registered from their zod definitions (createRoute), with
// request validation, exactly as @hono/zod-openapi's `OpenAPIHono.openapi` wires it (1.6.3), but
// without the document generator. The library's class holds zod-to-openapi's registry and
// generators and extends zod with them when loaded, which bundled that library and all of zod into
// the Worker (issue 38: the bundle's budget). The document is built at build time instead
// (scripts/openapi.mjs → src/http/openapi-document.ts), from the definitions this class records:
// the same route list, in the same order, that the Worker serves.
import type { Hook, OpenAPIHono as DocumentedHono, RouteConfig } from "@hono/zod-openapi";
import { zValidator } from "@hono/zod-validator";
import type { Context, Env, MiddlewareHandler, Schema } from "hono";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { mergePath } from "hono/utils/url";
import type { ZodType } from "./zod";

/** What a registry call recorded, replayed onto zod-to-openapi's registry by the generator. */
export type Definition =
  | { type: "route"; route: RouteConfig }
  | { type: "webhook"; webhook: RouteConfig }
  | { type: "schema"; refId: string; schema: ZodType }
  | { type: "component"; componentType: string; name: string; component: unknown };

/** The calls the app makes on zod-to-openapi's `OpenAPIRegistry`, recorded for the build. */
export class DefinitionRecorder {
  readonly definitions: Definition[] = [];
  registerPath(route: RouteConfig) {
    this.definitions.push({ type: "route", route });
  }
  register<T extends ZodType>(refId: string, schema: T): T {
    this.definitions.push({ type: "schema", refId, schema });
    return schema;
  }
  /** An event the API sends (OpenAPI 3.1 `webhooks`), as the request it makes to an endpoint. */
  registerWebhook(webhook: RouteConfig) {
    this.definitions.push({ type: "webhook", webhook });
  }
  registerComponent(componentType: string, name: string, component: unknown) {
    this.definitions.push({ type: "component", componentType, name, component });
  }
}

type AnyHook = Hook<unknown, never, string, unknown>;
type Init = ConstructorParameters<typeof Hono>[0] & { defaultHook?: AnyHook };
type Validate = (target: "query" | "param" | "header" | "cookie" | "json" | "form", schema: ZodType) => MiddlewareHandler;

class RecordingHono extends Hono {
  openAPIRegistry = new DefinitionRecorder();
  defaultHook?: AnyHook;
  #parentApp?: RecordingHono;

  constructor(init?: Init) {
    super(init);
    this.defaultHook = init?.defaultHook;
  }

  /** Its own default hook, else the nearest mounting app's (resolved per request, as the library does). */
  #resolveDefaultHook(): AnyHook | undefined {
    if (this.defaultHook) return this.defaultHook;
    const seen = new Set<RecordingHono>([this]);
    for (let parent = this.#parentApp; parent && !seen.has(parent); parent = parent.#parentApp) {
      if (parent.defaultHook) return parent.defaultHook;
      seen.add(parent);
    }
    return undefined;
  }

  openapi = ({ middleware: routeMiddleware, hide, ...route }: RouteConfig, handler: MiddlewareHandler, hook?: AnyHook) => {
    if (!hide) this.openAPIRegistry.registerPath(route as RouteConfig);
    const effectiveHook = hook ?? (((result, c) => this.#resolveDefaultHook()?.(result, c as never)) as AnyHook);
    const validate: Validate = (target, schema) => zValidator(target, schema as never, effectiveHook as never) as MiddlewareHandler;
    const validators: MiddlewareHandler[] = [];
    const request = route.request;
    if (request?.query) validators.push(validate("query", request.query as ZodType));
    if (request?.params) validators.push(validate("param", request.params as ZodType));
    if (request?.headers) validators.push(validate("header", request.headers as ZodType));
    if (request?.cookies) validators.push(validate("cookie", request.cookies as ZodType));
    const bodyContent = request?.body?.content;
    if (bodyContent) {
      const declared = Object.keys(bodyContent);
      const schemaOf = (type: string) => (bodyContent[type] as { schema?: unknown } | undefined)?.schema;
      const validated = declared.some((type) => isZod(schemaOf(type)) && (isJsonContentType(type) || isFormContentType(type)));
      if (validated) validators.push(mediaTypeGate(declared));
      for (const type of declared) {
        const schema = schemaOf(type);
        if (!isZod(schema)) continue;
        const target = isJsonContentType(type) ? "json" : isFormContentType(type) ? "form" : undefined;
        if (!target) continue;
        const validator = validate(target, schema);
        const matches = target === "json" ? isJsonContentType : isFormContentType;
        // An optional body is validated only when it is sent as this media type; else it reads as {}.
        validators.push(
          request?.body?.required
            ? validator
            : async (c, next) => {
                const contentType = c.req.header("content-type");
                if (contentType && matches(contentType)) return validator(c, next);
                c.req.addValidatedData(target, {});
                await next();
              },
        );
      }
    }
    const middleware = routeMiddleware ? (Array.isArray(routeMiddleware) ? routeMiddleware : [routeMiddleware]) : [];
    this.on([route.method], [route.path.replaceAll(/\/{(.+?)}/g, "/:$1")], ...(middleware as MiddlewareHandler[]), ...validators, handler);
    return this;
  };

  /** Mounts `app` like Hono, and takes over what it recorded, its paths prefixed as mounted. */
  override route<SubPath extends string, SubEnv extends Env, SubSchema extends Schema, SubBasePath extends string>(
    path: SubPath,
    app: Hono<SubEnv, SubSchema, SubBasePath>,
  ) {
    super.route(path, app);
    if (!(app instanceof RecordingHono)) return this;
    app.#parentApp ??= this;
    const prefix = (p: string) => p.replaceAll(/:([^/]+)/g, "{$1}");
    for (const definition of app.openAPIRegistry.definitions) {
      this.openAPIRegistry.definitions.push(
        definition.type === "route"
          ? { ...definition, route: { ...definition.route, path: mergePath(prefix(path), prefix((app as unknown as { _basePath: string })._basePath), definition.route.path) } }
          : definition,
      );
    }
    return this as never;
  }
}

/**
 * Typed as the library's class, so that handlers, `c.req.valid()` and hono/client (`AppType`) keep
 * the types the route definitions give them. Its generator methods (`getOpenAPI31Document`, `doc`)
 * do not exist here: the document is generated at build time, not in the Worker.
 */
export const OpenAPIHono = RecordingHono as unknown as typeof DocumentedHono;
export type OpenAPIHono<E extends Env = Env, S extends Schema = {}, BasePath extends string = "/"> = DocumentedHono<E, S, BasePath>;

/** The library's createRoute: the definition as given, with Hono's form of its path. */
export const createRoute: typeof import("@hono/zod-openapi").createRoute = (routeConfig) => {
  const route = { ...routeConfig, getRoutingPath: () => routeConfig.path.replaceAll(/\/{(.+?)}/g, "/:$1") };
  return Object.defineProperty(route, "getRoutingPath", { enumerable: false }) as never;
};

const isZod = (value: unknown): value is ZodType =>
  typeof value === "object" &&
  value !== null &&
  ["parse", "safeParse", "parseAsync", "safeParseAsync"].every((method) => typeof (value as Record<string, unknown>)[method] === "function");

const isJsonContentType = (contentType: string) => /^application\/([a-z-.]+\+)?json/i.test(contentType);
const isFormContentType = (contentType: string) => /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType);

const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const MULTIPART_REQUEST = /^multipart\/form-data(;\s?boundary=[a-zA-Z0-9'"()+_,\-./:=?]+)?$/i;
const URLENCODED_REQUEST = /^application\/x-www-form-urlencoded(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

function matchesMediaType(contentType: string, mediaType: string): boolean {
  if (mediaType === "*/*") return true;
  if (isJsonContentType(mediaType)) return JSON_REQUEST.test(contentType);
  if (isFormContentType(mediaType)) return MULTIPART_REQUEST.test(contentType) || URLENCODED_REQUEST.test(contentType);
  const essence = contentType.split(";")[0].trim().toLowerCase();
  if (mediaType.endsWith("/*")) return essence.startsWith(mediaType.slice(0, -1).toLowerCase());
  return essence === mediaType.toLowerCase();
}

/** A body in a media type the route does not declare (or a body without one) is a 415. */
function mediaTypeGate(declared: string[]): MiddlewareHandler {
  return async (c, next) => {
    const contentType = c.req.header("content-type");
    if (contentType ? !declared.some((type) => matchesMediaType(contentType, type)) : await hasRequestBody(c)) {
      throw new HTTPException(415, { message: "Unsupported Media Type" });
    }
    await next();
  };
}

async function hasRequestBody(c: Context): Promise<boolean> {
  const raw = c.req.raw;
  if (raw.body === null) return false;
  if (raw.bodyUsed) return (await c.req.arrayBuffer()).byteLength > 0;
  const body = raw.clone().body;
  if (body === null) return false;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
