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
  const { employerId: id, shard } = (value ?? {}) as ApiKeyRecord;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 && (shard === undefined || (Number.isSafeInteger(shard) && shard >= 0));
}

export async function findApiKey(kv: KVNamespace, apiKey: string, now = Date.now()): Promise<ApiKeyRecord | null> {
  const cached = cache.get(apiKey);
  if (cached && cached.expiresAt > now) return cached.record;
  cache.delete(apiKey);

  const record = await kv.get<unknown>(await hashApiKey(apiKey), "json");
  if (!isApiKeyRecord(record)) return null;
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!);
  const kept: ApiKeyRecord = { employerId: record.employerId, ...(record.test === true && { test: true }), ...(record.shard && { shard: record.shard }) };
  cache.set(apiKey, { record: kept, expiresAt: now + API_KEY_CACHE_TTL_MS });
  return kept;
}
