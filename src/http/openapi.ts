import type { Context } from "hono";
import type { AppEnv } from "../env";
// Built from the route definitions by scripts/openapi.mjs (npm install, dev, test, deploy); not in git.
import built from "../generated/openapi.json";
import { publicOrigin } from "./paging";
import { API_PREFIX } from "./version";

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

const document: object = built;

const environmentOf = (origin: string) =>
  /^https?:\/\/(localhost|127\.|\[::1\])/.test(origin) ? "Local development (wrangler dev)" : "Production: this deployment";

/**
 * GET handler for the document, built at build time (src/http/openapi-document.ts): only
 * `servers` is per request, naming this deployment as the client reached it.
 */
export function serveDocument(c: Context<AppEnv>) {
  const origin = publicOrigin(c);
  // OWASP API9 (inventory): each server says its audience and environment.
  return c.json({ ...document, servers: [{ url: origin, description: environmentOf(origin), "x-internal": false }] });
}
