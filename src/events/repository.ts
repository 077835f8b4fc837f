import { and, asc, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { inList } from "../db/lists";
import { windowOf, type Chunk, type ChunkWork } from "../scheduled/chunks";
import { events } from "./tables";

/** An event as subscribers read it (through findEvents, never the table). */
export type EventRecord = Omit<typeof events.$inferSelect, "dispatchedAt">;

/** The events with these ids that are still kept, in the order of `ids`. */
export async function findEvents(db: Database, ids: string[]): Promise<EventRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: events.id,
      type: events.type,
      employerId: events.employerId,
      subjectId: events.subjectId,
      revision: events.revision,
      occurredAt: events.occurredAt,
      data: events.data,
    })
    .from(events)
    .where(inList(events.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One statement whatever the number of ids: the list is one JSON parameter. */
export function markDispatched(db: Database, ids: string[], now: number) {
  return db
    .update(events)
    .set({ dispatchedAt: now })
    .where(inList(events.id, ids));
}

/** Events recorded before `recordedBefore` and never handed over (the Worker died first), oldest first. */
export function undispatchedEvents(db: Database, recordedBefore: number, limit: number) {
  return db
    .select({ id: events.id, type: events.type })
    .from(events)
    .where(and(isNull(events.dispatchedAt), lt(events.occurredAt, recordedBefore)))
    .orderBy(asc(events.occurredAt))
    .limit(limit);
}

/**
 * For the cron: dispatched events recorded before `before` are no longer needed; a chunk at a time
 * (an event not yet handed over stays, and the chunks read past it).
 */
export function expiredEvents(db: Database, before: number, chunk: Chunk): ChunkWork {
  const { ids, last } = windowOf({ table: events, key: events.occurredAt, range: lt(events.occurredAt, before), other: isNotNull(events.dispatchedAt) })(chunk);
  return { last, statements: [db.delete(events).where(sql`rowid IN (${ids})`)] };
}

/**
 * DESIGN 16a: events a subscriber's queue gave up on (its dead-letter queue) are handed back: no
 * longer dispatched, so the cron hands them over again (to every subscriber; each is idempotent).
 */
export function undispatch(db: Database, ids: string[]) {
  return db.update(events).set({ dispatchedAt: null }).where(inList(events.id, ids));
}
