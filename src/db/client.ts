import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { isReadOnly, withRetries } from "./transient-errors";

// No `schema` is given to Drizzle: nothing uses its relational queries (`db.query`), and with a
// schema every instance (one per request) walks all the tables' relations first, about 12 % of
// a job read's CPU (issue 27, profiled).
export function createDatabase(d1: D1Database | D1DatabaseSession) {
  return drizzle(retrying(d1) as D1Database);
}

export type Database = ReturnType<typeof createDatabase>;

const EXECUTE = new Set<string | symbol>(["run", "all", "first", "raw"]);

/**
 * The D1 binding with D1's transient errors retried (src/db/transient-errors.ts), for every
 * repository at once: a statement or a batch is sent again when D1 refused it, or when it can
 * only read. A batch is one transaction, so a refused batch stored nothing.
 */
function retrying<T extends D1Database | D1DatabaseSession>(d1: T): T {
  // D1's batch only takes its own statements: each wrapper's real one, and whether it only reads.
  const real = new WeakMap<object, { raw: D1PreparedStatement; readOnly: boolean }>();
  const wrap = (raw: D1PreparedStatement, readOnly: boolean): D1PreparedStatement => {
    const wrapper = new Proxy(raw, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...params: unknown[]) => wrap(value.apply(target, params), readOnly);
        if (EXECUTE.has(prop)) return (...args: unknown[]) => withRetries(() => value.apply(target, args), readOnly);
        return value.bind(target);
      },
    });
    real.set(wrapper, { raw, readOnly });
    return wrapper;
  };
  const batch = (target: T, statements: D1PreparedStatement[]) => {
    const parts = statements.map((s) => real.get(s) ?? { raw: s, readOnly: false });
    return withRetries(() => target.batch(parts.map((part) => part.raw)), parts.every((part) => part.readOnly));
  };
  return new Proxy(d1, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), isReadOnly(sql));
      if (prop === "batch") return (statements: D1PreparedStatement[]) => batch(target, statements);
      return value.bind(target);
    },
  });
}

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
