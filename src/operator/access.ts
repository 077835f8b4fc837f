import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import type { Env } from "../env";
import { NotFoundError, problemResponse } from "../http/problem";
import type { OperatorEnv } from "./context";

// DESIGN 26, 26a: the operator's console opens only behind Cloudflare Access. Every request
// carries Access's token — the `Cf-Access-Jwt-Assertion` header Access adds, or the
// `CF_Authorization` cookie it sets — verified here as Access asks applications to: RS256, signed
// by a key of the team's set ({team domain}/cdn-cgi/access/certs), `iss` the team domain, `aud`
// holding the application's tag, not expired. Anything else is a bare 403; without the settings
// the console does not exist (the app's 404).

export const ACCESS_HEADER = "Cf-Access-Jwt-Assertion";
export const ACCESS_COOKIE = "CF_Authorization";
/** Where a team publishes its signing keys (DESIGN 26). */
export const CERTS_PATH = "/cdn-cgi/access/certs";
/** An unknown key id fetches the team's keys again at most once a minute (DESIGN 26). */
const REFETCH_COOLDOWN_MS = 60_000;

/** The team domain (without a trailing slash) and the audience tag; undefined when either is unset or empty. */
export function accessSettings(env: Pick<Env, "ACCESS_TEAM_DOMAIN" | "ACCESS_AUD">): { teamDomain: string; audience: string } | undefined {
  const teamDomain = env.ACCESS_TEAM_DOMAIN?.trim().replace(/\/+$/, "");
  const audience = env.ACCESS_AUD?.trim();
  return teamDomain && audience ? { teamDomain, audience } : undefined;
}

/** Each team's key set, per isolate: jose keeps the keys it fetched, and refetches them on its own terms. */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(teamDomain: string) {
  let keySet = keySets.get(teamDomain);
  if (!keySet) keySets.set(teamDomain, (keySet = createRemoteJWKSet(new URL(CERTS_PATH, teamDomain), { cooldownDuration: REFETCH_COOLDOWN_MS })));
  return keySet;
}

/**
 * Who the verified token names: its `email` (a person signed in through Access), or for a
 * service token (no email: a command calling the console, docs/operator.md) its `common_name`.
 */
async function operatorOf(token: string, settings: { teamDomain: string; audience: string }): Promise<string | undefined> {
  const { payload } = await jwtVerify(token, keySetOf(settings.teamDomain), {
    algorithms: ["RS256"],
    issuer: settings.teamDomain,
    audience: settings.audience,
    requiredClaims: ["exp"],
  });
  if (typeof payload.email === "string" && payload.email) return payload.email.toLowerCase();
  if (typeof payload.common_name === "string" && payload.common_name) return `service-token:${payload.common_name}`;
  return undefined;
}

/** A token refused for what it is (forged, expired, foreign) is routine; anything else (the keys out of reach) is logged. */
const isRoutineRefusal = (error: unknown) => error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout) && error.code !== "ERR_JOSE_GENERIC";

/** DESIGN 26a: without ACCESS_TEAM_DOMAIN and ACCESS_AUD, every /operator address is the app's 404. */
export const consoleConfigured: MiddlewareHandler<OperatorEnv> = async (c, next) => {
  if (!accessSettings(c.env)) return problemResponse(c, new NotFoundError());
  await next();
};

/** DESIGN 26: a valid Access token, or a 403 that shows nothing of the console. Sets `operator`. */
export const requireAccess: MiddlewareHandler<OperatorEnv> = async (c, next) => {
  const settings = accessSettings(c.env)!;
  const token = c.req.header(ACCESS_HEADER) || getCookie(c, ACCESS_COOKIE);
  let operator: string | undefined;
  if (token) {
    try {
      operator = await operatorOf(token, settings);
    } catch (error) {
      if (!isRoutineRefusal(error)) console.error(JSON.stringify({ level: "error", message: "Access token not verified", error: String(error) }));
    }
  }
  if (!operator) return c.text("Forbidden", 403);
  c.set("operator", operator);
  await next();
};
