import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { guardReason } from "../db/guards";
import { isTransient } from "../db/transient-errors";
import { EmployerMovedError, lockOf, MOVING_RETRY_AFTER_SECONDS } from "../shards/locks";
import { BadRequestError, EmployerMovingError, EmployerSuspendedError, ProblemError, problemResponse, ServiceUnavailableError, UnsupportedMediaTypeError } from "./problem";

/** How long a client waits after a 503 from a busy database (its retries here took up to 2.6 s). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

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
  // DESIGN 22a: the database refused a write of an employer being moved (its triggers name it),
  // and the batch stored nothing. A route to a shard it already left ("moved") is followed before
  // it gets here (src/shards/follow.ts); one that is not (the follows used up) is a moment's wait too.
  if (error instanceof EmployerMovedError || lockOf(error)) return problemResponse(c, new EmployerMovingError(MOVING_RETRY_AFTER_SECONDS));
  // DESIGN 26a: the write's batch met its employer suspended (src/employers/suspension.ts) and stored nothing.
  if (guardReason(error) === "suspended") return problemResponse(c, new EmployerSuspendedError());
  // D1 stayed busy or unreachable through the bindings' retries (src/db/retrying.ts).
  const transient = isTransient(error);
  console.error(
    JSON.stringify({
      level: transient ? "warn" : "error",
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      error: error.name,
      message: error.message,
      stack: error.stack,
    }),
  );
  if (transient) return problemResponse(c, new ServiceUnavailableError(DATABASE_RETRY_AFTER_SECONDS));
  return problemResponse(
    c,
    new ProblemError(500, "internal-error", "Internal server error.", "Something went wrong on our side. Quote the requestId if you contact us."),
  );
}
