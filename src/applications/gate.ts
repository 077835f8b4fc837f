import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { isJsonMediaType } from "../http/middleware/json-body";
import { clientAddress, enforce } from "../http/middleware/rate-limit";
import { UnsupportedMediaTypeError } from "../http/problem";

const isMultipart = (contentType: string) => /^\s*multipart\/form-data\s*;/i.test(contentType);

/**
 * Before any byte of an application is read (up to 6 MiB): the per-address limit (DESIGN 15:
 * refused attempts count too), then the media type, named as received.
 */
export const applyGate = createMiddleware<AppEnv>(async (c, next) => {
  await enforce(c.env.APPLY_RATE_LIMITER, `address:${clientAddress(c)}`);
  const contentType = c.req.header("Content-Type");
  if (!contentType || !(isJsonMediaType(contentType) || isMultipart(contentType))) {
    throw new UnsupportedMediaTypeError(contentType, ["application/json", "multipart/form-data"]);
  }
  await next();
});
