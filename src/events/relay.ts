import { DurableObject } from "cloudflare:workers";
import { createDatabase } from "../db/client";
import type { Env, Relay } from "../env";
import { atShard, shardOf } from "../shards/bindings";
import { handOver, notify, type EventSubscriber } from "./dispatch";
import { eventsAfter, eventTypes, retireEvents } from "./repository";

// DESIGN 22: one relay per shard drains that shard's outbox. It is a Durable Object (exactly one
// per shard, with an alarm that is retried): it reads the events recorded after its cursor, in
// recording order, hands them to the subscribers' queues, then moves the cursor, which it keeps in
// its own storage. So a request writes nothing but its own batch: it pokes its shard's relay once
// the answer is on its way, and should the poke be lost (the Worker died first), the relay's own
// alarm finds the events within seconds. At least once: a relay that dies between a hand-over and
// its cursor hands the same events over again, and every subscriber is idempotent.

/** Events read and handed over per step: a few notices of 100 per subscriber. */
const EVENTS_PER_STEP = 500;
/** One alarm works at most this long, then lets the next alarm go on (a backlog yields to pokes). */
const RUN_MS = 10_000;
/** While events came in the last minutes, the relay looks again every second; else every 15 s. */
const ACTIVE_POLL_MS = 1_000;
const IDLE_POLL_MS = 15_000;
const ACTIVE_WINDOW_MS = 5 * 60_000;
/** After a failure (D1 unreachable), the next try. An alarm never throws: a thrown one is given up after a few retries. */
const RETRY_MS = 5_000;
/**
 * Events the relay has passed are kept a week (time to investigate), then deleted, 1 000 a
 * statement (a few ms each), for at most 2 s an alarm, every 10 minutes or until caught up.
 */
export const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const RETIRED_PER_STATEMENT = 1_000;
const RETENTION_MS = 2_000;
const RETENTION_EVERY_MS = 10 * 60_000;

/** Storage keys of what dead-letter queues gave back (then the time it came, so they list oldest first). */
const GIVEN_BACK = "given-back:";
const GIVEN_BACK_PER_RUN = 20;
interface GivenBack {
  subscriber: string;
  ids: string[];
}

interface RelayState {
  shard: number;
  /** The recording order (events.seq) of the last event handed over. */
  cursor: number;
  /** When the relay last handed an event over (ms). */
  activeAt: number;
  /** When the relay last deleted passed events (ms). */
  retiredAt: number;
}

/** The relay class for these subscribers (the Worker entry exports it under the binding's class name). */
export function createRelayClass(subscribers: EventSubscriber[]) {
  return class ShardRelay extends DurableObject<Env> implements Relay {
    /** A poke came while an alarm ran: that alarm may have read before the poked events, so the next runs at once. */
    private pokedWhileRunning = false;

    /** Events were recorded in `shard`: hand them over now (and learn which shard this relay serves). */
    async poke(shard: number): Promise<void> {
      this.pokedWhileRunning = true;
      const state = await this.state();
      if (state.shard !== shard) await this.ctx.storage.put<RelayState>("state", { ...state, shard });
      const due = await this.ctx.storage.getAlarm();
      if (due === null || due > Date.now()) await this.ctx.storage.setAlarm(Date.now());
    }

    /**
     * DESIGN 16a: events a subscriber's queue gave up on (its dead-letter queue) come back here;
     * the next alarm hands them to that subscriber again, before anything newer.
     */
    async giveBack(shard: number, subscriber: string, ids: string[]): Promise<void> {
      await this.ctx.storage.put(`${GIVEN_BACK}${Date.now().toString().padStart(15, "0")}:${crypto.randomUUID()}`, { subscriber, ids });
      await this.poke(shard);
    }

    /** Where the relay is: for the shards command and the tests. */
    async position(): Promise<RelayState> {
      return this.state();
    }

    override async alarm(): Promise<void> {
      this.pokedWhileRunning = false;
      const state = await this.state();
      let next = RETRY_MS;
      try {
        next = await this.run(state);
        if (this.pokedWhileRunning) next = 0;
      } catch (error) {
        console.error(JSON.stringify({ event: "relay-failed", shard: state.shard, error: String(error) }));
      }
      await this.ctx.storage.setAlarm(Date.now() + next);
    }

    /** Hands over what waits after the cursor; returns when to look again (ms from now). */
    private async run(state: RelayState): Promise<number> {
      const env = atShard(this.env, state.shard);
      const db = createDatabase(env.DB);
      await this.handOverGivenBack(env);
      const started = Date.now();
      let full = false;
      do {
        const waiting = await eventsAfter(db, state.cursor, EVENTS_PER_STEP);
        if (waiting.length === 0) break;
        await handOver(env, subscribers, waiting);
        state.cursor = waiting[waiting.length - 1].seq;
        state.activeAt = Date.now();
        await this.ctx.storage.put<RelayState>("state", state);
        full = waiting.length === EVENTS_PER_STEP;
      } while (full && Date.now() - started < RUN_MS);
      if (Date.now() - state.retiredAt >= RETENTION_EVERY_MS && (await this.retire(db, state.cursor))) {
        state.retiredAt = Date.now();
        await this.ctx.storage.put<RelayState>("state", state);
      }
      if (full) return 0;
      return Date.now() - state.activeAt < ACTIVE_WINDOW_MS ? ACTIVE_POLL_MS : IDLE_POLL_MS;
    }

    /** What dead-letter queues gave back, oldest first, to the subscriber that gave it up (only events still kept). */
    private async handOverGivenBack(env: Env): Promise<void> {
      const given = await this.ctx.storage.list<GivenBack>({ prefix: GIVEN_BACK, limit: GIVEN_BACK_PER_RUN });
      const db = createDatabase(env.DB);
      for (const [key, { subscriber, ids }] of given) {
        const to = subscribers.find((candidate) => candidate.name === subscriber);
        const kept = to ? (await eventTypes(db, ids)).filter((event) => to.accepts(event.type)).map((event) => event.id) : [];
        if (to && kept.length) await notify(env, to, kept, shardOf(env));
        await this.ctx.storage.delete(key);
      }
    }

    /** Deletes passed events past their retention; true once none is left (false: time ran out first). */
    private async retire(db: ReturnType<typeof createDatabase>, cursor: number): Promise<boolean> {
      const started = Date.now();
      while (Date.now() - started < RETENTION_MS) {
        const { meta } = await retireEvents(db, cursor, Date.now() - EVENT_RETENTION_MS, RETIRED_PER_STATEMENT);
        if (meta.changes < RETIRED_PER_STATEMENT) return true;
      }
      return false;
    }

    private async state(): Promise<RelayState> {
      return (await this.ctx.storage.get<RelayState>("state")) ?? { shard: 0, cursor: 0, activeAt: 0, retiredAt: 0 };
    }
  };
}
