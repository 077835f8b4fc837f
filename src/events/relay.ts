import { DurableObject } from "cloudflare:workers";
import { createDatabase } from "../db/client";
import { retryingBindings } from "../db/retrying";
import type { Env, Relay } from "../env";
import { atShard, shardOf } from "../shards/bindings";
import { handOver, notify, type EventSubscriber } from "./dispatch";
import { eventsAfter, eventsBetween, eventTypes, retireEvents } from "./repository";

// DESIGN 22: one relay per shard drains that shard's outbox. It is a Durable Object (exactly one
// per shard, with an alarm that is retried): it reads the events recorded after its cursor, in
// recording order, hands them to the subscribers' queues, then moves the cursor, which it keeps in
// its own storage. So a request writes nothing but its own batch: it pokes its shard's relay once
// the answer is on its way, and should the poke be lost (the Worker died first), the relay's own
// alarm finds the events within seconds. At least once: a relay that dies between a hand-over and
// its cursor hands the same events over again, and every subscriber is idempotent.
// DESIGN 16a: handing over is not taking. A queue can lose what it holds (a local crash, a purge),
// so the relay asks each subscriber, in bounded checks, which events handed over 5 minutes ago it
// has not taken (its consumers record receipts in the batch of their effect), and hands those over
// again, every 5 minutes, until they are taken or their retention ends.

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

/** An event handed over and not taken is handed over again after this long, and again as long as it stays so. */
export const TAKE_WITHIN_MS = 5 * 60_000;
/** How often the relay checks what was taken: each subscriber at most this often. */
const CHECK_EVERY_MS = 60_000;
/** Events checked per step, and the time a check may take per alarm (a backlog is checked over several). */
const CHECKED_PER_STEP = 500;
const CHECK_MS = 2_000;
/**
 * Events still not taken, per subscriber, that the relay keeps handing over (one storage value,
 * about 70 KB at most). Past this many, it checks no further for that subscriber until some are
 * taken (or retired): its consumer is down, and handing it more would not help.
 */
const OUTSTANDING_MAX = 1_000;
/** A cursor position is marked with its hand-over time at most this often (the marks say what is 5 minutes old). */
const MARK_EVERY_MS = 10_000;
/** Storage keys of the events not taken, per subscriber: `{ id, seq, at }` (at: last handed over). */
const OUTSTANDING = "outstanding:";
interface Outstanding {
  id: string;
  seq: number;
  at: number;
}

interface RelayState {
  shard: number;
  /** The recording order (events.seq) of the last event handed over. */
  cursor: number;
  /** When the relay last handed an event over (ms). */
  activeAt: number;
  /** When the relay last deleted passed events (ms). */
  retiredAt: number;
  /** DESIGN 16a: per subscriber, the last event checked for a receipt (events.seq). */
  checked?: Record<string, number>;
  /** When the relay last checked receipts (ms). */
  checkedAt?: number;
  /** [cursor, when it was reached], oldest first: which events were handed over at least 5 minutes ago. */
  marks?: [number, number][];
}

