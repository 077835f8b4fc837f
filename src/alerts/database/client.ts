import type { SQL } from "drizzle-orm";
import { createDatabase, toStatement, type Database } from "../../db/client";

// Job alerts' own database (ALERTS_DB, DESIGN 23). Only src/alerts reaches it, through here.

declare const alertsDb: unique symbol;
/** Branded, so that the type checker refuses another database where the alerts' is meant. */
export type AlertsDatabase = Database & { readonly [alertsDb]: true };
export const createAlertsDatabase = (d1: D1Database) => createDatabase(d1) as AlertsDatabase;

export async function all<T>(db: AlertsDatabase, query: SQL): Promise<T[]> {
  return (await toStatement(db, query).all<T>()).results;
}

/** One round trip, atomic: a write touching several tables goes as one batch. */
export async function batch(db: AlertsDatabase, queries: SQL[]): Promise<D1Result[]> {
  if (queries.length === 0) return [];
  return db.$client.batch(queries.map((query) => toStatement(db, query)));
}
