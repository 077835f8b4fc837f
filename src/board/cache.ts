import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { afterResponse } from "../http/after-response";
import { TooManyRequestsError } from "../http/problem";
import { clientAddress, RATE_LIMIT_PERIOD_SECONDS } from "../http/middleware/rate-limit";

export const BOARD_MAX_AGE_SECONDS = 60;
/** DESIGN 14: a job just published must not stay hidden for a minute behind a cached 404. */
export const NOT_FOUND_MAX_AGE_SECONDS = 5;

const cacheControlOf = (status: number) => `public, max-age=${status === 404 ? NOT_FOUND_MAX_AGE_SECONDS : BOARD_MAX_AGE_SECONDS}`;

async function etagOf(body: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return `"b${[...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

const matches = (header: string | undefined, etag: string) =>
  header !== undefined && (header.trim() === "*" || header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag));

function notModified(etag: string, cacheControl: string): Response {
  return new Response(null, { status: 304, headers: { ETag: etag, "Cache-Control": cacheControl } });
}

/**
 * The board's public reads (DESIGN 14): a per-address rate limit, then repeats served from the
 * Cache API (an address not asked before answers the current state; a repeat may be up to 60 s
 * old, a 404 up to 5 s), `Cache-Control: public, max-age=60` (5 on a 404), an ETag and 304 on If-None-Match.
 *
 * The limiter and the cache lookup are asked together: the limiter's answer comes from a counter
 * kept on the Worker's own machine (Cloudflare's Rate Limiting binding waits on no network), the
 * lookup's from the cache, and nothing is answered, nor the board read, before both are in. A
 * client over its limit gets its 429 whether or not the address was cached.
 */
export const boardResponses = createMiddleware<AppEnv>(async (c, next) => {
  const limited = c.env.BOARD_RATE_LIMITER.limit({ key: `address:${clientAddress(c)}` });
  if (c.req.method !== "GET") {
    if (!(await limited).success) throw new TooManyRequestsError(RATE_LIMIT_PERIOD_SECONDS);
    return next();
  }

  const key = new Request(c.req.url);
  const [{ success }, hit] = await Promise.all([limited, caches.default.match(key)]);
  if (!success) {
    await hit?.body?.cancel();
    throw new TooManyRequestsError(RATE_LIMIT_PERIOD_SECONDS);
  }
  if (hit) {
    const etag = hit.headers.get("ETag");
    if (etag && matches(c.req.header("If-None-Match"), etag)) return notModified(etag, cacheControlOf(hit.status));
    return new Response(hit.body, hit);
  }
  await next();
  if (c.res.status !== 200 && c.res.status !== 404) return;
  // The answer's bytes once: the ETag's digest, the answer and the cache's copy are all made from
  // them (a copy of known length, no stream split in two).
  const body = await c.res.arrayBuffer();
  const etag = await etagOf(body);
  const res = new Response(body, c.res);
  res.headers.set("ETag", etag);
  res.headers.set("Cache-Control", cacheControlOf(res.status));
  afterResponse(c, caches.default.put(key, new Response(body, res)), "board cache put failed");
  c.res = matches(c.req.header("If-None-Match"), etag) ? notModified(etag, cacheControlOf(res.status)) : res;
});
