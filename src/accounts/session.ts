import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env";
import { createAccountsDatabase } from "./database/client";
import { afterResponse } from "../http/after-response";
import { endSessions as deleteSessions, findSession, touchSession, type SignedIn } from "./repository";
import { hashToken, newToken } from "./tokens";

// DESIGN 25: console sessions. The cookie holds 32 random bytes; ACCOUNTS_DB keeps only their
// SHA-256 (sessions.id). A session ends after 12 hours unused and 30 days after sign-in at the
// latest; each console request reads it from ACCOUNTS_DB (one statement: an ended session ends at
// once), and marks it used at most once a minute, after the answer.

/** The cookie `__Host-jpa_session`: hono/cookie adds the `__Host-` prefix (and enforces what it requires: Secure, Path=/, no Domain). */
const SESSION_COOKIE = "jpa_session";
export const IDLE_MS = 12 * 3_600_000;
export const ABSOLUTE_MS = 30 * 24 * 3_600_000;
/**
 * A session is marked used again once this long has passed since it last was, not on every
 * request: a page then costs one read and no write, and the 12 hours unused are counted from a
 * use at most a minute older than the last.
 */
const TOUCH_AFTER_MS = 60_000;

export type ConsoleEnv = { Bindings: AppEnv["Bindings"]; Variables: AppEnv["Variables"] & { person: SignedIn } };

/** A new session's cookie value (never stored) and its id (the value's SHA-256, what is stored). */
export async function newSession(): Promise<{ cookie: string; id: string }> {
  const cookie = newToken();
  return { cookie, id: await hashToken(cookie) };
}

export function setSessionCookie(c: Context, cookie: string): void {
  setCookie(c, SESSION_COOKIE, cookie, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", prefix: "host", maxAge: ABSOLUTE_MS / 1000 });
}

const clearSessionCookie = (c: Context) => deleteCookie(c, SESSION_COOKIE, { secure: true, path: "/", prefix: "host" });

/** The signed-in person of this request's cookie, or undefined when there is no valid session; marked used after the answer when a minute has passed. */
export async function sessionOf(c: Context<ConsoleEnv>, now = Date.now()): Promise<SignedIn | undefined> {
  const cookie = getCookie(c, SESSION_COOKIE, "host");
  if (!cookie) return undefined;
  const db = createAccountsDatabase(c.env.ACCOUNTS_DB);
  const sessionId = await hashToken(cookie);
  const found = await findSession(db, sessionId, now, IDLE_MS);
  if (!found) return undefined;
  const { lastUsedAt, ...person } = found;
  if (now - lastUsedAt >= TOUCH_AFTER_MS) afterResponse(c, touchSession(db, sessionId, now, IDLE_MS), "session not marked used");
  return person;
}

/**
 * DESIGN 25a: without a valid session, a console page answers 303 to the sign-in page, which
 * comes back here (`next`) once signed in.
 */
export const requireSession: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const person = await sessionOf(c);
  if (!person) {
    const url = new URL(c.req.url);
    return c.redirect(`/employer/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
  }
  c.set("person", person);
  await next();
};

/** Ends this session, or (`everywhere`) every session of its person, on the server; the cookie goes too. */
export async function endSessions(c: Context<ConsoleEnv>, everywhere: boolean): Promise<void> {
  const { sessionId, personId } = c.get("person");
  await deleteSessions(createAccountsDatabase(c.env.ACCOUNTS_DB), { sessionId, personId, everywhere });
  clearSessionCookie(c);
}
