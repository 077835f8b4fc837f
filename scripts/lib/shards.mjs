// The employer side's shards as the CLI scripts see them (DESIGN 22): the D1 bindings DB, DB_1 …
// that wrangler.toml declares for the target (top level: deployed; [env.dev]: local).
import { createHash, createHmac } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";
import { claimShardSql, shardBinding, shardOfDatabaseSql } from "../../src/shards/identity.ts";
import { query, withRetries, wrangler, target } from "./wrangler.mjs";

const CONFIG = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));
/** Where `wrangler dev` and `wrangler d1 … --local` keep local state (the state npm run dev serves), unless told --persist-to. */
const LOCAL_STATE = fileURLToPath(new URL("../../.wrangler/state", import.meta.url));

/** The shards the target binds, in order: 0 (DB), then 1, 2 … while DB_k is declared; each with its D1 database's name and id. */
export function shardDatabases(remote) {
  const databases = new Map(unstable_readConfig({ config: CONFIG, env: remote ? undefined : "dev" }, { hideWarnings: true }).d1_databases.map((d) => [d.binding, d]));
  const found = [];
  for (let binding = shardBinding(0); databases.has(binding); binding = shardBinding(found.length)) {
    const { database_name: name, database_id: id } = databases.get(binding);
    found.push({ shard: found.length, binding, name, id });
  }
  return found;
}

export const shardNumbers = (remote) => shardDatabases(remote).map(({ shard }) => shard);

/**
 * A shard's size in bytes: D1's own figure for a deployed database; locally the size of the
 * SQLite files wrangler keeps for it in `state` (miniflare names each by an HMAC of the database id).
 */
export function shardBytes({ name, id }, remote, state = LOCAL_STATE) {
  if (remote) {
    const info = JSON.parse(wrangler(["d1", "info", name, "--json"]));
    return info.file_size ?? info.database_size ?? null;
  }
  const key = createHash("sha256").update("miniflare-D1DatabaseObject").digest();
  const nameHmac = createHmac("sha256", key).update(id).digest().subarray(0, 16);
  const file = join(state, "v3", "d1", "miniflare-D1DatabaseObject", `${Buffer.concat([nameHmac, createHmac("sha256", key).update(nameHmac).digest().subarray(0, 16)]).toString("hex")}.sqlite`);
  return [file, `${file}-wal`].reduce((bytes, part) => bytes + (existsSync(part) ? statSync(part).size : 0), 0);
}

/**
 * Applies what each shard's migrations ledger lacks, then claims each shard (its number and id
 * range, once). Idempotent. Fails when a database says it is another shard than its binding:
 * the bindings were swapped, and writing on would mix two shards' ids.
 */
export function migrateShards(remote, extraArgs = []) {
  for (const shard of shardNumbers(remote)) {
    const binding = shardBinding(shard);
    withRetries(() => wrangler(["d1", "migrations", "apply", binding, ...target(remote), ...extraArgs]), false);
    query(claimShardSql(shard), remote, binding, extraArgs);
    const [identity] = query(shardOfDatabaseSql, remote, binding, extraArgs);
    if (identity?.shard !== shard) throw new Error(`${binding} says it is shard ${identity?.shard}; check the database ids in wrangler.toml.`);
  }
}

/** Runs SQL in each shard; returns `[{ shard, rows }]`. `extraArgs`: where local state lives (--persist-to DIR). */
export function queryEveryShard(sql, remote, extraArgs = []) {
  return shardNumbers(remote).map((shard) => ({ shard, rows: query(sql, remote, shardBinding(shard), extraArgs) }));
}
