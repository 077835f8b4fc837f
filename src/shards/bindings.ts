import type { Env } from "../env";
import { MAX_SHARDS, shardBinding } from "./identity";

// DESIGN 22: the employer side's shards, found from the bindings present (DB, DB_1, DB_2 …),
// never from code. A capability never asks how many there are: it is handed the bindings of
// one shard (atShard), per request by middleware, per message by its consumer. Only the
// cron's runner, the relay and the shards command go over them all (shardNumbers).

/** Every shard this deployment binds: 0 (DB), then 1, 2 … while DB_k is bound. */
export function shardNumbers(env: Env): number[] {
  const found = [0];
  while (found.length < MAX_SHARDS && env[`DB_${found.length}`]) found.push(found.length);
  return found;
}

/** Each shard's view (atShard), to the Worker's own bindings it was made from. */
const roots = new WeakMap<Env, Env>();

export class UnknownShardError extends Error {
  constructor(shard: unknown) {
    super(`No shard ${String(shard)} is bound (${shardBinding(Number(shard) || 0)}).`);
  }
}

/** Whether this deployment binds shard k (a number from outside, a token's say, is checked here first). */
export const isShard = (env: Env, shard: number) => shard === 0 || (Number.isSafeInteger(shard) && shard > 0 && env[`DB_${shard}`] !== undefined);

/** Shard k's database (from a shard's view too: its DB is that shard's). */
export function shardDatabase(env: Env, shard: number): D1Database {
  const root = roots.get(env) ?? env;
  const d1 = shard === 0 ? root.DB : Number.isSafeInteger(shard) && shard > 0 ? root[`DB_${shard}`] : undefined;
  if (!d1) throw new UnknownShardError(shard);
  return d1;
}

const views = new WeakMap<Env, Map<number, Env>>();

/**
 * The bindings as a capability sees them while it works for shard k: DB is that shard's
 * database and SHARD says which it is. Made once per shard and bindings object.
 */
export function atShard(env: Env, shard: number): Env {
  if (shard === (env.SHARD ?? 0) && env.DB === shardDatabase(env, shard)) return env;
  // From the Worker's own bindings, even when given another shard's view: its DB is not shard 0's.
  const root = roots.get(env) ?? env;
  if (shard === 0 && root.SHARD === undefined) return root;
  let byShard = views.get(root);
  if (!byShard) views.set(root, (byShard = new Map()));
  let view = byShard.get(shard);
  if (!view) {
    byShard.set(shard, (view = { ...root, DB: shardDatabase(root, shard), SHARD: shard }));
    roots.set(view, root);
  }
  return view;
}

/** The Worker's own bindings behind a shard's view (atShard), or `env` itself when it is them. */
export const bindingsOf = (env: Env): Env => roots.get(env) ?? env;

/** Which shard `env` works for (atShard): 0 when it is the Worker's own bindings. */
export const shardOf = (env: Pick<Env, "SHARD">) => env.SHARD ?? 0;
