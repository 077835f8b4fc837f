import { createMiddleware } from "hono/factory";

/** Every response, errors included: browsers must take the Content-Type as sent. */
export const noSniff = createMiddleware(async (c, next) => {
  await next();
  c.header("X-Content-Type-Options", "nosniff");
});

/** An employer's jobs (and the errors about them) never sit in a shared or browser cache. */
export const privateResponses = createMiddleware(async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
});
