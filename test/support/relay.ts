import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../../src/env";
import { shardDb } from "./api";
import { eventually } from "./board";

/** The relay of shard k (DESIGN 22), as the Worker reaches it. */
export const relayOf = (shard: number) => env.RELAY.get(env.RELAY.idFromName(`shard:${shard}`));

/** The recording order of event `id` in shard k. */
export async function seqOf(shard: number, id: string): Promise<number> {
  return (await shardDb(shard).prepare("SELECT seq FROM events WHERE id = ?").bind(id).first<{ seq: number }>())!.seq;
}

/** Waits until shard k's relay has handed over every event up to `seq` (its cursor passed it). */
export async function handedOverUpTo(shard: number, seq: number, timeoutMs = 10_000): Promise<void> {
  await eventually(async () => {
    const { cursor } = await relayOf(shard).position();
    if (cursor < seq) throw new Error(`the relay of shard ${shard} is at ${cursor}, not yet at ${seq}`);
  }, timeoutMs);
}

/**
 * Runs `work` while shard k's relay sees its bindings changed by `change` (a test records what it
 * hands to a queue that has no consumer in tests), then gives it its own back.
 */
export async function withRelayBindings<T>(shard: number, change: Partial<Env>, work: () => Promise<T>): Promise<T> {
  const stub = relayOf(shard) as unknown as DurableObjectStub;
  const set = (bindings: (own: Env) => Env) => runInDurableObject(stub, (instance) => void ((instance as unknown as { env: Env }).env = bindings((instance as unknown as { env: Env }).env)));
  await set((own) => ({ ...own, ...change }));
  try {
    return await work();
  } finally {
    await set(() => env);
  }
}
