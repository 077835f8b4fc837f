// DESIGN 7, 21, 25: an API key is `jpa_` (a test key `jpa_test_`) and 32 random bytes in
// base64url; its prefix (the first 12 characters) names it in the console. Made here for the
// Worker (the console) and for `npm run keys` alike (scripts/lib/employers.mjs imports this file).

const LIVE_KEY_PREFIX = "jpa_";
export const TEST_KEY_PREFIX = "jpa_test_";
const KEY_PREFIX_LENGTH = 12;

export function newApiKey({ test = false } = {}): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const random = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    const key = `${test ? TEST_KEY_PREFIX : LIVE_KEY_PREFIX}${random}`;
    // A live key never looks like a test key (one in 2^30), so that a prefix alone says which it is.
    if (test || !key.startsWith(TEST_KEY_PREFIX)) return key;
  }
}

/** What the console shows of a key, and names it by: its first 12 characters. */
export const keyPrefix = (apiKey: string) => apiKey.slice(0, KEY_PREFIX_LENGTH);

/** What KV holds under the SHA-256 hex of a key; the key itself is never stored. */
export interface ApiKeyRecord {
  employerId: number;
  /** A jpa_test_ key (DESIGN 21): `employerId` is then the employer's test space. */
  test?: true;
  /**
   * DESIGN 22: the shard the employer lives in (absent: 0, as every key made before shards). A
   * cache of the shard's own employers row, which is the truth: authentication reads it anyway,
   * so routing costs no round trip.
   */
  shard?: number;
  /**
   * A rolled key's end (ms since the epoch; DESIGN 25): its KV entry expires then too, but this
   * holds even where the entry is written again without its expiration (a move rewrites it).
   */
  expiresAt?: number;
}

/** A key's record as `npm run keys` and the console write it. */
export function keyRecord(employerId: number, { test = false, shard = 0, expiresAt }: { test?: boolean; shard?: number; expiresAt?: number } = {}): ApiKeyRecord {
  return { employerId, ...(test && { test: true as const }), ...(shard && { shard }), ...(expiresAt !== undefined && { expiresAt }) };
}

export const API_KEY_CACHE_TTL_MS = 60_000;
const MAX_CACHED_KEYS = 10_000;

// Per isolate: one KV read per key per minute at most (DESIGN 9). Misses are not cached, so
// a key created a moment ago works at once; a revoked key lives here for at most the TTL.
// Keyed by the key as sent (it is in this isolate's memory with the request anyway), so a hit
// costs no SHA-256: about 8 % of a job read's CPU (issue 27, profiled).
const cache = new Map<string, { record: ApiKeyRecord; expiresAt: number }>();

export async function hashApiKey(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(apiKey));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function isApiKeyRecord(value: unknown): value is ApiKeyRecord {
  const { employerId: id, shard, expiresAt } = (value ?? {}) as ApiKeyRecord;
  return (
    typeof id === "number" &&
    Number.isSafeInteger(id) &&
    id > 0 &&
    (shard === undefined || (Number.isSafeInteger(shard) && shard >= 0)) &&
    (expiresAt === undefined || Number.isSafeInteger(expiresAt))
  );
}

export async function findApiKey(kv: KVNamespace, apiKey: string, now = Date.now()): Promise<ApiKeyRecord | null> {
  const cached = cache.get(apiKey);
  if (cached && cached.expiresAt > now) return cached.record;
  cache.delete(apiKey);

  const record = await kv.get<unknown>(await hashApiKey(apiKey), "json");
  if (!isApiKeyRecord(record) || (record.expiresAt !== undefined && record.expiresAt <= now)) return null;
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!);
  const kept = keyRecord(record.employerId, { test: record.test === true, shard: record.shard, expiresAt: record.expiresAt });
  // A rolled key is not kept past its end.
  cache.set(apiKey, { record: kept, expiresAt: Math.min(now + API_KEY_CACHE_TTL_MS, record.expiresAt ?? Infinity) });
  return kept;
}
