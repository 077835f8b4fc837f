import { createMiddleware } from "hono/factory";
import { BadRequestError, UnsupportedMediaTypeError } from "../problem";

/**
 * The one media-type rule (DESIGN 5): application/json, case-insensitive, with any parameters
 * (charset=utf-8, others), any spacing and a trailing `;`. `+json` types such as
 * application/problem+json are not it.
 */
export const isJsonMediaType = (contentType: string) => /^\s*application\/json\s*(;|$)/i.test(contentType);

/**
 * Writes need a JSON body: the wrong media type is 415, a missing body 400. Past this check the
 * request carries the canonical `application/json`, so that no library behind it applies a
 * stricter rule of its own to what this one accepted.
 */
export const requireJsonBody = createMiddleware(async (c, next) => {
  const contentType = c.req.header("Content-Type");
  if (!contentType || !isJsonMediaType(contentType)) throw new UnsupportedMediaTypeError(contentType);
  if (c.req.header("Content-Length") === "0" || c.req.raw.body === null) {
    throw new BadRequestError("The request body is empty; send a JSON object.");
  }
  if (contentType !== "application/json") {
    const headers = new Headers(c.req.raw.headers);
    headers.set("Content-Type", "application/json");
    c.req.raw = new Request(c.req.raw, { headers });
  }
  await next();
});
