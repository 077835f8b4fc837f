import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import { inList } from "../db/lists";
import type { Database } from "../db/client";
import { webhookEndpoints } from "./tables";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
type NewEndpoint = typeof webhookEndpoints.$inferInsert;

const ofEmployer = (employerId: number, id: number) => and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.employerId, employerId));

export async function listEndpoints(db: Database, employerId: number): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.employerId, employerId)).orderBy(webhookEndpoints.id);
}

export async function findEndpoint(db: Database, employerId: number, id: number): Promise<EndpointRow | undefined> {
  return db.select().from(webhookEndpoints).where(ofEmployer(employerId, id)).get();
}

export async function findEndpointById(db: Database, id: number): Promise<EndpointRow | undefined> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
}

/** Which of these employers have an enabled endpoint: the events of the others fan out to nothing. */
export async function employersWithEnabledEndpoints(db: Database, employerIds: number[]): Promise<Set<number>> {
  if (employerIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ employerId: webhookEndpoints.employerId })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        inList(webhookEndpoints.employerId, [...new Set(employerIds)]),
      ),
    );
  return new Set(rows.map((row) => row.employerId));
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
    .where(and(eq(webhookEndpoints.enabled, true), isNotNull(webhookEndpoints.failingSince), lt(webhookEndpoints.failingSince, since)));
}
