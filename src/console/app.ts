import { Hono } from "hono";
import { csrf } from "hono/csrf";
import { requireSession } from "../accounts/session";
import { NotFoundError } from "../http/problem";
import { pageHeaders } from "../ui/headers";
import { applicationPages } from "./applications/routes";
import { inEmployerShard, isOwnOrigin, type ConsoleEnv } from "./context";
import { homePage } from "./home";
import { loadsEditorScript } from "./jobs/editor/script";
import { jobPages } from "./jobs/routes";
import { keysPages } from "./keys/routes";
import { peoplePages } from "./people/routes";
import { loadsPasskeysScript, passkeyPages } from "./passkeys/routes";
import { consoleError } from "./render";
import { PUBLIC_PAGES, signInPages } from "./sign-in";
import { settingsPages } from "./settings/routes";
import { webhookPages } from "./webhooks/routes";

// DESIGN 25, 25a: the employer console, under /employer. Every answer is private (no-store, never
// indexed, no Referer), has a CSP without inline script and is never framed; every POST's Origin
// must be the console's own (hono/csrf); every page but sign-in and invitations needs a session
// (src/accounts/session.ts), and works in the person's employer's shard (./context.ts). Each
// section is its own router, mounted here.

export const consolePages = new Hono<ConsoleEnv>();

// After the answer is made, so that every one has them — redirects, 403s and errors included.
consolePages.use("/employer/*", async (c, next) => {
  await next();
  const scripts = loadsPasskeysScript(c.req.path) || loadsEditorScript(c.req.path) ? ["'self'"] : undefined;
  for (const [name, value] of Object.entries(pageHeaders({ private: true, checkedPosts: true, scripts }))) c.res.headers.set(name, value);
});
consolePages.use("/employer/*", csrf({ origin: isOwnOrigin }), async (c, next) => {
  // A POST of no form type (which hono/csrf lets by) still needs our own Origin when it names one.
  const origin = c.req.header("Origin");
  if (c.req.method === "POST" && origin !== undefined && !isOwnOrigin(origin, c)) return c.text("Forbidden", 403);
  await next();
});
consolePages.use("/employer/*", (c, next) => (PUBLIC_PAGES.test(c.req.path) ? next() : requireSession(c, next)));
consolePages.use("/employer/*", (c, next) => (PUBLIC_PAGES.test(c.req.path) ? next() : inEmployerShard(c, next)));
consolePages.onError(consoleError);

// Before sign-in's routes: /employer/sign-in/passkey is not a sign-in link's token.
consolePages.route("/", passkeyPages);
consolePages.route("/", signInPages);
consolePages.route("/", homePage);
consolePages.route("/", jobPages);
consolePages.route("/", applicationPages);
consolePages.route("/", webhookPages).route("/", settingsPages);
consolePages.route("/", keysPages);
consolePages.route("/", peoplePages);

// Last: any other console address is the console's own 404 page.
consolePages.all("/employer/*", () => {
  throw new NotFoundError();
});
