import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { TooManyRequestsError } from "../problem";

/**
 * The period of both limiters in wrangler.toml. The binding only answers yes or no, so
 * `Retry-After` names the whole window: a client that waits that long is sure to get in.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

async function enforce(limiter: RateLimit, key: string): Promise<void> {
  const { success } = await limiter.limit({ key });
  if (!success) throw new TooManyRequestsError(RATE_LIMIT_PERIOD_SECONDS);
}

/**
 * DESIGN 5: job requests per employer (all its keys together). The limiter key is the
 * employer id, never the API key, so the key reaches no other system.
 */
export const limitJobRequests = createMiddleware<AppEnv>(async (c, next) => {
  await enforce(c.env.JOB_RATE_LIMITER, `employer:${c.get("employerId")}`);
  await next();
});

/**
 * Counts one failed authentication against the client's address; past the limit the client
 * gets 429 instead of 401. Keys are 256 random bits, so this is not what stops guessing: it
 * caps the KV reads and log noise a scanner or a misconfigured integration can cause.
 */
export async function countFailedAuthentication(c: Context<AppEnv>): Promise<void> {
  await enforce(c.env.AUTH_FAILURE_RATE_LIMITER, `address:${c.req.header("CF-Connecting-IP") ?? "unknown"}`);
}
