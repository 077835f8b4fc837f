import type { Context } from "hono";
import { createDatabase } from "../db/client";
import type { AppEnv, Env } from "../env";
import { shardDatabase, shardOf } from "../shards/bindings";
import { afterResponse } from "../http/after-response";
import { runChunked, type Bounds, type Chunk, type RuleProgress } from "../scheduled/chunks";
import type { RecordedEvent } from "./outbox";
import { expiredEvents, markDispatched, undispatch, undispatchedEvents } from "./repository";

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
}

const IDS_PER_NOTICE = 100;
/** About 200 KB of notices per sendBatch, under its 256 KB limit. */
const NOTICES_PER_SEND = 50;
/**
 * Ids per marking statement (one JSON parameter of about 40 KB), each its own round trip: a cron
 * run's 100 000 events marked in one batch held the database for 1.5 s, a statement of 1 000 of
 * them 12 to 40 ms (docs/scaling.md, "Bounded cron").
 */
const IDS_PER_MARK = 1_000;
/** How long a request or a cron run has to hand its own events over before the cron does. */
const REDISPATCH_AFTER_MS = 60_000;
const REDISPATCH_LIMIT = 1_000;
/** Dispatched events are kept a week: time to investigate, and the table stays small. */
export const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const chunked = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

async function notify(queue: Queue<EventNotice>, ids: string[], shard: number, perNotice = IDS_PER_NOTICE): Promise<void> {
  const notices = chunked(ids, perNotice).map((events): { body: EventNotice } => ({ body: { events, shard } }));
  for (const send of chunked(notices, NOTICES_PER_SEND)) await queue.sendBatch(send);
}

/**
 * Hands events recorded in `env`'s shard (DESIGN 22: the request's, or the one the cron works
 * on) to the subscribers' queues, then marks them dispatched there. Should any step fail, the
 * events stay undispatched and the cron hands them over again: at least once.
 */
export function createDispatcher(subscribers: EventSubscriber[]) {
  async function dispatch(env: Env, recorded: RecordedEvent[], now = Date.now()): Promise<void> {
    if (recorded.length === 0) return;
    for (const subscriber of subscribers) {
      const ids = recorded.filter((event) => subscriber.accepts(event.type)).map((event) => event.id);
      await notify(subscriber.queue(env), ids, shardOf(env), subscriber.eventsPerNotice);
    }
    const db = createDatabase(env.DB);
    for (const ids of chunked(recorded.map((event) => event.id), IDS_PER_MARK)) await markDispatched(db, ids, now);
  }

  /**
   * The cron's share: events not dispatched a minute after they were recorded are handed over
   * (oldest first, bounded per run; later runs take the rest), in the same round trip as the
   * first chunk of deleting the dispatched events older than the retention. `now` is the run's
   * scheduledTime.
   */
  async function maintain(env: Env, now: number, bounds: Bounds): Promise<{ redispatched: number; rules: RuleProgress[] }> {
    const db = createDatabase(env.DB);
    const retention = { rule: "event-retention", chunk: (chunk: Chunk) => expiredEvents(db, now - EVENT_RETENTION_MS, chunk) };
    const { rules, alongside } = await runChunked(db, [retention], bounds, { alongside: [undispatchedEvents(db, now - REDISPATCH_AFTER_MS, REDISPATCH_LIMIT)] });
    const waiting = alongside[0].results as RecordedEvent[];
    await dispatch(env, waiting, now);
    return { redispatched: waiting.length, rules };
  }

  return { dispatch, maintain };
}

export type EventDispatcher = ReturnType<typeof createDispatcher>;

/**
 * Hands a request's recorded events over once the answer is on its way. Should the Worker die
 * first, they are in the outbox and the cron hands them over.
 */
export function dispatchAfterResponse(c: Context<AppEnv>, recorded: RecordedEvent[]): void {
  if (recorded.length) afterResponse(c, c.var.dispatcher.dispatch(c.env, recorded), "events not dispatched; the cron will");
}

/**
 * DESIGN 16a: the events of notices that exhausted a subscriber queue's retries (its dead-letter
 * queue), handed back in the shard each names: the cron hands them over again within the hour.
 */
export async function handBackEvents(env: Env, notices: EventNotice[]): Promise<number> {
  let handedBack = 0;
  for (const [shard, group] of Map.groupBy(notices, (notice) => notice.shard ?? 0)) {
    const ids = group.flatMap((notice) => notice.events);
    const db = createDatabase(shardDatabase(env, shard));
    for (const chunk of chunked(ids, IDS_PER_MARK)) await undispatch(db, chunk);
    handedBack += ids.length;
  }
  return handedBack;
}
