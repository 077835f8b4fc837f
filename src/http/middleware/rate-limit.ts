import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { TooManyRequestsError } from "../problem";

/**
 * The period of both limiters in wrangler.toml. The binding only answers yes or no, so
 * `Retry-After` names the whole window: a client that waits that long is sure to get in.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

/** The client's address as Cloudflare saw it; locally absent, so every local client is one. */
export const clientAddress = (c: Context) => c.req.header("CF-Connecting-IP") ?? "unknown";

export async function enforce(limiter: RateLimit, key: string): Promise<void> {
  const { success } = await limiter.limit({ key });
  if (!success) throw new TooManyRequestsError(RATE_LIMIT_PERIOD_SECONDS);
}

/**
 * DESIGN 11: every authenticated API response says which limit applies, as the IETF draft's
 * `RateLimit-Policy` (`"jobs";q=1000;w=60`): the limit is per employer (all its keys), per window.
 * The binding cannot tell its own limit, so the configured number comes from JOB_RATE_LIMIT.
 * Its remaining quota it cannot tell either, so no `RateLimit` field is sent.
 */
export const rateLimitPolicy = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const limit = Number(c.env.JOB_RATE_LIMIT);
  if (Number.isSafeInteger(limit) && limit > 0) c.header("RateLimit-Policy", `"jobs";q=${limit};w=${RATE_LIMIT_PERIOD_SECONDS}`);
});

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
  await enforce(c.env.AUTH_FAILURE_RATE_LIMITER, `address:${clientAddress(c)}`);
}
