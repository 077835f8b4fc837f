import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { BadRequestError, ProblemError, problemResponse, UnsupportedMediaTypeError } from "./problem";

/** A framework's own 4xx in the problem shape, worded for a person. */
function libraryProblem(error: HTTPException, c: Context): ProblemError {
  // Hono's validator throws a 400 for a body that does not parse as JSON.
  if (error.status === 400) return new BadRequestError("The request body is not valid JSON.");
  if (error.status === 415) return new UnsupportedMediaTypeError(c.req.header("Content-Type"));
  const status = error.status as ContentfulStatusCode;
  return new ProblemError(status, `http-${status}`, error.message || "Request refused.", error.message || `The request was refused (${status}).`);
}

/** The one error path: whatever was thrown leaves as problem+json, never with internals. */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ProblemError) return problemResponse(c, error);
  // What a library throws keeps its status (DESIGN 5); only the truly unexpected is a 500.
  if (error instanceof HTTPException && error.status >= 400 && error.status < 500) return problemResponse(c, libraryProblem(error, c));
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
