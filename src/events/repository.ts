import { and, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { inList } from "../db/lists";
import { webhookMessages } from "./tables";

export type MessageRow = typeof webhookMessages.$inferSelect;

export async function findMessage(db: Database, id: string): Promise<MessageRow | undefined> {
  return db.select().from(webhookMessages).where(eq(webhookMessages.id, id)).get();
}

/** One statement whatever the number of ids. */
export async function markEnqueued(db: Database, ids: string[], now: number): Promise<void> {
  if (ids.length) await db.update(webhookMessages).set({ enqueuedAt: now }).where(inList(webhookMessages.id, ids));
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
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}

/** For the cron: the delivery log keeps 30 days. */
export function expiredMessages(db: Database, before: number) {
  return db.delete(webhookMessages).where(lt(webhookMessages.createdAt, before));
}

/** A message for one endpoint whatever it subscribes to (webhook.test); its id. */
export async function insertDirectMessage(
  db: Database,
  message: { employerId: number; endpointId: number; type: string; data: unknown },
  now: number,
): Promise<string> {
  const id = `msg_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
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
