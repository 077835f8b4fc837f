import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";

// No `schema` is given to Drizzle: nothing uses its relational queries (`db.query`), and with a
// schema every instance (one per request) walks all the tables' relations first, about 12 % of
// a job read's CPU (issue 27, profiled). D1's transient errors are retried by the binding itself
// (src/db/retrying.ts, made so at the Worker's entry).
export function createDatabase(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database);
}

export type Database = ReturnType<typeof createDatabase>;

const dialect = new SQLiteAsyncDialect();

/**
 * A fragment without parameters as its text, rendered once: Drizzle walks a `sql` tree again on
 * every use, and the job's column list alone is dozens of nested fragments (issue 27, profiled).
 */
export function prerendered(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length) throw new Error("Only a fragment without parameters can be rendered once.");
  return sql.raw(text);
}

/**
 * A D1 statement from Drizzle-built SQL (a `sql` template or a query builder). Batches of raw
 * SQL run on the D1 client itself: Drizzle's batch cannot carry raw SQL with parameters.
 */
export function toStatement(db: { $client: D1Database }, query: SQL | { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql: text, params } = "toSQL" in query ? query.toSQL() : dialect.sqlToQuery(query);
  return db.$client.prepare(text).bind(...params);
}
