import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import { inList } from "../db/lists";
import type { Database } from "../db/client";
import { employers } from "../db/schema";
import { ofUnlockedEmployer, throwIfMoved } from "../shards/locks";
import { webhookEndpoints } from "./tables";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
type NewEndpoint = typeof webhookEndpoints.$inferInsert;

const ofEmployer = (employerId: number, id: number) => and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.employerId, employerId));

/** The employer's endpoints, with whether it moved away from this shard in the same round trip (DESIGN 22: none are here then). */
export async function listEndpoints(db: Database, employerId: number): Promise<EndpointRow[]> {
  const [endpoints, [employer]] = await db.batch([
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.employerId, employerId)).orderBy(webhookEndpoints.id),
    db.select({ movedTo: employers.movedTo }).from(employers).where(eq(employers.id, employerId)),
  ]);
  throwIfMoved(employer);
  return endpoints;
}

export async function findEndpoint(db: Database, employerId: number, id: number): Promise<EndpointRow | undefined> {
  return db.select().from(webhookEndpoints).where(ofEmployer(employerId, id)).get();
}

export async function findEndpointById(db: Database, id: number): Promise<EndpointRow | undefined> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
}

/**
 * Which of these employers have enabled endpoints, and which (the events of the others fan out to
 * nothing; the fan-out derives each message's id from its event and endpoint), and, in the same
 * statement, which are locked by a move (DESIGN 22): each with the shard it moved to, null while
 * it moves.
 */
export async function employersWithEnabledEndpoints(
  db: Database,
  employerIds: number[],
): Promise<{ listening: Map<number, number[]>; locked: Map<number, number | null> }> {
  if (employerIds.length === 0) return { listening: new Map(), locked: new Map() };
  const ids = [...new Set(employerIds)];
  const rows = await db.all<{ employerId: number; endpointId: number | null; locked: number; movedTo: number | null }>(sql`
    SELECT employer_id AS employerId, id AS endpointId, 0 AS locked, NULL AS movedTo FROM ${webhookEndpoints} WHERE enabled = 1 AND ${inList(sql.raw("employer_id"), ids)}
    UNION ALL
    SELECT id, NULL, 1, moved_to FROM employers WHERE ${inList(sql.raw("id"), ids)} AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)`);
  const listening = new Map<number, number[]>();
  for (const row of rows) if (!row.locked) listening.set(row.employerId, [...(listening.get(row.employerId) ?? []), row.endpointId!]);
  return { listening, locked: new Map(rows.filter((row) => row.locked).map((row) => [row.employerId, row.movedTo])) };
}

/**
 * Inserts the endpoint only while the employer has fewer than `max`: the count and the insert
 * are one statement, so concurrent creations cannot overshoot. Undefined when at the limit.
 */
export async function insertEndpoint(db: Database, endpoint: NewEndpoint, max: number): Promise<EndpointRow | undefined> {
  const rows = await db.all<{ id: number }>(sql`
    INSERT INTO webhook_endpoints (employer_id, url, events, description, enabled, secret, created_at)
    SELECT ${endpoint.employerId}, ${endpoint.url}, ${endpoint.events}, ${endpoint.description ?? null}, 1, ${endpoint.secret}, ${endpoint.createdAt}
    WHERE (SELECT count(*) FROM webhook_endpoints WHERE employer_id = ${endpoint.employerId}) < ${max}
    RETURNING id`);
  return rows[0] ? findEndpoint(db, endpoint.employerId, rows[0].id) : undefined;
}

export async function updateEndpoint(db: Database, employerId: number, id: number, changes: Partial<NewEndpoint>): Promise<EndpointRow | undefined> {
  if (Object.keys(changes).length === 0) return findEndpoint(db, employerId, id);
  const [row] = await db.update(webhookEndpoints).set(changes).where(ofEmployer(employerId, id)).returning();
  return row;
}

export async function deleteEndpoint(db: Database, employerId: number, id: number): Promise<boolean> {
  return (await db.delete(webhookEndpoints).where(ofEmployer(employerId, id)).returning({ id: webhookEndpoints.id })).length > 0;
}

/** After an attempt: a success clears the failing streak; a failure starts it if it is new. */
export async function recordEndpointOutcome(db: Database, id: number, delivered: boolean, now: number): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ failingSince: delivered ? null : sql`coalesce(${webhookEndpoints.failingSince}, ${now})` })
    .where(eq(webhookEndpoints.id, id));
}

/** For the cron: endpoints whose deliveries have all failed since before `since` are disabled. */
export function disableFailingEndpoints(db: Database, since: number) {
  return db
    .update(webhookEndpoints)
    .set({ enabled: false })
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        isNotNull(webhookEndpoints.failingSince),
        lt(webhookEndpoints.failingSince, since),
        // DESIGN 22: not of an employer locked by a move (its trigger would refuse the statement).
        ofUnlockedEmployer(webhookEndpoints.employerId),
      ),
    );
}
