import * as z from "../http/zod";
import type { Env } from "../env";

// DESIGN 24a: reach's settings. Each service is on only when its settings are present and valid;
// anything invalid turns that service off and is logged once per set of bindings, never a failed
// request or a stuck queue (fail safe: a search engine told nothing is better than a Worker down).

export const DEFAULTS = {
  INDEXNOW_ENDPOINT: "https://api.indexnow.org/indexnow",
  GOOGLE_INDEXING_ENDPOINT: "https://indexing.googleapis.com/v3/urlNotifications:publish",
  GOOGLE_TOKEN_ENDPOINT: "https://oauth2.googleapis.com/token",
  GOOGLE_INDEXING_DAILY_QUOTA: 200,
} as const;

/** IndexNow's key: 8 to 128 of a–z, A–Z, 0–9 and `-` (indexnow.org). */
export const INDEXNOW_KEY_PATTERN = /^[A-Za-z0-9-]{8,128}$/;

/** The members of a service account's JSON key (as Google issues it) that reach uses. */
const ServiceAccountSchema = z.object({
  client_email: z.string().email(),
  private_key: z.string().includes("PRIVATE KEY"),
});
export type ServiceAccount = z.infer<typeof ServiceAccountSchema>;

const endpoint = z.string().url().refine((url) => /^https?:$/.test(new URL(url).protocol), "http or https");
const optionalText = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : value.trim());

export interface IndexNowSettings {
  key: string;
  endpoint: string;
  /** The site's host and the key file's absolute address, as IndexNow asks for them. */
  host: string;
  keyLocation: string;
}

export interface GoogleSettings {
  account: ServiceAccount;
  endpoint: string;
  tokenEndpoint: string;
  dailyQuota: number;
}

export interface ReachSettings {
  /** The public origin of the job pages (BASE_URL without a trailing slash), or null: nothing can be sent. */
  origin: string | null;
  indexNow: IndexNowSettings | null;
  google: GoogleSettings | null;
}

export type ReachEnv = Pick<
  Env,
  "BASE_URL" | "INDEXNOW_KEY" | "INDEXNOW_ENDPOINT" | "GOOGLE_INDEXING_SERVICE_ACCOUNT" | "GOOGLE_INDEXING_ENDPOINT" | "GOOGLE_TOKEN_ENDPOINT" | "GOOGLE_INDEXING_DAILY_QUOTA"
>;

const warn = (service: string, problem: string) => console.error(JSON.stringify({ level: "error", message: "reach setting invalid; service off", service, problem }));

/** The IndexNow key alone (for `/{key}.txt`): null when off or not a valid key. */
export function indexNowKeyOf(env: Pick<Env, "INDEXNOW_KEY">): string | null {
  const key = optionalText(env.INDEXNOW_KEY);
  return key && INDEXNOW_KEY_PATTERN.test(key) ? key : null;
}

function originOf(env: ReachEnv): string | null {
  const base = optionalText(env.BASE_URL);
  if (!base) return null;
  const parsed = endpoint.safeParse(base);
  return parsed.success ? new URL(parsed.data).origin : null;
}

function indexNowOf(env: ReachEnv, origin: string | null): IndexNowSettings | null {
  const raw = optionalText(env.INDEXNOW_KEY);
  if (!raw) return null;
  const key = indexNowKeyOf(env);
  if (!key) return warn("indexnow", "INDEXNOW_KEY must be 8–128 of a-z, A-Z, 0-9 and -"), null;
  if (!origin) return warn("indexnow", "BASE_URL (the pages' public origin) is needed to name the pages"), null;
  const url = endpoint.safeParse(optionalText(env.INDEXNOW_ENDPOINT) ?? DEFAULTS.INDEXNOW_ENDPOINT);
  if (!url.success) return warn("indexnow", "INDEXNOW_ENDPOINT is not an http(s) address"), null;
  return { key, endpoint: url.data, host: new URL(origin).host, keyLocation: `${origin}/${key}.txt` };
}

function googleOf(env: ReachEnv, origin: string | null): GoogleSettings | null {
  const raw = optionalText(env.GOOGLE_INDEXING_SERVICE_ACCOUNT);
  if (!raw) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return warn("google", "GOOGLE_INDEXING_SERVICE_ACCOUNT is not JSON"), null;
  }
  const account = ServiceAccountSchema.safeParse(json);
  if (!account.success) return warn("google", "GOOGLE_INDEXING_SERVICE_ACCOUNT lacks client_email or private_key"), null;
  if (!origin) return warn("google", "BASE_URL (the pages' public origin) is needed to name the pages"), null;
  const publish = endpoint.safeParse(optionalText(env.GOOGLE_INDEXING_ENDPOINT) ?? DEFAULTS.GOOGLE_INDEXING_ENDPOINT);
  const token = endpoint.safeParse(optionalText(env.GOOGLE_TOKEN_ENDPOINT) ?? DEFAULTS.GOOGLE_TOKEN_ENDPOINT);
  if (!publish.success || !token.success) return warn("google", "GOOGLE_INDEXING_ENDPOINT or GOOGLE_TOKEN_ENDPOINT is not an http(s) address"), null;
  const quota = z.coerce.number().int().min(0).safeParse(optionalText(env.GOOGLE_INDEXING_DAILY_QUOTA) ?? DEFAULTS.GOOGLE_INDEXING_DAILY_QUOTA);
  if (!quota.success) return warn("google", "GOOGLE_INDEXING_DAILY_QUOTA is not a whole number ≥ 0"), null;
  return { account: { client_email: account.data.client_email, private_key: account.data.private_key }, endpoint: publish.data, tokenEndpoint: token.data, dailyQuota: quota.data };
}

const parsed = new WeakMap<object, ReachSettings>();

/** The settings as these bindings give them; parsed (and any problem logged) once per bindings object. */
export function reachSettings(env: ReachEnv): ReachSettings {
  let settings = parsed.get(env);
  if (!settings) {
    const origin = originOf(env);
    settings = { origin, indexNow: indexNowOf(env, origin), google: googleOf(env, origin) };
    parsed.set(env, settings);
  }
  return settings;
}

export type Service = "google" | "indexnow";

/** The services on in these settings. */
export const servicesOn = (settings: ReachSettings): Service[] => [...(settings.google ? (["google"] as const) : []), ...(settings.indexNow ? (["indexnow"] as const) : [])];
