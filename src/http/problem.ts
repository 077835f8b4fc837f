import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** One broken rule: `field` is the member's path (`locations[1].description`, `pageSize`). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * Every failure the API reports is one of these; the app's single `onError` turns it into an
 * RFC 9457 problem+json body. `type` is a relative URI reference naming the problem kind.
 */
export class ProblemError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly kind: string,
    readonly title: string,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; members?: Record<string, unknown> } = {},
  ) {
    super(detail);
  }
}

export class ValidationError extends ProblemError {
  constructor(errors: FieldError[], detail = "The request has invalid members; see errors.") {
    super(400, "validation-error", "Your request is not valid.", detail, { errors });
  }
}

export class BadRequestError extends ProblemError {
  constructor(detail: string) {
    super(400, "bad-request", "Bad request.", detail);
  }
}

export class UnauthorizedError extends ProblemError {
  constructor(detail: string) {
    super(401, "unauthorized", "Authentication required.", detail, {
      headers: { "WWW-Authenticate": 'API-Key header="API-Key"' },
    });
  }
}

export class NotFoundError extends ProblemError {
  constructor(detail = "No resource exists at this address.") {
    super(404, "not-found", "Not found.", detail);
  }
}

export class MethodNotAllowedError extends ProblemError {
  constructor(method: string, allowed: string[]) {
    super(405, "method-not-allowed", "Method not allowed.", `${method} is not allowed here; use ${allowed.join(", ")}.`, {
      headers: { Allow: allowed.join(", ") },
    });
  }
}

export class ConflictError extends ProblemError {
  constructor(kind: string, detail: string, members?: Record<string, unknown>) {
    super(409, kind, "Conflict.", detail, { members });
  }
}

/** DESIGN 11: If-Match named none of the job's current ETag (sent back when the job exists). */
export class PreconditionFailedError extends ProblemError {
  constructor(currentEtag?: string, resource: "job" | "application" = "job") {
    super(
      412,
      "precondition-failed",
      "Precondition failed.",
      currentEtag
        ? `The ${resource} has changed since the ETag you sent in If-Match; read it again (its current ETag is in this response's ETag header).`
        : "No job matches If-Match: there is no job with this referenceId, and a PUT with If-Match never creates one.",
      { headers: currentEtag ? { ETag: currentEtag } : {} },
    );
  }
}

export class PayloadTooLargeError extends ProblemError {
  constructor(limitBytes: number) {
    super(413, "payload-too-large", "Request body too large.", `The request body must be at most ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends ProblemError {
  constructor(received: string | undefined, accepted: string[] = ["application/json"]) {
    super(
      415,
      "unsupported-media-type",
      "Unsupported media type.",
      `Send the body as ${accepted.join(" or ")} (received ${received ? `"${received}"` : "no Content-Type"}).`,
    );
  }
}

export class TooManyRequestsError extends ProblemError {
  constructor(retryAfterSeconds: number) {
    super(429, "rate-limited", "Too many requests.", `Rate limit exceeded; retry after ${retryAfterSeconds} seconds.`, {
      headers: { "Retry-After": String(retryAfterSeconds) },
    });
  }
}

/** The database stayed busy or unreachable through every retry: a moment later it usually is not. */
export class ServiceUnavailableError extends ProblemError {
  constructor(retryAfterSeconds: number) {
    super(
      503,
      "service-unavailable",
      "Service temporarily unavailable.",
      `The database is briefly unavailable; retry after ${retryAfterSeconds} seconds (a POST retried with the same Idempotency-Key is never applied twice).`,
      { headers: { "Retry-After": String(retryAfterSeconds) } },
    );
  }
}

/**
 * DESIGN 22a: the employer's data is being moved to another database. Its reads are served; its
 * writes are refused (nothing stored) until the move is done, minutes at most.
 */
export class EmployerMovingError extends ProblemError {
  constructor(retryAfterSeconds: number) {
    super(
      503,
      "employer-moving",
      "Your data is being moved.",
      `Your jobs and settings are being moved to another database: reading works, writing resumes within seconds. Nothing of this request was stored; retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"} (a POST retried with the same Idempotency-Key is never applied twice).`,
      { headers: { "Retry-After": String(retryAfterSeconds) } },
    );
  }
}

/**
 * DESIGN 26a: an operator removed the job from the board; it may be edited but not published
 * (`status: active`) until an operator restores it.
 */
export class JobRemovedError extends ProblemError {
  constructor() {
    super(
      409,
      "job-removed",
      "The job was removed from the board.",
      "The board's operator removed this job (its `moderation` member says why and when): you may change it, but it cannot be published until the operator restores it. Answer the email your administrators received to ask for a review.",
    );
  }
}

/**
 * DESIGN 26a: the board's operator suspended the employer. Its reads are served; every write of
 * its jobs, applications and settings is refused, nothing of it stored.
 */
export class EmployerSuspendedError extends ProblemError {
  constructor() {
    super(
      403,
      "employer-suspended",
      "Your employer account is suspended.",
      "The board's operator suspended your employer account: your jobs are off the board and your changes are refused (reading still works). Nothing of this request was stored. Write to the board's contact to ask for a review.",
    );
  }
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export function problemResponse(c: Context, problem: ProblemError): Response {
  const body = {
    type: `/problems/${problem.kind}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    ...(problem.extra.errors ? { errors: problem.extra.errors } : {}),
    ...problem.extra.members,
    instance: c.req.path,
    requestId: c.get("requestId"),
  };
  for (const [name, value] of Object.entries(problem.extra.headers ?? {})) c.header(name, value);
  c.header("Content-Type", PROBLEM_CONTENT_TYPE);
  return c.body(JSON.stringify(body), problem.status);
}
