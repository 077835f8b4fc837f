import type { Context } from "hono";
import type { AppEnv } from "../env";
import { publicOrigin } from "./paging";
import { API_PREFIX } from "./version";

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/**
 * The document, built at build time (scripts/openapi.mjs, from the route definitions) into the
 * static assets at its own address, read once per isolate through the ASSETS binding: kept out of
 * the Worker's script (issue 38: the bundle's budget).
 */
let built: Promise<string> | undefined;
function documentText(assets: Fetcher): Promise<string> {
  built ??= assets.fetch(new Request(`https://assets.invalid${OPENAPI_PATH}`)).then((res) => {
    if (!res.ok) throw new Error(`the OpenAPI document is not among the static assets (${res.status}): run node scripts/openapi.mjs`);
    return res.text();
  });
  built.catch(() => (built = undefined));
  return built;
}

const environmentOf = (origin: string) =>
  /^https?:\/\/(localhost|127\.|\[::1\])/.test(origin) ? "Local development (wrangler dev)" : "Production: this deployment";

/** The built document's top-level `servers`, empty (src/http/openapi-document.ts): the first such text in it. */
const NO_SERVERS = '"servers":[]';

/**
 * GET handler for the document: only `servers` is per request, naming this deployment as the
 * client reached it (put in place of the built document's empty one, without parsing the rest).
 */
export async function serveDocument(c: Context<AppEnv>) {
  const text = await documentText(c.env.ASSETS);
  const origin = publicOrigin(c);
  // OWASP API9 (inventory): each server says its audience and environment.
  const servers = JSON.stringify([{ url: origin, description: environmentOf(origin), "x-internal": false }]);
  return c.body(text.replace(NO_SERVERS, () => `"servers":${servers}`), 200, { "Content-Type": "application/json" });
}
