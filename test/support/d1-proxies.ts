import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { API } from "./api";

/**
 * The D1 binding with some of its methods replaced, on the binding and on every session opened
 * from it: `replace` gets the method's name and the original (bound), and returns a stand-in
 * or undefined to keep it.
 */
export function proxiedD1(replace: (name: string | symbol, original: Function) => Function | undefined, base: D1Database = env.DB): D1Database {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t);
        if (typeof value !== "function") return value;
        if (prop === "withSession") return (constraint?: string) => wrap((t as D1Database).withSession(constraint));
        return replace(prop, value.bind(t)) ?? value.bind(t);
      },
    });
  return wrap(base);
}

/**
 * A D1 binding that runs `meanwhile` (another client's write) just before the request's next
 * write batch: the deterministic form of "another request came first between our read and our
 * write".
 */
export function interleavedD1(meanwhile: () => Promise<unknown>, times = 1): D1Database {
  let left = times;
  return proxiedD1((name, original) =>
    name === "batch"
      ? async (statements: D1PreparedStatement[]) => {
          if (left-- > 0) await meanwhile();
          return original(statements);
        }
      : undefined,
  );
}

/** A D1 binding that records every statement it binds, with its values (to EXPLAIN them). */
export function capturingD1(base: D1Database = env.DB): { db: D1Database; ran: { sql: string; params: unknown[] }[] } {
  const ran: { sql: string; params: unknown[] }[] = [];
  const db = proxiedD1((name, original) =>
    name === "prepare"
      ? (sql: string) => {
          const statement = original(sql) as D1PreparedStatement;
          return new Proxy(statement, {
            get(s, p) {
              const v = Reflect.get(s, p, s);
              if (p === "bind") return (...params: unknown[]) => (ran.push({ sql, params }), v.apply(s, params));
              return typeof v === "function" ? v.bind(s) : v;
            },
          });
        }
      : undefined,
    base,
  );
  return { db, ran };
}

const pendingAfterAnswers: Promise<unknown>[] = [];

/** Waits for the work requestWith's requests left to run after their answers (handing events over). */
export async function afterAnswers(): Promise<void> {
  await Promise.allSettled(pendingAfterAnswers.splice(0));
}

/** A request to the Worker with this D1 binding instead of the real one. */
export async function requestWith(
  db: D1Database,
  path: string,
  init: { method?: string; json?: unknown; apiKey: string; headers?: Record<string, string>; boardDb?: D1Database },
): Promise<Response> {
  const headers = new Headers({ "API-Key": init.apiKey, ...init.headers });
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  return worker.fetch(new Request(`${API}${path}`, { method: init.method ?? "GET", headers, body }), { ...env, DB: db, BOARD_DB: init.boardDb ?? env.BOARD_DB }, {
    waitUntil: (work: Promise<unknown>) => void pendingAfterAnswers.push(work),
    passThroughOnException: () => {},
  } as unknown as ExecutionContext);
}
