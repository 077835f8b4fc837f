import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { findApiKey, type ApiKeyRecord } from "../../auth/api-keys";
import { keyUseToRecord } from "../../auth/service";
import type { AppEnv } from "../../env";
import { atShard, isShard } from "../../shards/bindings";
import { followedShard, followMovedEmployer } from "../../shards/follow";
import { afterResponse } from "../after-response";
import { UnauthorizedError } from "../problem";
import { countFailedAuthentication } from "./rate-limit";

// Real keys are short; anything longer is rejected before hashing.
const MAX_API_KEY_LENGTH = 256;

/**
 * The employer a sent `API-Key` names, or null when none was sent. A key that is sent and
 * unknown counts as a failed authentication (DESIGN 6b), on every path that reads one: past the
 * per-address limit the answer is a 429, whatever the path.
 */
export async function callerOf(c: Context<AppEnv>): Promise<ApiKeyRecord | null> {
  const apiKey = c.req.header("API-Key")?.trim();
  if (!apiKey) return null;
  const record = apiKey.length <= MAX_API_KEY_LENGTH ? await findApiKey(c.env.API_KEYS, apiKey) : null;
  if (!record) await countFailedAuthentication(c);
  return record;
}

/** Spec 5: every job operation needs a valid `API-Key`; the employer it names owns the request. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.req.header("API-Key")?.trim()) {
    await countFailedAuthentication(c);
    throw new UnauthorizedError("Send your API key in the API-Key header.");
  }
  const caller = await callerOf(c);
  // A record naming a shard this deployment does not bind cannot reach its employer.
  if (!caller || !isShard(c.env, caller.shard ?? 0)) throw new UnauthorizedError("The API key is not valid.");
  c.set("employerId", caller.employerId);
  c.set("testSpace", caller.test === true);
  // DESIGN 22: from here on the request sees its employer's shard as its bindings (DB included):
  // the one its key's record names, or, served again after a move, the one it moved to.
  const followed = `employer:${caller.employerId}`;
  c.env = atShard(c.env, followedShard(c.env, followed) ?? caller.shard ?? 0);
  await next();
  // A record cached before its employer moved routes here; an answer that found nothing of the
  // employer's is checked against its row, and served again where it lives (src/shards/follow.ts).
  await followMovedEmployer(c, followed, caller.employerId);
  // DESIGN 25: the hour the key was last used, for the console; after the answer, at most once an
  // hour per key per isolate (and then only if no isolate recorded it), in the shard that served.
  const record = keyUseToRecord(c.env.DB, c.req.header("API-Key")!.trim());
  if (record) afterResponse(c, record(), "API key use not recorded");
});
