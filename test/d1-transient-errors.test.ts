import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { API, createEmployer, problemOf } from "./support/api";
import { assertMatchesContract } from "./support/contract";
import { retrying, retryingBindings } from "../src/db/retrying";
import { WORKER_RETRIES } from "../src/db/transient-errors";
import type { Env } from "../src/env";
import { proxiedD1 } from "./support/d1-proxies";
import { jobBody, postJob } from "./support/jobs";

// D1's transient errors (docs: "Retry the operation"), as D1 words them. A refused batch or
// statement is retried; one that may have run is retried only when it can only read; what
// stays failing is a 503 with Retry-After, never a 500.

const BUSY = "D1_ERROR: database is locked: SQLITE_BUSY";
const REFUSED = [
  BUSY,
  "D1_ERROR: D1 DB is overloaded. Requests queued for too long.",
  "D1_ERROR: D1 DB is overloaded. Too many requests queued.",
  "D1_ERROR: Internal error while starting up D1 DB storage caused object to be reset.",
  // Local D1 when another process (a command) held the file as the transaction committed (issue 46.1).
  "D1_ERROR: Failed to get session commit token: internal error; reference = pnnciqi75gacsfgr58f9vjun",
];
const OUTCOME_UNKNOWN = [
  "D1_ERROR: Network connection lost.",
  "D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset.",
  "D1_ERROR: Internal error in D1 DB storage caused object to be reset.",
  "D1_ERROR: D1 DB reset because its code was updated.",
];

const employer = await createEmployer();

/**
 * The D1 binding with `method` ("batch", or "all"/"run"/"first"/"raw" of a statement) failing
 * with `message` the first `times` calls; `calls` counts every call of it.
 */
function failingD1(method: string, message: string, times = Infinity) {
  const state = { calls: 0 };
  const fail = <F extends Function>(original: F) =>
    (async (...args: unknown[]) => {
      if (state.calls++ < times) throw new Error(message);
      return original(...args);
    }) as unknown as Function;
  const db = proxiedD1((name, original) => {
    if (name === method) return fail(original);
    // A statement method: wrap what prepare and bind give (batch is left alone, it needs real statements).
    if (name !== "prepare" || method === "batch") return undefined;
    return (sql: string) => {
      const statement = original(sql) as D1PreparedStatement;
      const bound = (s: D1PreparedStatement): D1PreparedStatement =>
        new Proxy(s, {
          get(target, prop) {
            const value = Reflect.get(target, prop, target);
            if (typeof value !== "function") return value;
            if (prop === "bind") return (...params: unknown[]) => bound(value.apply(target, params));
            if (prop === method) return fail(value.bind(target));
            return value.bind(target);
          },
        });
      return bound(statement);
    };
  });
  return { db, state };
}

