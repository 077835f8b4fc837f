import type { Hono, MiddlewareHandler } from "hono";
import { methodOverride } from "hono/method-override";

const OVERRIDE_HEADER = "X-HTTP-Method-Override";

/**
 * Spec 4.6: only a POST may be overridden, only by the header, and only to PUT or DELETE;
 * anything else leaves the request as it came. Hono's middleware does the re-dispatch.
 */
export function postMethodOverride(app: Hono<any, any, any>): MiddlewareHandler {
  const override = methodOverride({ app, header: OVERRIDE_HEADER });
  return async (c, next) => {
    const wanted = c.req.header(OVERRIDE_HEADER)?.trim().toUpperCase();
    if (c.req.method === "POST" && (wanted === "PUT" || wanted === "DELETE")) return override(c, next);
    await next();
  };
}
