import { and, asc, gt, inArray, lt, lte } from "drizzle-orm";
import type { Database } from "../db/client";
import { inList } from "../db/lists";
import { events } from "./tables";

/** An event as subscribers read it (through findEvents, never the table). */
export type EventRecord = Omit<typeof events.$inferSelect, "seq">;

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

/** DESIGN 22: the relay's read: events recorded after `afterSeq`, in recording order. */
export function eventsAfter(db: Database, afterSeq: number, limit: number): Promise<{ seq: number; id: string; type: string }[]> {
  return db.select({ seq: events.seq, id: events.id, type: events.type }).from(events).where(gt(events.seq, afterSeq)).orderBy(asc(events.seq)).limit(limit);
}

/** DESIGN 16a: the relay's check of what was taken: events after `afterSeq` up to `upToSeq`, in recording order. */
export function eventsBetween(db: Database, afterSeq: number, upToSeq: number, limit: number): Promise<{ seq: number; id: string; type: string }[]> {
  return db
    .select({ seq: events.seq, id: events.id, type: events.type })
    .from(events)
    .where(and(gt(events.seq, afterSeq), lte(events.seq, upToSeq)))
    .orderBy(asc(events.seq))
    .limit(limit);
}

/** Of these ids, the events still kept, with their types (for a hand-over again). */
export function eventTypes(db: Database, ids: string[]): Promise<{ id: string; type: string }[]> {
  return db.select({ id: events.id, type: events.type }).from(events).where(inList(events.id, ids));
}

/**
 * DESIGN 22: retention, by the relay. Of the oldest `limit` events it has passed (up to `cursor`),
 * those recorded before `before` go; one short statement, whatever the table holds.
 */
export function retireEvents(db: Database, cursor: number, before: number, limit: number) {
  return db.delete(events).where(
    and(inArray(events.seq, db.select({ seq: events.seq }).from(events).where(lte(events.seq, cursor)).orderBy(asc(events.seq)).limit(limit)), lt(events.occurredAt, before)),
  );
}
