import { isReadOnly, WORKER_RETRIES, withRetries } from "./transient-errors";

// Issue 46.1: D1's transient errors (src/db/transient-errors.ts) are retried in one place, the
// bindings themselves, so every D1 call of the Worker has it: requests, the cron, the queue
// consumers, the relay and the other Durable Objects, whatever module makes the call.

/**
 * The D1 bindings, by the project's naming rule (wrangler.toml: DB, DB_1 … and the capabilities'
 * own X_DB): by name, since a service binding answers any method name asked of it (RPC).
 */
const D1_BINDING = /^(DB(_\d+)?|[A-Z][A-Z0-9_]*_DB)$/;

const EXECUTE = new Set<string | symbol>(["run", "all", "first", "raw"]);
/** Bindings already made retrying (never wrapped twice: a retry inside a retry multiplies them). */
const wrapped = new WeakSet<object>();

/**
 * The D1 binding (or session) with D1's transient errors retried: a statement or a batch is sent
 * again when D1 refused it, or when it can only read. A batch is one transaction, so a refused
 * batch stored nothing. Its sessions (`withSession`) retry the same way.
 */
export function retrying<T extends D1Database | D1DatabaseSession>(d1: T): T {
  if (wrapped.has(d1)) return d1;
  // D1's batch only takes its own statements: each wrapper's real one, and whether it only reads.
  const real = new WeakMap<object, { raw: D1PreparedStatement; readOnly: boolean }>();
  const wrap = (raw: D1PreparedStatement, readOnly: boolean): D1PreparedStatement => {
    const wrapper = new Proxy(raw, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...params: unknown[]) => wrap(value.apply(target, params), readOnly);
        if (EXECUTE.has(prop)) return (...args: unknown[]) => withRetries(() => value.apply(target, args), readOnly, WORKER_RETRIES);
        return value.bind(target);
      },
    });
    real.set(wrapper, { raw, readOnly });
    return wrapper;
  };
  const batch = (target: T, statements: D1PreparedStatement[]) => {
    const parts = statements.map((s) => real.get(s) ?? { raw: s, readOnly: false });
    return withRetries(
      () => target.batch(parts.map((part) => part.raw)),
      parts.every((part) => part.readOnly),
      WORKER_RETRIES,
    );
  };
  const proxy = new Proxy(d1, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), isReadOnly(sql));
      if (prop === "batch") return (statements: D1PreparedStatement[]) => batch(target, statements);
      if (prop === "withSession") return (constraint?: string) => retrying((target as D1Database).withSession(constraint));
      return value.bind(target);
    },
  });
  wrapped.add(proxy);
  return proxy;
}

const retryingEnvs = new WeakMap<object, object>();

/**
 * The Worker's bindings with every D1 database made retrying (the others as they are), made once
 * per bindings object. The entry and each Durable Object call this on the bindings they are given;
 * bindings whose databases already retry (a copy made below the entry, a request served again
 * after a move) are returned as they are: their identity may mean something to whoever made them.
 */
export function retryingBindings<E extends object>(env: E): E {
  const known = retryingEnvs.get(env);
  if (known) return known as E;
  const databases = Object.entries(env).filter(([name, value]) => D1_BINDING.test(name) && value);
  const made = databases.every(([, value]) => wrapped.has(value))
    ? env
    : ({ ...env, ...Object.fromEntries(databases.map(([name, value]) => [name, retrying(value as D1Database)])) } as E);
  retryingEnvs.set(env, made);
  retryingEnvs.set(made, made);
  return made;
}
