/**
 * Wraps a D1 binding and counts round trips to the database: each statement execution
 * (`run`, `all`, `first`, `raw`), each `batch` (one, however many statements) and each `exec`,
 * on the binding itself or on any session opened from it with `withSession`. `statements()`
 * counts queries as D1's per-invocation limit does: every statement of a batch is one.
 */
export function countingD1(db: D1Database): { db: D1Database; count: () => number; statements: () => number; reset: () => void } {
  let trips = 0;
  let statements = 0;
  const rawOf = new WeakMap<object, D1PreparedStatement>();

  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args));
        if (prop === "run" || prop === "all" || prop === "first" || prop === "raw") {
          return (...args: unknown[]) => {
            trips++;
            statements++;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    rawOf.set(proxy, statement);
    return proxy;
  };

  const wrap = <T extends D1Database | D1DatabaseSession>(db: T): T =>
    new Proxy(db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "prepare") return (query: string) => wrapStatement(target.prepare(query));
        if (prop === "withSession") {
          return (constraint?: string) => wrap((target as D1Database).withSession(constraint));
        }
        if (prop === "batch") {
          return (batch: D1PreparedStatement[]) => {
            trips++;
            statements += batch.length;
            return target.batch(batch.map((s) => rawOf.get(s) ?? s));
          };
        }
        if (prop === "exec") {
          return (query: string) => {
            trips++;
            statements++;
            return (target as D1Database).exec(query);
          };
        }
        return value.bind(target);
      },
    });

  return {
    db: wrap(db),
    count: () => trips,
    statements: () => statements,
    reset: () => {
      trips = 0;
      statements = 0;
    },
  };
}
