// Pure rules of webhook endpoints and their delivery (DESIGN 13, 13a); the retry schedule is
// events' delivery contract (src/events/retry-schedule.ts).

import type { Env } from "../env";
import { hostProblem } from "./address";

export const MAX_ENDPOINTS = 10;
export const MAX_URL_LENGTH = 2000;
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** An endpoint whose deliveries have all failed this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;
export const LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Local development only (set in wrangler's [env.dev], never at the top level). */
export const allowsInsecureWebhooks = (env: Pick<Env, "WEBHOOKS_ALLOW_INSECURE">) => env.WEBHOOKS_ALLOW_INSECURE === "true";

/**
 * Why `url` may not receive webhooks (DESIGN 13, 6b), or null when it may: https only, no
 * credentials, at most 2 000 characters, a host that hostProblem accepts. `allowInsecure`
 * (local development only) also allows http:// and the local hosts hostProblem names.
 */
export function urlProblem(url: string, allowInsecure: boolean): string | null {
  if ([...url].length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters.`;
  const parsed = URL.parse(url);
  if (!parsed || !/^https?:\/\//i.test(url)) return "url must be an absolute https:// address.";
  if (parsed.username || parsed.password) return "url must not carry credentials.";
  if (parsed.protocol !== "https:" && !(allowInsecure && parsed.protocol === "http:")) return "url must use https://.";
  return hostProblem(parsed.hostname, allowInsecure);
}
