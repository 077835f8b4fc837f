import type { Context } from "hono";
import type { AppEnv, Env } from "../env";
import { bindingsOf, isShard } from "./bindings";
import { EmployerMovedError, lockOf } from "./locks";

// DESIGN 22: a request routed by a stale cache (an API key's record, the board's row of a job, a
// withdraw link's token) to a shard its employer left finds a tombstone there: the employer's row
// with moved_to. Checking that before every request would cost every request a round trip;
// instead the request is served as routed, and it is noticed where a read meets the tombstone
// anyway (the employer's settings, a list's total, reconcile's answer, an application's job: they
// throw EmployerMovedError), where a write is refused by its triggers ("employer-moved"), or, on a
// 404, by one read of the employer's row. When it moved, the request is served again, whole, in
// the shard it moved to: one more serving, on the stale path only.

/** Follows of one request at most: a chain of moves whose caches are all stale is a moment's 503. */
const MAX_FOLLOWS = 3;

interface Followed {
  /** What was followed: `employer:N`, `job:N`, `token:…`. */
  key: string;
  shard: number;
  follows: number;
}

/**
 * The bindings a request served again is dispatched with, each marked with where to go: the mark
 * lives in this isolate's memory, so no client can send it.
 */
const marks = new WeakMap<Env, Followed>();

/** The shard a request served again goes to for `key`, instead of where its cache routed it. */
export function followedShard(env: Env, key: string): number | undefined {
  const mark = marks.get(bindingsOf(env));
  return mark?.key === key ? mark.shard : undefined;
}

/** What the answer says of a move: the shard the employer moved to when a read saw it, "check" when only a read of its row can tell. */
function hintOf(c: Context<AppEnv>): number | "check" | undefined {
  if (c.error instanceof EmployerMovedError) return c.error.shard;
  if (lockOf(c.error) === "moved" || c.res.status === 404) return "check";
  return undefined;
}

/** Where employer `employerId` moved from the shard `db` is (a primary read: a tombstone is never stale there), or undefined. */
export async function movedTo(db: D1Database, employerId: number): Promise<number | undefined> {
  const row = await db.prepare("SELECT moved_to AS movedTo FROM employers WHERE id = ?").bind(employerId).first<{ movedTo: number | null }>();
  return row?.movedTo ?? undefined;
}

/**
 * After the request was served: when its answer may come from a shard `employerId` left, and its
 * row there says so, the request is served again in the shard it moved to (its answer replaces
 * this one). `employerId` (or how to find it, read only when needed) may be unknown (a job the
 * board no longer lists): nothing to follow.
 */
export async function followMovedEmployer(
  c: Context<AppEnv>,
  key: string,
  employerId: number | undefined | (() => Promise<number | undefined>),
): Promise<void> {
  const hint = hintOf(c);
  if (hint === undefined) return;
  const employer = typeof employerId === "function" ? await employerId() : employerId;
  const shard = hint === "check" ? (employer === undefined ? undefined : await movedTo(c.env.DB, employer)) : hint;
  if (shard !== undefined) await serveAgain(c, key, shard);
}

/** A request's body again, from what the first serving read of it (Hono keeps it); undefined when it cannot be had. */
async function bodyAgain(c: Context<AppEnv>): Promise<BodyInit | null | undefined> {
  if (c.req.method === "GET" || c.req.method === "HEAD") return null;
  const cached = c.req.bodyCache;
  if (cached.formData) return await cached.formData;
  if (Object.keys(cached).length > 0) return await c.req.arrayBuffer();
  if (!c.req.raw.bodyUsed) return c.req.raw.body === null ? null : await c.req.raw.arrayBuffer();
  return undefined;
}

/**
 * Serves the request again, whole (the Worker's app from its first middleware), with `key`
 * followed to `shard`; its answer becomes this one. Not when the follows are used up, or the body
 * cannot be read again: the first answer stands (a refused write is a 503 to retry).
 */
export async function serveAgain(c: Context<AppEnv>, key: string, shard: number): Promise<void> {
  const follows = (marks.get(bindingsOf(c.env))?.follows ?? 0) + 1;
  if (follows > MAX_FOLLOWS || !isShard(c.env, shard)) return;
  const body = await bodyAgain(c);
  if (body === undefined) return;
  const env: Env = { ...bindingsOf(c.env) };
  marks.set(env, { key, shard, follows });
  const headers = new Headers(c.req.raw.headers);
  // One request id for both servings; no bookmark of the shard it left (bookmarks are per database).
  headers.set("X-Request-Id", c.get("requestId"));
  headers.delete("X-D1-Bookmark");
  // A form is sent again with a boundary of its own.
  if (typeof FormData !== "undefined" && body instanceof FormData) headers.delete("Content-Type");
  let context: unknown;
  try {
    context = c.executionCtx;
  } catch {
    // Served without one (app.fetch called directly): so is this serving.
  }
  // The app that served the request, handed to it (DESIGN 16b: nothing below the entry imports it).
  const answer = await c.get("app").fetch(new Request(c.req.raw.url, { method: c.req.raw.method, headers, body }), env, context as ExecutionContext);
  c.res = undefined;
  c.res = answer;
}
