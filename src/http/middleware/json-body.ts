import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { jsonBoundErrors } from "../json-bounds";
import { BadRequestError, UnsupportedMediaTypeError, ValidationError } from "../problem";

/**
 * The one media-type rule (DESIGN 5): application/json, case-insensitive, with any parameters
 * (charset=utf-8, others), any spacing and a trailing `;`. `+json` types such as
 * application/problem+json are not it.
 */
export const isJsonMediaType = (contentType: string) => /^\s*application\/json\s*(;|$)/i.test(contentType);

/**
 * DESIGN 6b: a body nested deeper than 64 levels, or with a string holding an unpaired surrogate,
 * is a 400 naming where. Checked before any route reads the body (the Idempotency-Key's hash
 * walks all of it, ignored members too). Hono keeps the body's text, so reading it here costs
 * the route no second read; one that does not parse is left to the route's validator to refuse.
 */
async function checkJsonBounds(c: Context): Promise<void> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (error) {
    if (error instanceof SyntaxError) return;
    throw error;
  }
  const errors = jsonBoundErrors(body);
  if (errors.length > 0) throw new ValidationError(errors);
}

/** The request as the libraries behind us expect it: one media type, written one way. */
export function canonicalContentType(c: Context, canonical: string): void {
  if (c.req.header("Content-Type") === canonical) return;
  const headers = new Headers(c.req.raw.headers);
  headers.set("Content-Type", canonical);
  c.req.raw = new Request(c.req.raw, { headers });
}

/**
 * Writes need a JSON body: the wrong media type is 415, a missing body 400, one past the bounds
 * of 6b 400. Past this check the request carries the canonical `application/json`, so that no
 * library behind it applies a stricter rule of its own to what this one accepted.
 */
export const requireJsonBody = createMiddleware(async (c, next) => {
  const contentType = c.req.header("Content-Type");
  if (!contentType || !isJsonMediaType(contentType)) throw new UnsupportedMediaTypeError(contentType);
  if (c.req.header("Content-Length") === "0" || c.req.raw.body === null) {
    throw new BadRequestError("The request body is empty; send a JSON object.");
  }
  canonicalContentType(c, "application/json");
  await checkJsonBounds(c);
  await next();
});

/** For a route that takes JSON or another media type (a form): the bounds of 6b when the body is JSON. */
export const boundedJsonBody = createMiddleware(async (c, next) => {
  if (isJsonMediaType(c.req.header("Content-Type") ?? "") && c.req.raw.body !== null) await checkJsonBounds(c);
  await next();
});
