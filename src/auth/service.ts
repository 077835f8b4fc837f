import { createDatabase, type Database } from "../db/client";
import { hashApiKey, keyPrefix, keyRecord, newApiKey } from "./api-keys";
import { clearKeyEnd, deleteKeyRow, findKeyRow, insertKeyRow, listKeyRows, markKeyEnd, recordKeyUse, type KeySpaces } from "./repository";

// DESIGN 25: the employer's API keys as the console manages them — made exactly as `npm run keys`
// makes them (./api-keys.ts: the format, the KV record; the shard's api_keys row), listed by
// prefix, revoked, rolled — and the hour each was last used, recorded after the answer.

export type { KeySpaces } from "./repository";

const HOUR_MS = 3_600_000;
/** Attempts at a key whose prefix is free in its space (a test key's prefix holds 18 random bits). */
const MAX_ATTEMPTS = 5;

export interface ListedKey {
  /** Null: made before prefixes were kept. */
  prefix: string | null;
  test: boolean;
  createdAt: number;
  /** The start of the hour it was last used in; null: no use recorded (none since it was made, or since uses were recorded). */
  lastUsedAt: number | null;
  /** A rolled key's end: it works until then. */
  endsAt: number | null;
}

/** Where a key is made: its space (the employer, or its test space for a test key) and the employer's shard. */
interface KeyPlace {
  kv: KVNamespace;
  db: Database;
  spaces: KeySpaces;
  shard: number;
}

export async function listKeys(db: Database, spaces: KeySpaces, now = Date.now()): Promise<ListedKey[]> {
  const rows = await listKeyRows(db, spaces, now);
  return rows.map((row) => ({ prefix: row.prefix, test: row.employerId !== spaces.live, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, endsAt: row.expiresAt }));
}

/**
 * A new key, live or (`test`, in `spaces.test`) test: listed in the shard first (so a failure
 * there leaves nothing), then its KV record, which is what makes it work. Returned once; only
 * its SHA-256 is kept.
 */
export async function createKey(place: KeyPlace, test: boolean, now = Date.now()): Promise<string> {
  const spaceId = test ? place.spaces.test : place.spaces.live;
  if (spaceId === undefined) throw new Error("A test key needs the employer's test space.");
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const apiKey = newApiKey({ test });
    const hash = await hashApiKey(apiKey);
    if (!(await insertKeyRow(place.db, place.spaces, { hash, employerId: spaceId, prefix: keyPrefix(apiKey), createdAt: now }))) continue;
    try {
      await place.kv.put(hash, JSON.stringify(keyRecord(spaceId, { test, shard: place.shard })));
    } catch (error) {
      await deleteKeyRow(place.db, hash);
      throw error;
    }
    return apiKey;
  }
  throw new Error(`No free key prefix in ${MAX_ATTEMPTS} attempts.`);
}

/**
 * The key of this prefix stops: its KV record goes first (running isolates may accept it for up to
 * their cache's minute), then its row. Whether the employer has such a key.
 */
export async function revokeKey(place: Omit<KeyPlace, "shard">, prefix: string, now = Date.now()): Promise<boolean> {
  const row = await findKeyRow(place.db, place.spaces, prefix, now);
  if (!row) return false;
  await place.kv.delete(row.hash);
  await deleteKeyRow(place.db, row.hash);
  return true;
}

/**
 * A new key in the old one's space; the old one works `overlapHours` more (0: stops now, as a
 * revoke), its KV record then expiring. The new key, or why not: no such key, or it was rolled
 * already (it has an end).
 */
export async function rollKey(place: KeyPlace, prefix: string, overlapHours: number, now = Date.now()): Promise<{ apiKey: string } | "not-found" | "rolled-already"> {
  const old = await findKeyRow(place.db, place.spaces, prefix, now);
  if (!old) return "not-found";
  const end = now + overlapHours * HOUR_MS;
  // Marked first, so that of two rolls at once only one makes a new key.
  if (!(await markKeyEnd(place.db, old.hash, end))) return "rolled-already";
  const test = old.employerId !== place.spaces.live;
  let apiKey: string;
  try {
    apiKey = await createKey(place, test, now);
  } catch (error) {
    await clearKeyEnd(place.db, old.hash);
    throw error;
  }
  if (overlapHours === 0) {
    await place.kv.delete(old.hash);
    await deleteKeyRow(place.db, old.hash);
  } else {
    const record = keyRecord(old.employerId, { test, shard: place.shard, expiresAt: end });
    await place.kv.put(old.hash, JSON.stringify(record), { expiration: Math.ceil(end / 1000) });
  }
  return { apiKey };
}

/** Keys whose use this isolate recorded, with the hour it recorded: one write per key per hour per isolate at most. */
const recorded = new Map<string, number>();
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * DESIGN 25: the key was used (an authenticated API request, in shard `d1`). When this isolate
 * has not recorded its use this hour, the write to run after the answer (for waitUntil); else
 * undefined.
 */
export function keyUseToRecord(d1: D1Database, apiKey: string, now = Date.now()): (() => Promise<void>) | undefined {
  const hour = now - (now % HOUR_MS);
  if (recorded.get(apiKey) === hour) return undefined;
  recorded.delete(apiKey);
  if (recorded.size >= MAX_REMEMBERED_KEYS) recorded.delete(recorded.keys().next().value!);
  recorded.set(apiKey, hour);
  return async () => {
    // Begun once the answer has left: no request waits on it, nor counts it among its round trips (DESIGN 9).
    await new Promise((resolve) => setTimeout(resolve, 0));
    await recordKeyUse(createDatabase(d1), await hashApiKey(apiKey), hour);
  };
}
