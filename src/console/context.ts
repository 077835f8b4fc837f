import type { Context, MiddlewareHandler } from "hono";
import type { ConsoleEnv } from "../accounts/session";
import { createDatabase } from "../db/client";
import { atShard, isShard } from "../shards/bindings";
import { SHARD_ID_SPAN } from "../shards/identity";
import { followedShard, followMovedEmployer } from "../shards/follow";
import type { Lang } from "../ui/i18n";

// DESIGN 25, 25a: what every console page needs of its request — the language, the public
// origin, the signed-in person's employer in its shard (as an API key's request has it), and
// the admin-only guard.

export type { ConsoleEnv };
export type ConsoleContext = Context<ConsoleEnv>;

/** Before sign-in: a `lang` query parameter (or form field), else Accept-Language. */
export function requestLang(c: ConsoleContext, given?: unknown): Lang {
  const asked = given ?? c.req.query("lang");
  if (asked === "fr" || asked === "en") return asked;
  const accept = c.req.header("Accept-Language") ?? "";
  const first = accept.split(",").map((part) => part.trim().toLowerCase())[0] ?? "";
  return first.startsWith("fr") ? "fr" : "en";
}

/** `next` when it is a console path of this origin, else undefined. */
export function safeNext(next: unknown): string | undefined {
  return typeof next === "string" && /^\/employer(\/|\?|$)/.test(next) && !/[\\\s]/.test(next) ? next : undefined;
}

/** The public origin, as src/http/paging.ts's publicOrigin finds it: BASE_URL, else the request's. */
export const publicOrigin = (c: ConsoleContext) => c.env.BASE_URL?.replace(/\/+$/, "") || new URL(c.req.url).origin;
/** This page's absolute address (the same in both languages: DESIGN 25a). */
export const addressOf = (c: ConsoleContext) => `${publicOrigin(c)}${c.req.path}`;
/** This page in the other language, before sign-in (a `lang` query parameter). */
export function switchOf(c: ConsoleContext, lang: Lang): string {
  const url = new URL(c.req.url);
  url.searchParams.set("lang", lang === "en" ? "fr" : "en");
  return `${url.pathname}?${url.searchParams}`;
}
export const isOwnOrigin = (origin: string, c: ConsoleContext) => origin === new URL(c.req.url).origin || origin === publicOrigin(c);

/** The shard an employer was created in: its id's range (src/shards/identity.ts); 0 when that shard is not bound. */
function homeShard(c: ConsoleContext, employerId: number): number {
  const shard = Math.floor((employerId - 1) / SHARD_ID_SPAN);
  return isShard(c.env, shard) ? shard : 0;
}

/**
 * DESIGN 22, 25: a signed-in request sees its employer's shard as its bindings, and one Drizzle
 * instance on that shard's primary (a console reads what it just saved), as an API key's request
 * does (src/http/middleware/authenticate.ts). Routed by the employer's id; after a move the
 * tombstone there sends the request, whole, to where the employer lives (src/shards/follow.ts).
 */
export const inEmployerShard: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const { employerId } = c.get("person");
  const followed = `employer:${employerId}`;
  c.env = atShard(c.env, followedShard(c.env, followed) ?? homeShard(c, employerId));
  c.set("employerId", employerId);
  c.set("testSpace", false);
  c.set("db", createDatabase(c.env.DB.withSession("first-primary")));
  await next();
  await followMovedEmployer(c as never, followed, employerId);
};

/** Who made a change, for its events (DESIGN 25: `actor`). */
export const actorOf = (c: ConsoleContext) => ({ type: "user" as const, id: c.get("person").personId });

/** The jobs, applications and webhooks services' caller: the person's employer, in its shard, and the person as the actor of its events. */
export const callerOf = (c: ConsoleContext) => ({ db: c.get("db"), employerId: c.get("employerId"), actor: actorOf(c) });
