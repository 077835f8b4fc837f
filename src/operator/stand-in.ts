import { Hono, type MiddlewareHandler } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { NotFoundError, problemResponse } from "../http/problem";
import { ACCESS_COOKIE, CERTS_PATH } from "./access";
import type { OperatorEnv } from "./context";

// DESIGN 26a: `npm run dev`'s stand-in of Cloudflare Access, so that a person can open the
// operator's console locally. It exists only where its private key does: scripts/dev.mjs writes
// ACCESS_DEV_PRIVATE_JWK to .dev.vars (which only `wrangler dev` reads; no deployment has it), and
// it answers only requests to a loopback host. It publishes its public key where Access publishes a
// team's (the dev team domain is the local origin), and a link printed by `npm run operator --
// sign-in` sets the token as Access's cookie. Its tokens are verified like any other
// (src/operator/access.ts): with other ACCESS_TEAM_DOMAIN or ACCESS_AUD settings they are refused.

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** The members of an RSA private JWK that must never leave it. */
const PRIVATE_MEMBERS = new Set(["d", "p", "q", "dp", "dq", "qi", "oth"]);
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export const standIn = new Hono<OperatorEnv>();

/** Without the key, or asked on another host than this machine's: the app's 404, as if nothing were here. */
const onlyInDev: MiddlewareHandler<OperatorEnv> = async (c, next) => {
  if (!c.env.ACCESS_DEV_PRIVATE_JWK || !LOOPBACK.has(new URL(c.req.url).hostname)) return problemResponse(c, new NotFoundError());
  await next();
};
standIn.use("/cdn-cgi/access/*", onlyInDev);

/** The stand-in's key set: its one public key (the private members dropped). */
standIn.get(CERTS_PATH, (c) => {
  const jwk = JSON.parse(c.env.ACCESS_DEV_PRIVATE_JWK!) as Record<string, unknown>;
  const publicKey = Object.fromEntries(Object.entries(jwk).filter(([member]) => !PRIVATE_MEMBERS.has(member)));
  return c.json({ keys: [{ ...publicKey, alg: "RS256", use: "sig" }] }, 200, { "Cache-Control": "no-store" });
});

/** Signs a browser in: the token (from `npm run operator -- sign-in`) as Access's cookie, then the console. */
standIn.get("/cdn-cgi/access/dev-sign-in", (c) => {
  const token = c.req.query("token") ?? "";
  if (!JWT_SHAPE.test(token)) return c.text("token must be a token printed by npm run operator -- sign-in", 400);
  setCookie(c, ACCESS_COOKIE, token, { httpOnly: true, sameSite: "Lax", path: "/", secure: new URL(c.req.url).protocol === "https:" });
  return c.redirect("/operator", 303);
});

/** Access's sign-out address: the cookie goes. */
standIn.get("/cdn-cgi/access/logout", (c) => {
  deleteCookie(c, ACCESS_COOKIE, { path: "/" });
  return c.text("Signed out of the dev stand-in of Cloudflare Access.");
});
