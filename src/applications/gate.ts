import { createMiddleware } from "hono/factory";
import { shardsOfBoardJobs } from "../board/pages";
import type { AppEnv } from "../env";
import { atShard, isShard } from "../shards/bindings";
import { followedShard, followMovedEmployer } from "../shards/follow";
import { canonicalContentType, isJsonMediaType } from "../http/middleware/json-body";
import { clientAddress, enforce } from "../http/middleware/rate-limit";
import { UnsupportedMediaTypeError } from "../http/problem";

const ACCEPTED = ["application/json", "multipart/form-data"];
const isMultipart = (contentType: string) => /^\s*multipart\/form-data\s*(;|$)/i.test(contentType);
// RFC 2046: the boundary, quoted or not; the only parameter multipart/form-data needs.
const BOUNDARY = /;\s*boundary\s*=\s*("[^"]*"|[^;\s]+)/i;

/**
 * Registered before the body limit, so before any byte of an application (up to 6 MiB, or a
 * stream of unknown length) is read: the per-address limit (DESIGN 15: refused attempts count
 * too), then the media type, named as received. Past it the media type is written as the
 * parsers behind expect it: `application/json` (any parameters of DESIGN 5's rule dropped), or
 * multipart with its boundary alone. The route checks a JSON body's bounds (6b) once the body
 * limit has let it through.
 */
export const applyGate = createMiddleware<AppEnv>(async (c, next) => {
  await enforce(c.env.APPLY_RATE_LIMITER, `address:${clientAddress(c)}`);
  const contentType = c.req.header("Content-Type");
  if (!contentType || !(isJsonMediaType(contentType) || isMultipart(contentType))) throw new UnsupportedMediaTypeError(contentType, ACCEPTED);
  const boundary = BOUNDARY.exec(contentType)?.[1];
  canonicalContentType(c, !isMultipart(contentType) ? "application/json" : boundary ? `multipart/form-data; boundary=${boundary}` : "multipart/form-data");
  await next();
});

/**
 * DESIGN 22: an application to a board job is written in the job's shard, which the board's own
 * row of the job names (one read of the board, never a search of the shards). A job not on the
 * board keeps shard 0, where the application's own check answers 404. A shard its employer has
 * left since (the board learns it from the new shard's repair) is followed: the application is
 * taken where the employer lives (src/shards/follow.ts).
 */
export const applyInJobShard = createMiddleware<AppEnv>(async (c, next) => {
  const id = Number(c.req.param("id"));
  const home = Number.isSafeInteger(id) && id > 0 ? (await shardsOfBoardJobs(c.env, [id])).get(id) : undefined;
  const followed = `job:${id}`;
  const shard = followedShard(c.env, followed) ?? home?.shard;
  if (shard !== undefined && isShard(c.env, shard)) c.env = atShard(c.env, shard);
  await next();
  await followMovedEmployer(c, followed, home?.employerId ?? undefined);
});
