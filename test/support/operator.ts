import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { HtmlValidate } from "html-validate/browser";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { expect } from "vitest";
import worker from "../../src/index";
import { BASE } from "./api";

// The operator's console in tests (DESIGN 26): a team of Cloudflare Access of the test's own —
// RSA keys generated here, their public set served to the Worker from test/support/access-stub.ts
// — tokens signed with them, and requests through the Worker's entry over HTTP, with the Email
// Service binding replaced by a recorder.

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/** Every email the Worker sent during this file, newest last. */
export const sentMail: { to: string; subject: string; text: string }[] = [];
const recordingEmail = { send: async (mail: { to: string; subject: string; text: string }) => void sentMail.push(mail) } as unknown as SendEmail;

export async function newKey(): Promise<SigningKey> {
  const kid = crypto.randomUUID();
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

/** A team of its own: its domain, an audience tag, a first key published. */
export async function newTeam() {
  const name = `team-${crypto.randomUUID().slice(0, 8)}`;
  const team = { name, teamDomain: `https://${name}.access.test`, audience: `aud-${crypto.randomUUID()}`, key: await newKey() };
  await publish(team.name, [team.key]);
  return team;
}
export type Team = Awaited<ReturnType<typeof newTeam>>;

/** What the team's certs address answers from now on. */
export async function publish(team: string, keys: SigningKey[]): Promise<void> {
  await fetch(`http://control.access.test/${team}/keys`, { method: "POST", body: JSON.stringify({ keys: keys.map((key) => key.publicJwk) }) });
}

/** How often the Worker fetched the team's keys. */
export async function fetchesOf(team: string): Promise<number> {
  return ((await (await fetch(`http://control.access.test/${team}/fetches`)).json()) as { fetches: number }).fetches;
}

/** A token as Access signs it for `team` (claims and header overridable). */
export async function accessToken(team: Team, options: { email?: string | null; claims?: Record<string, unknown>; key?: SigningKey; alg?: string; expiresIn?: number } = {}) {
  const key = options.key ?? team.key;
  const now = Math.floor(Date.now() / 1000);
  const email = options.email === undefined ? "operator@board.example" : options.email;
  return new SignJWT({ ...(email !== null && { email }), type: "app", ...options.claims })
    .setProtectedHeader({ alg: options.alg ?? "RS256", kid: key.kid })
    .setIssuer(team.teamDomain)
    .setAudience([team.audience])
    .setSubject(crypto.randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(key.privateKey);
}

/** The settings that make `team` the console's Access. */
export const settingsOf = (team: Team) => ({ ACCESS_TEAM_DOMAIN: team.teamDomain, ACCESS_AUD: team.audience });

/**
 * One request to the Worker. `token` goes in the Cf-Access-Jwt-Assertion header (or, with
 * `cookie: true`, in the CF_Authorization cookie); a POST carries the console's own Origin
 * unless told another; `env` overrides bindings (the Access settings).
 */
export async function operatorCall(
  path: string,
  init: { method?: string; token?: string; cookie?: boolean; origin?: string | null; form?: Record<string, string>; headers?: Record<string, string>; env?: Record<string, unknown> } = {},
) {
  const method = init.method ?? (init.form ? "POST" : "GET");
  const headers = new Headers(init.headers);
  if (init.token && init.cookie) headers.append("Cookie", `CF_Authorization=${init.token}`);
  else if (init.token) headers.set("Cf-Access-Jwt-Assertion", init.token);
  const url = path.startsWith("http") ? path : `${BASE}${path}`;
  const origin = init.origin === undefined ? new URL(url).origin : init.origin;
  if (method === "POST" && origin !== null) headers.set("Origin", origin);
  let body: string | undefined;
  if (method === "POST") {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(init.form ?? {}).toString();
  }
  const ctx = createExecutionContext();
  const bindings = { ...env, EMAIL: recordingEmail, EMAIL_FROM: "console@jobs.example.com", ACCESS_DEV_PRIVATE_JWK: undefined, ...init.env };
  const res = await worker.fetch!(new Request(url, { method, headers, body, redirect: "manual" }) as never, bindings as never, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** A signed-in operator of a team of its own: call(path, init) with the team's settings and a valid token. */
export async function signedInOperator(email = `op.${crypto.randomUUID().slice(0, 8)}@board.example`) {
  const team = await newTeam();
  const token = await accessToken(team, { email });
  return {
    team,
    email,
    token,
    call: (path: string, init: Parameters<typeof operatorCall>[1] = {}) => operatorCall(path, { token, ...init, env: { ...settingsOf(team), ...init.env } }),
  };
}

const validator = new HtmlValidate({ extends: ["html-validate:standard"] });

/** An operator's page: valid HTML in its language, with no script (DESIGN 26: the console runs none); its text. */
export async function expectValidHtml(res: Response, lang: "en" | "fr" = "en"): Promise<string> {
  const html = await res.text();
  const report = await validator.validateString(html);
  expect(report.results.flatMap((result) => result.messages.map((m) => `${m.ruleId}: ${m.message} (line ${m.line})`))).toEqual([]);
  expect(html).toContain(`<html lang="${lang}">`);
  expect(html).not.toContain("<script");
  return html;
}
