import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

export function createDatabase(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { schema });
}

export type Database = ReturnType<typeof createDatabase>;

const dialect = new SQLiteAsyncDialect();

/**
 * A D1 statement from Drizzle-built SQL (a `sql` template or a query builder). Batches of raw
 * SQL run on the D1 client itself: Drizzle's batch cannot carry raw SQL with parameters.
 */
export function toStatement(db: Database, query: SQL | { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql: text, params } = "toSQL" in query ? query.toSQL() : dialect.sqlToQuery(query);
  return db.$client.prepare(text).bind(...params);
}
