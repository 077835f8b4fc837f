import { createMiddleware } from "hono/factory";
import { createDatabase } from "../../db/client";
import type { AppEnv } from "../../env";
import { BadRequestError } from "../problem";

export const BOOKMARK_HEADER = "X-D1-Bookmark";

// D1 bookmarks are dash-separated hex groups (`00000085-0000024c-00004c6d-8e61…`). Anything
// else cannot have come from us, so it is refused rather than handed to D1.
const BOOKMARK_PATTERN = /^[0-9a-f-]{1,128}$/i;
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A bookmark the client sent: refused when it cannot be ours (400, before anything reads it), and
 * sent back on an answer that did no database work (a 401 included), so the client keeps it.
 * Registered before authentication, which chooses the shard the session below opens on.
 */
export const bookmarks = createMiddleware<AppEnv>(async (c, next) => {
  const bookmark = c.req.header(BOOKMARK_HEADER);
  if (bookmark !== undefined && !BOOKMARK_PATTERN.test(bookmark)) {
    throw new BadRequestError(`The ${BOOKMARK_HEADER} header must be a bookmark returned by this API.`);
  }
  await next();
  if (bookmark && !c.res.headers.has(BOOKMARK_HEADER)) c.header(BOOKMARK_HEADER, bookmark);
});

/**
 * One Drizzle instance per request, on a D1 session of the request's shard (`c.env.DB` once
 * authentication, or the public write's own middleware, has put the shard's bindings in
 * `c.env`; shard 0, which holds the reference data like every shard, for the rest)
 * (docs/scaling.md): reads start anywhere (a nearby replica) unless the client sends the
 * bookmark of something it has seen (checked by `bookmarks`), writes start on the primary. The
 * session's bookmark goes back on the response, so a client that echoes it reads its own writes
 * on the next request, whichever replica serves it.
 */
export const database = createMiddleware<AppEnv>(async (c, next) => {
  const bookmark = c.req.header(BOOKMARK_HEADER);
  const session = c.env.DB.withSession(
    READ_METHODS.has(c.req.method) ? (bookmark ?? "first-unconstrained") : "first-primary",
  );
  c.set("db", createDatabase(session));
  await next();
  const latest = session.getBookmark() ?? bookmark;
  if (latest) c.header(BOOKMARK_HEADER, latest);
});
