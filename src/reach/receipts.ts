import type { Env } from "../env";
import { notifierOf } from "./notifier";

/**
 * DESIGN 16a, for the relays: of these events of shard `shard`, those reach has taken (recorded
 * in the same storage write as their changes, kept 8 days). An event reach accepts but has no use
 * for is taken all the same.
 */
export function reachTakenEvents(env: Pick<Env, "REACH">, shard: number, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return notifierOf(env).taken(shard, ids);
}
