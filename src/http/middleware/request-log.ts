import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../../env";

/**
 * One JSON line per request for Workers Logs / `wrangler tail`: who (employer id, never the
 * key), what (method, route pattern, status) and how long. Bodies, query strings and headers
 * are never logged: they may carry keys or personal data. Errors are logged too, because the
 * app's onError has already turned them into the response when `next()` returns.
 */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  // The handler's route, not a middleware's wildcard; null when nothing matched (404, 405).
  const route = matchedRoutes(c).findLast((r) => r.method !== "ALL")?.path ?? null;
  console.log(
    JSON.stringify({
      level: c.res.status >= 500 ? "error" : "info",
      message: "request",
      requestId: c.get("requestId"),
      method: c.req.method,
      route,
      path: c.req.path,
      status: c.res.status,
      // Workers advance the clock only across I/O, so this is time spent waiting on D1/KV.
      durationMs: Date.now() - started,
      employerId: c.get("employerId"),
    }),
  );
});
