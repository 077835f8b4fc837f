// Employers and their API keys, as the key CLI and `npm run dev` create them.
import { randomBytes } from "node:crypto";
import { hashApiKey } from "../../src/auth/api-keys.ts";
import { KEYS_BINDING, query, sqlString, target, wrangler } from "./wrangler.mjs";

export const PLANS = ["standard", "unlimited"];

export function newApiKey() {
  return `jpa_${randomBytes(32).toString("base64url")}`;
}

export async function createEmployerWithKey({ name, plan = "standard", remote = false }) {
  const trimmed = String(name ?? "").trim();
  if (!trimmed || [...trimmed].length > 128) throw new Error("--name must be 1 to 128 characters.");
  if (!PLANS.includes(plan)) throw new Error(`--plan must be one of: ${PLANS.join(", ")}.`);
  const [{ id }] = query(
    `INSERT INTO employers (name, plan, created_at) VALUES (${sqlString(trimmed)}, ${sqlString(plan)}, unixepoch()) RETURNING id`,
    remote,
  );
  const apiKey = newApiKey();
  try {
    await putKey(apiKey, id, remote);
  } catch (error) {
    // D1 and KV cannot share a transaction: undo the employer, so a failure leaves neither half.
    try {
      query(`DELETE FROM employers WHERE id = ${Number(id)}`, remote);
    } catch {
      throw new Error(`${error.message}\nThe key was not stored, and employer ${id} could not be removed: delete it by hand.`);
    }
    throw error;
  }
  return { employerId: id, apiKey };
}

export async function putKey(apiKey, employerId, remote = false) {
  const hash = await hashApiKey(apiKey);
  wrangler(["kv", "key", "put", hash, JSON.stringify({ employerId }), `--binding=${KEYS_BINDING}`, ...target(remote)]);
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
  if (!(await findKey(apiKey, remote))) return false;
  wrangler(["kv", "key", "delete", await hashApiKey(apiKey), `--binding=${KEYS_BINDING}`, ...target(remote)]);
  return true;
}

/** Employers with how many live keys each has (keys themselves are only stored hashed). */
export function listEmployers(remote = false) {
  const employers = query("SELECT id, name, plan, created_at AS createdAt FROM employers ORDER BY id", remote);
  const entries = JSON.parse(wrangler(["kv", "key", "list", `--binding=${KEYS_BINDING}`, ...target(remote)]));
  const keyCounts = new Map();
  for (const { name } of entries) {
    const record = JSON.parse(wrangler(["kv", "key", "get", name, `--binding=${KEYS_BINDING}`, ...target(remote), "--text"]));
    keyCounts.set(record.employerId, (keyCounts.get(record.employerId) ?? 0) + 1);
  }
  return employers.map((e) => ({ ...e, keys: keyCounts.get(e.id) ?? 0 }));
}