/** The relay class for these subscribers (the Worker entry exports it under the binding's class name). */
export function createRelayClass(subscribers: EventSubscriber[]) {
  return class ShardRelay extends DurableObject<Env> implements Relay {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, retryingBindings(env));
    }

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
        markCursor(state);
        await this.ctx.storage.put<RelayState>("state", state);
        full = waiting.length === EVENTS_PER_STEP;
      } while (full && Date.now() - started < RUN_MS);
      if (Date.now() - (state.checkedAt ?? 0) >= CHECK_EVERY_MS) {
        // Behind (time ran out first): the next alarm checks on, not a minute later.
        if (await this.checkTaken(env, state)) state.checkedAt = Date.now();
        await this.ctx.storage.put<RelayState>("state", state);
      }
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

    /**
     * DESIGN 16a: for each subscriber, the events handed over at least TAKE_WITHIN_MS ago that it
     * accepts and has not taken (with those still outstanding from earlier checks) are handed over
     * again, at most once per TAKE_WITHIN_MS each; taken or retired ones are forgotten. True when
     * every subscriber was checked up to the horizon (or is held by its outstanding events).
     */
    private async checkTaken(env: Env, state: RelayState): Promise<boolean> {
      const now = Date.now();
      const upTo = handedOverBefore(state, now - TAKE_WITHIN_MS);
      const db = createDatabase(env.DB);
      const started = Date.now();
      state.checked ??= {};
      let caughtUp = true;
      for (const subscriber of subscribers) {
        const key = `${OUTSTANDING}${subscriber.name}`;
        let outstanding = (await this.ctx.storage.get<Outstanding[]>(key)) ?? [];
        let checked = state.checked[subscriber.name] ?? 0;
        // The old ones first, then new ones a step at a time, while there is time and room.
        let step: Outstanding[] = outstanding;
        outstanding = [];
        for (;;) {
          const notTaken = await this.notTaken(env, db, subscriber, step);
          const due = notTaken.filter((event) => now - event.at >= TAKE_WITHIN_MS);
          if (due.length) await notify(env, subscriber, due.map((event) => event.id), state.shard);
          outstanding.push(...notTaken.map((event) => (now - event.at >= TAKE_WITHIN_MS ? { ...event, at: now } : event)));
          if (checked >= upTo || outstanding.length >= OUTSTANDING_MAX || Date.now() - started >= CHECK_MS) break;
          const events = await eventsBetween(db, checked, upTo, CHECKED_PER_STEP);
          if (events.length === 0) {
            checked = upTo; // what was between is retired
            break;
          }
          checked = events[events.length - 1].seq;
          // Handed over at least TAKE_WITHIN_MS ago (`upTo` says so): due now if not taken.
          step = events.filter((event) => subscriber.accepts(event.type)).map((event) => ({ id: event.id, seq: event.seq, at: 0 }));
        }
        state.checked[subscriber.name] = checked;
        if (checked < upTo && outstanding.length < OUTSTANDING_MAX) caughtUp = false;
        if (outstanding.length) await this.ctx.storage.put(key, outstanding);
        else await this.ctx.storage.delete(key);
      }
      return caughtUp;
    }

    /** Of `events`, those `subscriber` has not taken and the outbox still keeps, in recording order. */
    private async notTaken(env: Env, db: ReturnType<typeof createDatabase>, subscriber: EventSubscriber, events: Outstanding[]): Promise<Outstanding[]> {
      if (events.length === 0) return [];
      const taken = new Set(await subscriber.taken(this.env, shardOf(env), events.map((event) => event.id)));
      const left = events.filter((event) => !taken.has(event.id));
      if (left.length === 0) return [];
      const kept = new Set((await eventTypes(db, left.map((event) => event.id))).map((event) => event.id));
      return left.filter((event) => kept.has(event.id)).sort((a, b) => a.seq - b.seq);
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

/**
 * Marks the cursor with the time it was reached: the last mark moves along until it is
 * MARK_EVERY_MS after the one before it, then a new one starts (a mark never claims an event was
 * handed over earlier than it was). Marks older than the check's horizon but the latest go.
 */
function markCursor(state: RelayState): void {
  const now = Date.now();
  const marks = (state.marks ??= []);
  const before = marks[marks.length - 2];
  if (before && now - before[1] < MARK_EVERY_MS) marks[marks.length - 1] = [state.cursor, now];
  else marks.push([state.cursor, now]);
  while (marks.length > 1 && marks[1][1] <= now - TAKE_WITHIN_MS) marks.shift();
}

/** The last event handed over at or before `time`: the marks say (0: none yet). */
function handedOverBefore(state: RelayState, time: number): number {
  let upTo = 0;
  for (const [seq, at] of state.marks ?? []) if (at <= time) upTo = seq;
  return upTo;
}
