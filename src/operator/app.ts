import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { csrf } from "hono/csrf";
import { pageHeaders } from "../ui/headers";
import { consoleConfigured, requireAccess } from "./access";
import { auditPages } from "./audit-pages";
import { isOwnOrigin, LANG_COOKIE, safeBack, type OperatorEnv } from "./context";
import { employerPages } from "./employers";
import { moderationPages } from "./moderation";
import { movePages } from "./moves";
import { peoplePages } from "./people";
import { queuePages } from "./queue";
import { operatorError } from "./render";
import { standIn } from "./stand-in";

// DESIGN 26, 26a: the operator's console, under /operator, behind Cloudflare Access. Without its
// settings it does not exist (the app's 404); otherwise every request needs Access's token
// (./access.ts), every answer is private (no-store, never indexed, no Referer to another site, a CSP without
// inline script, never framed) and every POST's Origin must be the console's own (hono/csrf). Each
// section is its own router, mounted here; every act goes through ./audit.ts or carries its record
// in its own ACCOUNTS_DB batch. The dev stand-in of Access (./stand-in.ts) answers only under `npm run dev`.

export const operatorPages = new Hono<OperatorEnv>();

operatorPages.route("/", standIn);

operatorPages.use("/operator/*", consoleConfigured);
// After the answer is made, so that every one has them — the 403, redirects and errors included.
operatorPages.use("/operator/*", async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(pageHeaders({ private: true, checkedPosts: true }))) c.res.headers.set(name, value);
});
operatorPages.use("/operator/*", requireAccess);
operatorPages.use("/operator/*", csrf({ origin: isOwnOrigin }), async (c, next) => {
  // A POST of no form type (which hono/csrf lets by) still needs our own Origin when it names one.
  const origin = c.req.header("Origin");
  if (c.req.method === "POST" && origin !== undefined && !isOwnOrigin(origin, c)) return c.text("Forbidden", 403);
  await next();
});
operatorPages.onError(operatorError);

/** The operator's language (field `language`: en | fr), remembered in a cookie; back to the page it came from. */
operatorPages.post("/operator/language", async (c) => {
  const { language, back } = await c.req.parseBody();
  if (language !== "en" && language !== "fr") return c.text("language must be en or fr", 422);
  setCookie(c, LANG_COOKIE, language, { httpOnly: true, sameSite: "Lax", path: "/operator", secure: new URL(c.req.url).protocol === "https:", maxAge: 365 * 86_400 });
  return c.redirect(safeBack(back), 303);
});

operatorPages.route("/", queuePages);
operatorPages.route("/", moderationPages);
operatorPages.route("/", employerPages);
operatorPages.route("/", peoplePages);
operatorPages.route("/", auditPages);
operatorPages.route("/", movePages);
