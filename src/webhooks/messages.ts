import { and, count, desc, eq, getTableColumns, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { toStatement, type Database } from "../db/client";
import { inList } from "../db/lists";
import type { EventRecord } from "../events/repository";
import { windowOf, type Chunk, type ChunkWork } from "../db/windows";
import { ofUnlockedEmployer } from "../shards/locks";
import { eventMessageId, randomMessageId } from "./message-id";
import { webhookMessages } from "./tables";

// The messages of webhooks (DESIGN 13): one per (event, subscribed endpoint), and the delivery log.

export type MessageRow = typeof webhookMessages.$inferSelect;

/**
 * A message to attempt, with whether its employer is locked by a move (DESIGN 22: being moved, or
 * moved away), read in the same statement.
 */
export async function findMessage(db: Database, id: string): Promise<(MessageRow & { employerLocked: number }) | undefined> {
  return db
    .select({
      ...getTableColumns(webhookMessages),
      employerLocked: sql<number>`coalesce((SELECT frozen_at IS NOT NULL OR moved_to IS NOT NULL FROM employers WHERE id = ${webhookMessages.employerId}), 0)`,
    })
    .from(webhookMessages)
    .where(eq(webhookMessages.id, id))
    .get();
}

/** One statement whatever the number of ids. */
/** DESIGN 16a: attempts a dead-letter queue took back are no longer waiting in the queue, so the cron's sweep sends them again when due. */
export async function unmarkEnqueued(db: Database, ids: string[]): Promise<void> {
  if (ids.length) await db.update(webhookMessages).set({ enqueuedAt: null }).where(inList(webhookMessages.id, ids));
}

export async function markEnqueued(db: Database, ids: string[], now: number): Promise<void> {
  if (ids.length) await db.update(webhookMessages).set({ enqueuedAt: now }).where(inList(webhookMessages.id, ids));
}

/**
 * The fan-out of events: one message per enabled endpoint of the event's employer subscribed to
 * its type (`[]`: all), none when nobody listens; one statement per event, one round trip.
 * `endpoints` are the employers' enabled endpoints (employersWithEnabledEndpoints), read just
 * before; whether each is still enabled and subscribed is decided here, in the statement.
 * Issue 51: a message's id is eventMessageId(event, endpoint), so an event fanned out again (a
 * hand-over again, a dead-letter return, the shard its employer moved to) names the message it
 * already was; a message written before ids were derived keeps its own id, and the unique
 * (event_id, endpoint_id) makes the pair write no second row either way.
 * `alongside` (the fan-out's receipts) goes in the same batch. Returns the new messages' ids.
 */
export async function insertEventMessages(
  db: Database,
  events: EventRecord[],
  endpoints: ReadonlyMap<number, number[]>,
  now: number,
  alongside: SQL[] = [],
): Promise<string[]> {
  const planned = await Promise.all(
    events.map(async (event) => {
      const ids = await Promise.all((endpoints.get(event.employerId) ?? []).map(async (endpointId) => [endpointId, await eventMessageId(event.id, endpointId)]));
      return { event, ids: Object.fromEntries(ids) as Record<number, string> };
    }),
  );
  const statements = planned
    .filter(({ ids }) => Object.keys(ids).length > 0)
    .map(({ event, ids }) =>
      toStatement(
        db,
        sql`
          INSERT INTO webhook_messages (id, event_id, employer_id, endpoint_id, type, occurred_at, data, status, attempts, next_attempt_at, created_at)
          SELECT m.value, ${event.id}, e.employer_id, e.id, ${event.type}, ${event.occurredAt}, ${event.data}, 'pending', 0, ${now}, ${event.occurredAt}
          FROM json_each(${JSON.stringify(ids)}) m
          JOIN webhook_endpoints e ON e.id = CAST(m.key AS INTEGER)
          WHERE e.employer_id = ${event.employerId} AND e.enabled = 1
            AND (e.events = '[]' OR EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = ${event.type}))
          ON CONFLICT DO NOTHING
          RETURNING id`,
      ),
    );
  if (statements.length === 0 && alongside.length === 0) return [];
  const results = await db.$client.batch<{ id: string }>([...statements, ...alongside.map((statement) => toStatement(db, statement))]);
  return results.slice(0, statements.length).flatMap((result) => result.results.map((row) => row.id));
}

/** The outcome of one attempt: delivered, failed for good, or due again at `nextAttemptAt`. */
export async function recordAttempt(
  db: Database,
  id: string,
  outcome: { status: "delivered" | "failed" | "pending"; statusCode: number | null; nextAttemptAt: number | null },
): Promise<void> {
  await db
    .update(webhookMessages)
    .set({
      status: outcome.status,
      attempts: sql`${webhookMessages.attempts} + 1`,
      lastStatusCode: outcome.statusCode,
      nextAttemptAt: outcome.nextAttemptAt,
    })
    .where(eq(webhookMessages.id, id));
}

/** A message sent again now (the delivery log's retry): pending, due now, attempts kept. */
export async function rescheduleMessage(db: Database, employerId: number, endpointId: number, id: string, now: number): Promise<boolean> {
  const rows = await db
    .update(webhookMessages)
    .set({ status: "pending", nextAttemptAt: now, attempts: 0 })
    .where(and(eq(webhookMessages.id, id), eq(webhookMessages.employerId, employerId), eq(webhookMessages.endpointId, endpointId)))
    .returning({ id: webhookMessages.id });
  return rows.length > 0;
}

/**
 * Pending messages that should have been attempted by `dueBefore` and are not waiting in the
 * queue: never handed over, or handed over before they became due (the queue lost them, or
 * the Worker died between the write and the enqueue). Bounded per run.
 */
export async function dueMessages(db: Database, dueBefore: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: webhookMessages.id })
    .from(webhookMessages)
    .where(
      and(
        eq(webhookMessages.status, "pending"),
        lte(webhookMessages.nextAttemptAt, dueBefore),
        or(isNull(webhookMessages.enqueuedAt), lt(webhookMessages.enqueuedAt, webhookMessages.nextAttemptAt)),
        // DESIGN 22: an employer being moved is handed over again once it lives in one shard (its
        // messages' hand-over, marked here, would be refused); one moved away, by its new shard.
        ofUnlockedEmployer(webhookMessages.employerId),
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}

/** For the cron: the delivery log keeps 30 days; a chunk at a time. */
export function expiredMessages(db: Database, before: number, chunk: Chunk): ChunkWork {
  const { ids, last } = windowOf({ table: webhookMessages, key: webhookMessages.createdAt, range: lt(webhookMessages.createdAt, before) })(chunk);
  // DESIGN 22: not of an employer locked by a move (its trigger would refuse the chunk); a later run takes them.
  return { last, statements: [db.delete(webhookMessages).where(sql`rowid IN (${ids}) AND ${ofUnlockedEmployer(webhookMessages.employerId)}`)] };
}

/** A message for one endpoint whatever it subscribes to (webhook.test); its id. */
export async function insertDirectMessage(
  db: Database,
  message: { employerId: number; endpointId: number; type: string; data: unknown },
  now: number,
): Promise<string> {
  const id = randomMessageId();
  await db.insert(webhookMessages).values({
    id,
    employerId: message.employerId,
    endpointId: message.endpointId,
    type: message.type,
    occurredAt: now,
    data: JSON.stringify(message.data),
    status: "pending",
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
  });
  return id;
}

export async function listDeliveries(
  db: Database,
  endpointId: number,
  filter: { status?: "pending" | "delivered" | "failed"; page: number; pageSize: number },
) {
  const where = and(eq(webhookMessages.endpointId, endpointId), filter.status ? eq(webhookMessages.status, filter.status) : undefined);
  const [rows, [{ total }]] = await db.batch([
    db
      .select()
      .from(webhookMessages)
      .where(where)
      .orderBy(desc(webhookMessages.createdAt), desc(webhookMessages.id))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db.select({ total: count() }).from(webhookMessages).where(where),
  ]);
  return { rows, total };
}
