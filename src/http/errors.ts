import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { BadRequestError, ProblemError, problemResponse } from "./problem";

/** The one error path: whatever was thrown leaves as problem+json, never with internals. */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ProblemError) return problemResponse(c, error);
  // Hono's validator throws this for a body that does not parse as JSON.
  if (error instanceof HTTPException && error.status === 400) {
    return problemResponse(c, new BadRequestError("The request body is not valid JSON."));
  }
  console.error(
    JSON.stringify({
      level: "error",
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      error: error.name,
      message: error.message,
      stack: error.stack,
    }),
  );
  return problemResponse(
    c,
    new ProblemError(500, "internal-error", "Internal server error.", "Something went wrong on our side. Quote the requestId if you contact us."),
  );
}