/** A request to the Worker over this D1 binding, checked against the OpenAPI document. */
async function send(db: D1Database, path: string, init: { method?: string; json?: unknown } = {}) {
  const headers = new Headers({ "API-Key": employer.apiKey });
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const req = new Request(`${API}${path}`, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  const res = await worker.fetch(req.clone() as Request<unknown, IncomingRequestCfProperties>, { ...env, DB: db }, {
    waitUntil: () => {},
    passThroughOnException: () => {},
  } as unknown as ExecutionContext);
  await assertMatchesContract(req, res.clone());
  return res;
}

const jobCount = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE employer_id = ?").bind(employer.employerId).first<{ n: number }>())!.n;

describe("D1's transient errors", () => {
  it("a write batch refused once (SQLITE_BUSY) is sent again: POST answers 201 and stores one job", async () => {
    await postJob(employer); // warms the reference data, so the POST is one write batch
    const before = await jobCount();
    const { db, state } = failingD1("batch", BUSY, 1);
    const res = await send(db, "/jobs", { method: "POST", json: jobBody({ title: "Busy once" }) });
    expect(res.status).toBe(201);
    expect(state.calls).toBe(2);
    expect(await jobCount()).toBe(before + 1);
  });

  it("every refusal D1 words as 'retry the operation' is retried, on writes and reads alike", async () => {
    const job = await postJob(employer, { title: "Read me" });
    for (const message of REFUSED) {
      const write = failingD1("batch", message, 1);
      const put = await send(write.db, `/jobs/${job.id}`, { method: "PUT", json: { title: `After ${message.length}` } });
      expect(put.status, message).toBe(200);
      const read = failingD1("all", message, 1);
      expect((await send(read.db, `/jobs/${job.id}`)).status, message).toBe(200);
    }
  });

  it("an error after which the statements may have run is retried for reads only: GET answers 200", async () => {
    const job = await postJob(employer);
    for (const message of OUTCOME_UNKNOWN) {
      const read = failingD1("all", message, 1);
      expect((await send(read.db, `/jobs/${job.id}`)).status, message).toBe(200);
      const list = failingD1("batch", message, 1);
      expect((await send(list.db, "/jobs?pageSize=1")).status, message).toBe(200);
      expect(list.state.calls, message).toBe(2);
    }
  });

  it("a write that may have been stored is never sent twice: 'Network connection lost' on the write batch is a 503 after one attempt", async () => {
    const { db, state } = failingD1("batch", OUTCOME_UNKNOWN[0], 1);
    const res = await send(db, "/jobs", { method: "POST", json: jobBody() });
    expect(res.status).toBe(503);
    expect(state.calls).toBe(1);
  });

  it("a database that stays busy: 503 problem+json with Retry-After, never a 500, and nothing stored", async () => {
    const before = await jobCount();
    const job = await postJob(employer);
    const cases: [string, string, { method?: string; json?: unknown }][] = [
      ["batch", "/jobs", { method: "POST", json: jobBody({ title: "Never stored" }) }],
      ["batch", "/jobs?q=acc", {}],
      ["all", `/jobs/${job.id}`, {}],
      ["batch", "/jobs/batch", { method: "POST", json: { upsert: [jobBody({ referenceId: "BUSY-1" })] } }],
    ];
    for (const [method, path, init] of cases) {
      const { db, state } = failingD1(method, BUSY);
      const res = await send(db, path, init);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("Content-Type"), path).toBe("application/problem+json");
      expect(Number(res.headers.get("Retry-After")), path).toBeGreaterThan(0);
      const problem = await problemOf(res);
      expect(problem.type, path).toBe("/problems/service-unavailable");
      expect(problem.detail, path).not.toContain("SQLITE");
      // Bounded: the budget's attempts, then the answer.
      expect(state.calls, path).toBe(WORKER_RETRIES.attempts);
    }
    expect(await jobCount()).toBe(before + 1);
  });

  it("an error that is not transient is not retried and stays a 500", async () => {
    const { db, state } = failingD1("all", "D1_ERROR: no such column: nope: SQLITE_ERROR");
    const res = await send(db, "/jobs/1");
    expect(res.status).toBe(500);
    expect(state.calls).toBe(1);
  });
});

describe("one place retries every D1 call of the Worker (issue 46.1)", () => {
  it("the entry's bindings: every D1 database (DB, DB_1, BOARD_DB, ALERTS_DB) retries, made once; the other bindings are as given", () => {
    const given = { ...env } as Env;
    const bindings = retryingBindings(given);
    for (const name of ["DB", "DB_1", "BOARD_DB", "ALERTS_DB"] as const) {
      expect(bindings[name], name).not.toBe(given[name]);
      expect(retrying(bindings[name]!), name).toBe(bindings[name]); // never wrapped twice
    }
    for (const name of ["API_KEYS", "RESUMES", "WEBHOOK_QUEUE", "RELAY"] as const) expect(bindings[name], name).toBe(given[name]);
    expect(retryingBindings(given)).toBe(bindings);
    expect(retryingBindings(bindings)).toBe(bindings);
    // A copy made below the entry (a request served again after a move) keeps its identity.
    const copy = { ...bindings };
    expect(retryingBindings(copy)).toBe(copy);
  });

  it("a statement prepared straight on a binding, and on a session of it, is retried (no repository needed)", async () => {
    for (const open of [(d1: D1Database) => d1, (d1: D1Database) => d1.withSession("first-primary")]) {
      const { db, state } = failingD1("first", BUSY, 2);
      const d1 = open(retryingBindings({ DB: db }).DB);
      expect(await d1.prepare("SELECT 41 + 1 AS answer").first()).toEqual({ answer: 42 });
      expect(state.calls).toBe(3);
    }
  });

  it("the Cron Trigger's run gets the same bindings: a run whose database refuses its first batch (busy) completes", async () => {
    const { db, state } = failingD1("batch", BUSY, 1);
    const bindings = { ...env, DB: db } as Env;
    await worker.scheduled!(
      { scheduledTime: Date.now(), cron: "0 * * * *", noRetry: () => {} } as ScheduledController,
      bindings,
    );
    expect(state.calls).toBeGreaterThanOrEqual(2); // the refused batch, sent again
  });
});
