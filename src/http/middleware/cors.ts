import { cors } from "hono/cors";

/**
 * DESIGN 11 and 14: public data (reference data, the OpenAPI document, the board) may be read
 * from any origin, preflights included. The job API gets no CORS at all: API keys do not
 * belong in browsers, so no browser page should be able to call it.
 */
export const publicCors = cors({
  origin: "*",
  allowMethods: ["GET", "POST", "OPTIONS"],
  allowHeaders: ["Content-Type"],
  maxAge: 86_400,
});
