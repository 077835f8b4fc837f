// DESIGN 26a: npm run dev's stand-in of Cloudflare Access (src/operator/stand-in.ts) — its key,
// kept in .dev.vars (git-ignored, read only by `wrangler dev`), the settings that point the
// console at it, the sign-in links `npm run operator -- sign-in` prints, and the service tokens a
// command sends as Access would (DESIGN 22b: `npm run shards -- move`).
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { importJWK, SignJWT } from "jose";

export const DEV_VARS = ".dev.vars";
/** The audience tag of the stand-in's tokens (any fixed string: Access's are 64 hex digits). */
export const DEV_ACCESS_AUD = "dev-operator-console";
/** How long a printed sign-in link (and the cookie it sets) works. */
export const SIGN_IN_SECONDS = 3600;

/** The stand-in is the local origin: it publishes its key at {origin}/cdn-cgi/access/certs. */
export const standInOrigin = (port) => `http://localhost:${port}`;

export function readDevVars(file = DEV_VARS) {
  return existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {};
}

/** Writes the stand-in's private RSA key (a JWK) to .dev.vars, once; whether it wrote one. */
export function ensureStandInKey(file = DEV_VARS) {
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (/^ACCESS_DEV_PRIVATE_JWK=/m.test(current)) return false;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: `dev-${randomUUID()}` };
  const line = `ACCESS_DEV_PRIVATE_JWK='${JSON.stringify(jwk)}'\n`;
  appendFileSync(file, current && !current.endsWith("\n") ? `\n${line}` : line, { mode: 0o600 });
  return true;
}

/**
 * `wrangler dev` arguments that make the stand-in the console's Access — unless .dev.vars sets
 * ACCESS_TEAM_DOMAIN or ACCESS_AUD itself (other values: the stand-in's tokens are refused; empty:
 * no console).
 */
export function standInSettings(port, vars = readDevVars()) {
  const defaults = { ACCESS_TEAM_DOMAIN: standInOrigin(port), ACCESS_AUD: DEV_ACCESS_AUD };
  return Object.entries(defaults).flatMap(([name, value]) => (name in vars ? [] : ["--var", `${name}:${value}`]));
}

/** The stand-in's key, or a clear error when npm run dev never wrote it. */
async function standInKey(vars) {
  if (!vars.ACCESS_DEV_PRIVATE_JWK) throw new Error("No ACCESS_DEV_PRIVATE_JWK in .dev.vars: run npm run dev once (it writes the dev stand-in's key).");
  const jwk = JSON.parse(vars.ACCESS_DEV_PRIVATE_JWK);
  return { kid: jwk.kid, key: await importJWK(jwk, "RS256") };
}

/** A token signed with the stand-in's key as Access signs its own: RS256, `iss` the local origin, `aud` the dev tag, `exp` `seconds` on. */
async function standInToken(claims, subject, { port, vars, now, seconds }) {
  const { kid, key } = await standInKey(vars);
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ ...claims, type: "app" })
    .setProtectedHeader({ alg: "RS256", kid })
    .setIssuer(standInOrigin(port))
    .setAudience([DEV_ACCESS_AUD])
    .setSubject(subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + seconds)
    .sign(key);
}

/** How long a command's service token works: one request's time, with room. */
const SERVICE_TOKEN_SECONDS = 300;

/**
 * A service token as Access hands it to the Worker for a script that sent a Client ID and Secret:
 * no email, the token's `common_name` (the console records its acts as `service-token:<common_name>`).
 * Sent in the `Cf-Access-Jwt-Assertion` header.
 */
export function serviceToken({ commonName, port, vars = readDevVars(), now = Date.now() }) {
  return standInToken({ common_name: commonName }, "", { port, vars, now, seconds: SERVICE_TOKEN_SECONDS });
}

/** A short-lived token for `email`, signed with the stand-in's key as Access signs its own, and the link that signs a browser in. */
export async function signInLink({ email, port, vars = readDevVars(), now = Date.now() }) {
  const token = await standInToken({ email }, email, { port, vars, now, seconds: SIGN_IN_SECONDS });
  const expiresAt = new Date((Math.floor(now / 1000) + SIGN_IN_SECONDS) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return { link: `${standInOrigin(port)}/cdn-cgi/access/dev-sign-in?token=${token}`, expiresAt };
}
