import type { Context } from "hono";
import type { AppEnv, Env } from "../env";
import { shardOf } from "../shards/bindings";
import { afterResponse } from "../http/after-response";
import type { RecordedEvent } from "./outbox";

/**
 * What a subscriber's queue receives: ids of recorded events, read through findEvents in the
 * shard the notice names (DESIGN 22; absent: 0, as in notices sent before shards).
 */
export interface EventNotice {
  events: string[];
  shard?: number;
}

/**
 * A capability that reacts to events (DESIGN 16). It owns its queue and its consumer; events
 * only hands it the ids of the types it accepts. The Worker entry lists the subscribers.
 */
export interface EventSubscriber {
  name: string;
  queue(env: Env): Queue<EventNotice>;
  accepts(type: string): boolean;
  /** At most this many event ids per notice (default 100): a consumer sizes its batches by it. */
  eventsPerNotice?: number;
  /**
   * DESIGN 16a: of `ids`, events of `shard`, those the subscriber took (its consumer recorded a
   * receipt in the batch of its effect). The relay hands the others over again.
   */
  taken(env: Env, shard: number, ids: string[]): Promise<string[]>;
}

const IDS_PER_NOTICE = 100;
/** About 200 KB of notices per sendBatch, under its 256 KB limit. */
const NOTICES_PER_SEND = 50;

const chunked = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/** Hands `ids`, events of shard `shard`, to one subscriber's queue in notices, in the order given. */
export async function notify(env: Env, subscriber: EventSubscriber, ids: string[], shard: number): Promise<void> {
  const notices = chunked(ids, subscriber.eventsPerNotice ?? IDS_PER_NOTICE).map((events): { body: EventNotice } => ({ body: { events, shard } }));
  for (const send of chunked(notices, NOTICES_PER_SEND)) await subscriber.queue(env).sendBatch(send);
}

/** Hands events of `env`'s shard to every subscriber that accepts their types, in the order given. */
export async function handOver(env: Env, subscribers: EventSubscriber[], events: Pick<RecordedEvent, "id" | "type">[]): Promise<void> {
  for (const subscriber of subscribers) {
    await notify(env, subscriber, events.filter((event) => subscriber.accepts(event.type)).map((event) => event.id), shardOf(env));
  }
}

const relayOf = (env: Pick<Env, "RELAY">, shard: number) => env.RELAY.get(env.RELAY.idFromName(`shard:${shard}`));

/** Tells the relay of `env`'s shard that events wait (DESIGN 22): no D1 write, only a call to it. */
export function pokeRelay(env: Pick<Env, "RELAY" | "SHARD">): Promise<void> {
  return relayOf(env, shardOf(env)).poke(shardOf(env));
}

/**
 * Once the answer is on its way, pokes the relay of the request's shard, which hands its events
 * over. Should the Worker die first, the relay's own alarm finds them within seconds.
 */
export function dispatchAfterResponse(c: Pick<Context<AppEnv>, "env" | "executionCtx">, recorded: RecordedEvent[]): void {
  if (recorded.length) afterResponse(c, pokeRelay(c.env), "relay not poked; its alarm will find the events");
}

/**
 * DESIGN 16a: the events of notices that exhausted a subscriber queue's retries (its dead-letter
 * queue) are given back to the relay of the shard each names, which hands them to that
 * subscriber again.
 */
export async function giveBackEvents(env: Env, subscriber: string, notices: EventNotice[]): Promise<number> {
  let givenBack = 0;
  for (const [shard, group] of Map.groupBy(notices, (notice) => notice.shard ?? 0)) {
    const ids = group.flatMap((notice) => notice.events);
    await relayOf(env, shard).giveBack(shard, subscriber, ids);
    givenBack += ids.length;
  }
  return givenBack;
}
