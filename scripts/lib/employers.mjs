// Employers and their API keys, as the key CLI and `npm run dev` create them.
import { hashApiKey, keyPrefix, keyRecord, newApiKey } from "../../src/auth/api-keys.ts";
import { CREATE_TEST_SPACE_SQL, TEST_SPACE_ID_SQL } from "../../src/employers/test-space.ts";
import { shardBinding } from "../../src/shards/identity.ts";
import { queryEveryShard, shardNumbers } from "./shards.mjs";
import { KEYS_BINDING, query, sqlString, target, wrangler } from "./wrangler.mjs";

export const PLANS = ["standard", "unlimited"];

/**
 * DESIGN 22: where a new employer lives: the shard asked for, or the one with the fewest
 * employers (the lowest number on a tie).
 */
function chooseShard(remote, requested) {
  if (requested !== undefined) {
    const shard = Number(requested);
    if (!shardNumbers(remote).includes(shard)) throw new Error(`--shard must be one of: ${shardNumbers(remote).join(", ")}.`);
    return shard;
  }
  // A moved employer counts in the shard it lives in, not where it left a tombstone.
  const counts = queryEveryShard("SELECT count(*) AS employers FROM employers WHERE test_of IS NULL AND moved_to IS NULL", remote);
  return counts.reduce((best, next) => (next.rows[0].employers < best.rows[0].employers ? next : best)).shard;
}

function insertEmployer(name, plan, remote, shard) {
  const trimmed = String(name ?? "").trim();
  if (!trimmed || [...trimmed].length > 128) throw new Error("--name must be 1 to 128 characters.");
  if (!PLANS.includes(plan)) throw new Error(`--plan must be one of: ${PLANS.join(", ")}.`);
  const [{ id }] = query(
    `INSERT INTO employers (name, plan, created_at) VALUES (${sqlString(trimmed)}, ${sqlString(plan)}, unixepoch()) RETURNING id`,
    remote,
    shardBinding(shard),
  );
  return id;
}

/** The shard live employer `employerId` lives in (ids are unique across shards; a moved one left tombstones elsewhere), or undefined. */
export function shardOfEmployer(employerId, remote = false) {
  const id = Number(employerId);
  if (!Number.isSafeInteger(id) || id < 1) throw new Error("--employer must be an employer id.");
  return queryEveryShard(`SELECT id FROM employers WHERE id = ${id} AND test_of IS NULL AND moved_to IS NULL`, remote).find(({ rows }) => rows.length)?.shard;
}

/**
 * A live key for a new employer; or (`test`) a jpa_test_ key for employer `employerId`'s test
 * space (DESIGN 21a), made on first use; with `test` and a name instead, a new employer with only
 * a test key. `employerId` in the answer is always the live employer's.
 */
export async function createEmployerWithKey({ name, plan = "standard", remote = false, test = false, employerId, shard: requested }) {
  if (test && employerId !== undefined) {
    const shard = shardOfEmployer(employerId, remote);
    if (shard === undefined) throw new Error(`No live employer ${employerId}.`);
    return { employerId: Number(employerId), apiKey: await addTestKey(employerId, shard, remote), shard };
  }
  const shard = chooseShard(remote, requested);
  const id = insertEmployer(name, plan, remote, shard);
  let apiKey;
  try {
    apiKey = test ? await addTestKey(id, shard, remote) : await putKey(id, remote, { shard });
  } catch (error) {
    // D1 and KV cannot share a transaction: undo the employer, so a failure leaves neither half.
    try {
      query(`DELETE FROM api_keys WHERE employer_id = ${Number(id)}; DELETE FROM employers WHERE id = ${Number(id)}`, remote, shardBinding(shard));
    } catch {
      throw new Error(`${error.message}\nThe key was not stored, and employer ${id} could not be removed: delete it by hand.`);
    }
    throw error;
  }
  return { employerId: id, apiKey, shard };
}

/**
 * A new key of `employerId` (the console makes them the same way: src/auth/service.ts): its hash
 * and prefix in the shard's list of its employers' keys (api_keys), which the console lists and
 * moving the employer reads to rewrite the record; then its record in KV (DESIGN 7, 22): its
 * employer, whether it is a test key, and the employer's shard (omitted for 0). A prefix already
 * taken in the employer's space (a test key's holds 18 random bits) gets another key.
 */
async function putKey(employerId, remote = false, { test = false, shard = 0 } = {}) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const apiKey = newApiKey({ test });
    const hash = await hashApiKey(apiKey);
    const listed = query(
      `INSERT INTO api_keys (hash, employer_id, prefix, created_at) VALUES (${sqlString(hash)}, ${Number(employerId)}, ${sqlString(keyPrefix(apiKey))}, ${Date.now()}) ON CONFLICT DO NOTHING RETURNING hash`,
      remote,
      shardBinding(shard),
    );
    if (listed.length === 0) continue;
    wrangler(["kv", "key", "put", hash, JSON.stringify(keyRecord(Number(employerId), { test, shard })), `--binding=${KEYS_BINDING}`, ...target(remote)]);
    return apiKey;
  }
  throw new Error("No free key prefix in 5 attempts.");
}

/** A new test key of live employer `employerId`'s test space (in its shard), the space made when it has none. */
async function addTestKey(employerId, shard, remote = false) {
  const id = Number(employerId);
  if (!Number.isSafeInteger(id) || id < 1) throw new Error("--employer must be an employer id.");
  query(CREATE_TEST_SPACE_SQL.replaceAll("?1", String(id)), remote, shardBinding(shard));
  const [space] = query(TEST_SPACE_ID_SQL.replaceAll("?1", String(id)), remote, shardBinding(shard));
  if (!space) throw new Error(`No live employer ${id}.`);
  return putKey(space.id, remote, { test: true, shard });
}

export async function findKey(apiKey, remote = false) {
  const hash = await hashApiKey(apiKey);
  try {
    return JSON.parse(wrangler(["kv", "key", "get", hash, `--binding=${KEYS_BINDING}`, ...target(remote), "--text"]));
  } catch {
    return null;
  }
}

export async function revokeKey(apiKey, remote = false) {
  const record = await findKey(apiKey, remote);
  if (!record) return false;
  const hash = await hashApiKey(apiKey);
  wrangler(["kv", "key", "delete", hash, `--binding=${KEYS_BINDING}`, ...target(remote)]);
  // Off its shard's list too (a key made before the list was never on it).
  query(`DELETE FROM api_keys WHERE hash = ${sqlString(hash)}`, remote, shardBinding(record.shard ?? 0));
  return true;
}

/** Employers with how many live keys each has (keys themselves are only stored hashed); each once, in the shard it lives in. */
export function listEmployers(remote = false) {
  const employers = queryEveryShard("SELECT id, name, plan, test_of AS testOf, created_at AS createdAt FROM employers WHERE moved_to IS NULL ORDER BY id", remote).flatMap(({ shard, rows }) =>
    rows.map((row) => ({ ...row, shard })),
  );
  const entries = JSON.parse(wrangler(["kv", "key", "list", `--binding=${KEYS_BINDING}`, ...target(remote)]));
  const keyCounts = new Map();
  for (const { name } of entries) {
    const record = JSON.parse(wrangler(["kv", "key", "get", name, `--binding=${KEYS_BINDING}`, ...target(remote), "--text"]));
    keyCounts.set(record.employerId, (keyCounts.get(record.employerId) ?? 0) + 1);
  }
  return employers.map((e) => ({ ...e, keys: keyCounts.get(e.id) ?? 0 }));
}
