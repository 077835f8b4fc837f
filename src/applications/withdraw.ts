import type { Database } from "../db/client";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Env } from "../env";
import { atShard, isShard, shardDatabase } from "../shards/bindings";
import { followedShard, serveAgain } from "../shards/follow";
import { lockOf } from "../shards/locks";
import { ConflictError } from "../http/problem";
import { isFinal } from "./pipeline";
import { findByWithdrawToken } from "./repository";
import { applyMove } from "./service";

// DESIGN 20: the applicant's withdraw link. The token is random; the application keeps its
// SHA-256 only, and the link works once, for 180 days, while the application is open.

/** The withdraw pages (DESIGN 20): `${WITHDRAW_PATH}/{token}`. */
export const WITHDRAW_PATH = "/withdraw";

/**
 * The link's token: 32 random bytes (43 characters), after `{shard}-` for an application outside
 * shard 0 (DESIGN 22: the link names its shard). The length tells the two apart, so a link made
 * before shards (43 characters) still names shard 0.
 */
const TOKEN = /^(?:([1-9][0-9]?)-)?[A-Za-z0-9_-]{43}$/;

/** A random token for the withdraw link of an application in `shard` (the application keeps its SHA-256 only). */
export function newWithdrawToken(shard: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const random = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return shard === 0 ? random : `${shard}-${random}`;
}

/** The shard a withdraw token names, or undefined for a token that is not one of ours. */
export function shardOfWithdrawToken(token: string): number | undefined {
  const match = TOKEN.exec(token);
  return match ? Number(match[1] ?? 0) : undefined;
}

export async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The withdraw link's application, while the link works and the application is open; else undefined (a 404 page). */
export async function withdrawable(db: Database, token: string) {
  if (shardOfWithdrawToken(token) === undefined) return undefined;
  const application = await findByWithdrawToken(db, await tokenHash(token), Date.now());
  return application && !isFinal(application.status) ? application : undefined;
}

/** The applicant withdraws through the link: the application is withdrawn, its résumé deleted, the link used up. */
export async function withdrawByLink(env: Env, db: Database, token: string) {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const application = await withdrawable(db, token);
    if (!application) return undefined;
    const moved = await applyMove(env, db, application, {
      status: "withdrawn",
      note: "Withdrawn by the applicant through the link in the confirmation email.",
      notify: null,
    });
    if (moved) return moved;
  }
  throw new ConflictError("edit-conflict", "The application changed 20 times while it was withdrawn; try again.");
}


/**
 * DESIGN 22: where an application whose link names `shard` lives when its employer moved away
 * since: among the shards this one's tombstones name (a few, usually none), the one holding the
 * token. Undefined: none.
 */
async function shardHoldingToken(env: Env, shard: number, token: string): Promise<number | undefined> {
  const { results } = await shardDatabase(env, shard).prepare("SELECT DISTINCT moved_to AS movedTo FROM employers WHERE moved_to IS NOT NULL").all<{ movedTo: number }>();
  const hash = await tokenHash(token);
  for (const { movedTo } of results) {
    if (!isShard(env, movedTo)) continue;
    const held = await shardDatabase(env, movedTo).prepare("SELECT 1 FROM applications WHERE withdraw_token_hash = ?").bind(hash).first();
    if (held) return movedTo;
  }
  return undefined;
}

/**
 * DESIGN 22: the withdraw pages work in the shard their token names (a token naming none stays in
 * shard 0, and finds nothing there). A link made before its employer moved names the shard it
 * left: a link not found there, or refused there as moved, is served again where it is now.
 */
export const inWithdrawTokenShard = createMiddleware<AppEnv>(async (c, next) => {
  const token = c.req.path.slice(c.req.path.lastIndexOf("/") + 1);
  const named = shardOfWithdrawToken(token);
  const followed = `token:${token}`;
  const shard = followedShard(c.env, followed) ?? named;
  if (shard !== undefined && isShard(c.env, shard)) c.env = atShard(c.env, shard);
  await next();
  if (shard === undefined || !isShard(c.env, shard) || (c.res.status !== 404 && lockOf(c.error) !== "moved")) return;
  const holding = await shardHoldingToken(c.env, shard, token);
  if (holding !== undefined) await serveAgain(c, followed, holding);
});
