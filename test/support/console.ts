import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { hashToken, newToken, type Role } from "../../src/accounts/tokens";
import { BASE } from "./api";

// The employer console in tests (DESIGN 25): requests go through the Worker's entry over HTTP, as
// a browser sends them (its own Origin on every POST), with the Email Service binding replaced by
// a recorder, so a test reads the emails the console sent; work after the answer is waited for.

export const SESSION_COOKIE = "__Host-jpa_session";

/** Every email the console sent during this file, newest last. */
export const sentMail: { to: string; subject: string; text: string }[] = [];
const recordingEmail = { send: async (mail: { to: string; subject: string; text: string }) => void sentMail.push(mail) } as unknown as SendEmail;

/** One request to the Worker; a POST carries the console's own Origin unless told another, and its `form` (pairs repeat a field) or `json` as its body. */
export async function call(path: string, init: { method?: string; cookie?: string; origin?: string | null; form?: Record<string, string> | [string, string][]; json?: unknown; headers?: Record<string, string> } = {}) {
  const method = init.method ?? (init.form || init.json !== undefined ? "POST" : "GET");
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", `${SESSION_COOKIE}=${init.cookie}`);
  const origin = init.origin === undefined ? BASE : init.origin;
  if (method === "POST" && origin !== null) headers.set("Origin", origin);
  let body: string | undefined;
  if (method === "POST" && init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  } else if (method === "POST") {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(init.form ?? {}).toString();
  }
  const ctx = createExecutionContext();
  const res = await worker.fetch!(new Request(path.startsWith("http") ? path : `${BASE}${path}`, { method, headers, body, redirect: "manual" }) as never, { ...env, EMAIL: recordingEmail, EMAIL_FROM: "console@jobs.example.com" } as never, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The session cookie an answer sets, or undefined. */
export function sessionCookieOf(res: Response): string | undefined {
  const header = res.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  const value = header?.slice(SESSION_COOKIE.length + 1).split(";")[0];
  return value || undefined;
}

/** An invitation as `npm run people -- invite` writes it; its token. */
export async function invite(employerId: number, email: string, options: { role?: Role; expiresAt?: number; usedAt?: number } = {}): Promise<string> {
  const token = newToken();
  const now = Date.now();
  await env.ACCOUNTS_DB.prepare("INSERT INTO invitations (token_hash, employer_id, email, role, invited_by, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, 'operator', ?, ?, ?)")
    .bind(await hashToken(token), employerId, email.toLowerCase(), options.role ?? "admin", now, options.expiresAt ?? now + 7 * 86_400_000, options.usedAt ?? null)
    .run();
  return token;
}

/** Invited and accepted: the new person's session cookie. */
export async function signedIn(employerId: number, email: string, options: { role?: Role; lang?: "en" | "fr" } = {}): Promise<string> {
  const token = await invite(employerId, email, options);
  const res = await call(`/employer/invitations/${token}${options.lang ? `?lang=${options.lang}` : ""}`, { form: {} });
  const cookie = sessionCookieOf(res);
  if (res.status !== 303 || !cookie) throw new Error(`accepting the invitation answered ${res.status}`);
  return cookie;
}

/** The sign-in link of the newest email to `to`. */
export function linkIn(to: string): string {
  const mail = sentMail.findLast((m) => m.to === to);
  const link = mail?.text.match(/https?:\/\/\S+\/employer\/sign-in\/\S+/)?.[0];
  if (!link) throw new Error(`no sign-in email to ${to}`);
  return link;
}
