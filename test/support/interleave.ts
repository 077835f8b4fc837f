import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { API } from "./api";

/**
 * A D1 binding that runs `meanwhile` (another client's write) just before the request's next
 * write batch: the deterministic form of "another request came first between our read and our
 * write". Sessions opened from it behave the same.
 */
export function interleavedD1(meanwhile: () => Promise<unknown>, times = 1): D1Database {
  let left = times;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t);
        if (typeof value !== "function") return value;
        if (prop === "withSession") return (constraint?: string) => wrap((t as D1Database).withSession(constraint));
        if (prop === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            if (left > 0) {
              left--;
              await meanwhile();
            }
            return value.call(t, statements);
          };
        }
        return value.bind(t);
      },
    });
  return wrap(env.DB);
}

/** A request to the Worker with this D1 binding instead of the real one. */
export async function requestWith(
  db: D1Database,
  path: string,
  init: { method?: string; json?: unknown; apiKey: string; headers?: Record<string, string> },
): Promise<Response> {
  const headers = new Headers({ "API-Key": init.apiKey, ...init.headers });
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  return worker.fetch(new Request(`${API}${path}`, { method: init.method ?? "GET", headers, body }), { ...env, DB: db }, {
    waitUntil: () => {},
    passThroughOnException: () => {},
  } as unknown as ExecutionContext);
}
