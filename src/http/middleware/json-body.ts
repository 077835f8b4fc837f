import { createMiddleware } from "hono/factory";
import { BadRequestError, UnsupportedMediaTypeError } from "../problem";

// application/json with optional parameters (charset=utf-8); `+json` types such as
// application/problem+json are deliberately not accepted.
const JSON_MEDIA_TYPE = /^application\/json[\t ]*(;|$)/i;

/** Writes need a JSON body: the wrong media type is 415, a missing body 400. */
export const requireJsonBody = createMiddleware(async (c, next) => {
  const contentType = c.req.header("Content-Type");
  if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) throw new UnsupportedMediaTypeError(contentType);
  if (c.req.header("Content-Length") === "0" || c.req.raw.body === null) {
    throw new BadRequestError("The request body is empty; send a JSON object.");
  }
  await next();
});
