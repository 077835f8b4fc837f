import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { parameterAdmits } from "./support/contract";
import { countingD1 } from "./support/count-d1";
import { afterAnswers, interleavedD1, proxiedD1, requestWith } from "./support/d1-proxies";
import { jobBody } from "./support/jobs";

// DESIGN 11: Idempotency-Key on POST /jobs.

const post = (who: TestEmployer, key: string | undefined, json: unknown) =>
  request("/jobs", { method: "POST", apiKey: who.apiKey, json, headers: key === undefined ? {} : { "Idempotency-Key": key } });

const jobCount = async (employerId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE employer_id = ?").bind(employerId).first<{ n: number }>())!.n;

/**
 * The D1 binding of a server that dies while it writes a job: the first batch that inserts or
 * updates a job never answers (its statements stored first when `stored`), and every call after
 * it fails, as nothing of a dead isolate runs on. `reached` resolves when that batch is sent;
 * with `gate`, the batch waits for it instead of dying (a request still being processed).
 */
function dyingD1(options: { stored?: boolean; gate?: Promise<void> } = {}) {
  let dead = false;
  let reach: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const sqlOf = new WeakMap<object, string>();
  const die = () => {
    throw new Error("The isolate was terminated.");
  };
  const statement = (raw: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapper = new Proxy(raw, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...params: unknown[]) => statement(value.apply(target, params), sql);
        return (...args: unknown[]) => (dead ? die() : value.apply(target, args));
      },
    });
    sqlOf.set(wrapper, sql);
    rawOf.set(wrapper, raw);
    return wrapper;
  };
  const rawOf = new WeakMap<object, D1PreparedStatement>();
  const db = proxiedD1((name, original) => {
    if (name === "prepare") return (sql: string) => statement(original(sql), sql);
    if (name !== "batch") return undefined;
    return async (statements: D1PreparedStatement[]) => {
      if (dead) die();
      const raws = statements.map((s) => rawOf.get(s) ?? s);
      if (!statements.some((s) => /^\s*(INSERT INTO|UPDATE) jobs\b/i.test(sqlOf.get(s) ?? ""))) return original(raws);
      reach();
      if (options.gate) {
        await options.gate;
        return original(raws);
      }
      if (options.stored) await original(raws);
      dead = true;
      die();
    };
  });
  return { db, reached };
}

const jobsOf = async (employerId: number) =>
  (await env.DB.prepare("SELECT id, title FROM jobs WHERE employer_id = ? ORDER BY id").bind(employerId).all<{ id: number; title: string }>()).results;

describe("Idempotency-Key when the server dies mid-request (DESIGN 11)", () => {
  const postOn = (db: D1Database, who: TestEmployer, key: string, json: unknown) =>
    requestWith(db, "/jobs", { method: "POST", apiKey: who.apiKey, json, headers: { "Idempotency-Key": key } });
  const syncOn = (db: D1Database, who: TestEmployer, key: string, json: unknown) =>
    requestWith(db, "/jobs/batch", { method: "POST", apiKey: who.apiKey, json, headers: { "Idempotency-Key": key } });
  const sync = (who: TestEmployer, key: string, json: unknown) =>
    request("/jobs/batch", { method: "POST", apiKey: who.apiKey, json, headers: { "Idempotency-Key": key } });

  it("POST: 'a request that died without an answer is no longer being processed': when nothing was stored, the immediate repeat runs (201)", async () => {
    const employer = await createEmployer();
    expect((await postOn(dyingD1().db, employer, "crash-1", jobBody({ title: "Crashed" }))).status).toBe(500);
    expect(await jobsOf(employer.employerId)).toEqual([]);
    const again = await post(employer, "crash-1", jobBody({ title: "Crashed" }));
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await jobsOf(employer.employerId)).map((job) => job.title)).toEqual(["Crashed"]);
  });

  it("POST: 'a repeat of its key at once replays it when its write was stored'", async () => {
    const employer = await createEmployer();
    expect((await postOn(dyingD1({ stored: true }).db, employer, "crash-2", jobBody({ title: "Stored" }))).status).toBe(500);
    const [stored] = await jobsOf(employer.employerId);
    const again = await post(employer, "crash-2", jobBody({ title: "Stored" }));
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await again.json<any>()).id).toBe(stored.id);
    expect(again.headers.get("Location")).toMatch(new RegExp(`/jobs/${stored.id}$`));
    expect(await jobsOf(employer.employerId)).toHaveLength(1);
  });

  it("batch: when nothing was stored the immediate repeat runs; when its write was stored the repeat replays it", async () => {
    const employer = await createEmployer();
    const body = { upsert: [jobBody({ referenceId: "CRASH-B-1" })] };
    expect((await syncOn(dyingD1().db, employer, "crash-b", body)).status).toBe(500);
    const ran = await sync(employer, "crash-b", body);
    expect(ran.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await ran.json<any>()).results[0].status).toBe(201);

    const second = { upsert: [jobBody({ referenceId: "CRASH-B-2" })] };
    expect((await syncOn(dyingD1({ stored: true }).db, employer, "crash-b2", second)).status).toBe(500);
    const replayed = await sync(employer, "crash-b2", second);
    expect(replayed.headers.get("Idempotent-Replayed")).toBe("true");
    const { results } = await replayed.json<any>();
    expect(results[0]).toMatchObject({ status: 201, referenceId: "CRASH-B-2", job: { referenceId: "CRASH-B-2" } });
    expect(await jobsOf(employer.employerId)).toHaveLength(2);
  });
});

describe("Idempotency-Key on POST /jobs", () => {
  it("a repeat with the same key and body answers the first response again — status, body, Location, ETag — with Idempotent-Replayed: true, and creates nothing", async () => {
    const employer = await createEmployer();
    const first = await post(employer, "retry-1", jobBody({ title: "Once" }));
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const firstBody = await first.text();
    // The job changes meanwhile: the replay is still the first answer, not the job as it is now.
    await request(`/jobs/${JSON.parse(firstBody).id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Changed since" } });

    const again = await post(employer, "retry-1", jobBody({ title: "Once" }));
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(again.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(await jobCount(employer.employerId)).toBe(1);
  });

  it("the body is compared as parsed JSON: member order and spacing do not matter", async () => {
    const employer = await createEmployer();
    const body = jobBody({ title: "Ordered" });
    expect((await post(employer, "order-1", body)).status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      headers: { "Idempotency-Key": "order-1", "Content-Type": "application/json" },
      body: JSON.stringify(reordered, null, 2),
    });
    expect(res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await jobCount(employer.employerId)).toBe(1);
  });

  it("the same key with a different body: 422 /problems/idempotency-key-reused", async () => {
    const employer = await createEmployer();
    await post(employer, "reuse-1", jobBody({ title: "A" }));
    const res = await post(employer, "reuse-1", jobBody({ title: "B" }));
    expect(res.status).toBe(422);
    expect((await problemOf(res)).type).toBe("/problems/idempotency-key-reused");
    expect(await jobCount(employer.employerId)).toBe(1);
  });

  it("a repeat while the first is still being processed: 409 /problems/idempotency-key-in-flight; once answered, a replay", async () => {
    const employer = await createEmployer();
    const body = jobBody({ title: "Slow" });
    let open: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held = dyingD1({ gate });
    const first = requestWith(held.db, "/jobs", { method: "POST", apiKey: employer.apiKey, json: body, headers: { "Idempotency-Key": "flight-1" } });
    await held.reached; // the first request is writing its job
    const res = await post(employer, "flight-1", body);
    expect(res.status).toBe(409);
    expect((await problemOf(res)).type).toBe("/problems/idempotency-key-in-flight");
    expect((await post(employer, "flight-1", jobBody({ title: "Other" }))).status).toBe(422);
    open!();
    expect((await first).status).toBe(201);
    const after = await post(employer, "flight-1", body);
    expect(after.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await jobsOf(employer.employerId)).toHaveLength(1);
  });

  it("a repeat processed elsewhere (another isolate) whose first request stored its answer meanwhile: the repeat's write aborts on the key, nothing of it is stored, and it replays the first answer", async () => {
    const employer = await createEmployer();
    const { requestHash } = await import("../src/idempotency/rules");
    const body = { upsert: [jobBody({ referenceId: "ELSEWHERE-1" })] };
    const firstAnswer = { results: [{ op: "upsert", index: 0, referenceId: "ELSEWHERE-1", status: 409, type: "/problems/edit-conflict", detail: "First." }], jobs: [] };
    // What the first request's write batch stored, between the repeat's read and its write.
    const meanwhile = async () =>
      env.DB.prepare(
        "INSERT INTO idempotency_keys (employer_id, key, request_hash, holder, state, response_status, response_body, created_at) VALUES (?, 'elsewhere', ?, '', 'done', 200, ?, ?)",
      )
        .bind(employer.employerId, await requestHash("POST /jobs/batch", body), JSON.stringify(firstAnswer), Math.floor(Date.now() / 1000))
        .run();
    const res = await requestWith(interleavedD1(meanwhile), "/jobs/batch", {
      method: "POST",
      apiKey: employer.apiKey,
      json: body,
      headers: { "Idempotency-Key": "elsewhere" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await res.json()).toEqual({ results: firstAnswer.results });
    expect(await jobsOf(employer.employerId)).toEqual([]);
  });

  it("round trips (DESIGN 9): a POST with a key costs the key's read and the one write batch; a replay only the read", async () => {
    const employer = await createEmployer();
    const counter = countingD1(env.DB);
    const send = () => requestWith(counter.db, "/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody(), headers: { "Idempotency-Key": "trips-1" } });
    counter.reset();
    expect((await send()).status).toBe(201);
    expect(counter.count()).toBe(2);
    // What runs after the answer (handing the events over) is not the request's budget.
    await afterAnswers();
    counter.reset();
    expect((await send()).headers.get("Idempotent-Replayed")).toBe("true");
    expect(counter.count()).toBe(1);
  });

  it("a record older than 24 hours that the cron has not removed yet: the key is new again", async () => {
    const employer = await createEmployer();
    const { requestHash } = await import("../src/idempotency/rules");
    const body = jobBody({ title: "Yesterday" });
    await env.DB.prepare(
      "INSERT INTO idempotency_keys (employer_id, key, request_hash, holder, state, response_status, response_body, created_at) VALUES (?, 'old-1', ?, '', 'done', 201, '{}', ?)",
    )
      .bind(employer.employerId, await requestHash("POST /jobs", body), Math.floor(Date.now() / 1000) - 86_400 - 5)
      .run();
    const res = await post(employer, "old-1", body);
    expect(res.status).toBe(201);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await post(employer, "old-1", body).then((r) => r.headers.get("Idempotent-Replayed"))).toBe("true");
  });

  it("20 simultaneous POSTs with one key: one job; every other answer is a replay of it or a 409", async () => {
    const employer = await createEmployer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(employer, "burst-1", jobBody({ title: "Burst" }))));
    const created = answers.filter((res) => res.status === 201 && !res.headers.get("Idempotent-Replayed"));
    const replays = answers.filter((res) => res.headers.get("Idempotent-Replayed") === "true");
    const inFlight = answers.filter((res) => res.status === 409);
    expect(created).toHaveLength(1);
    expect(replays.length + inFlight.length).toBe(19);
    const id = (await created[0].json<any>()).id;
    for (const replay of replays) expect((await replay.json<any>()).id).toBe(id);
    expect(await jobCount(employer.employerId)).toBe(1);
  });

  it("keys are scoped to the employer: another employer's same key is a new request", async () => {
    const [a, b] = [await createEmployer(), await createEmployer()];
    expect((await post(a, "shared-key", jobBody())).status).toBe(201);
    const other = await post(b, "shared-key", jobBody());
    expect(other.status).toBe(201);
    expect(other.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await other.json<any>()).employer.id).toBe(b.employerId);
  });

  it("a key sent as the draft's quoted string is the same key as sent bare", async () => {
    const employer = await createEmployer();
    await post(employer, "quoted-1", jobBody());
    const res = await post(employer, '"quoted-1"', jobBody());
    expect(res.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("a key that is not 1 to 255 printable ASCII characters: 400, nothing created", async () => {
    const employer = await createEmployer();
    for (const key of ["", "x".repeat(256), "caf\u00e9", "two words\u0001", '"unclosed']) {
      const res = await post(employer, key, jobBody());
      expect(res.status, JSON.stringify(key)).toBe(400);
    }
    expect(await jobCount(employer.employerId)).toBe(0);
  });

  it("the document's Idempotency-Key pattern admits exactly the keys the API takes: 255 characters, bare or quoted, yes; 256, a lone quote, a space or é, no (issue 34)", async () => {
    const employer = await createEmployer();
    const admits = (key: string) => Promise.all(["/api/v1.1/jobs", "/api/v1.1/jobs/batch", "/api/v1.1/jobs/reconcile"].map((path) => parameterAdmits("post", path, "Idempotency-Key", key)));
    for (const key of ["x".repeat(256), `"${"x".repeat(256)}"`, '"unclosed', '"', '""', "two words", "caf\u00e9", ""]) {
      expect(await admits(key), JSON.stringify(key)).toEqual([false, false, false]);
      const res = await post(employer, key, jobBody());
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect((await problemOf(res)).errors, JSON.stringify(key)).toEqual([
        { field: "idempotency-key", message: "The Idempotency-Key header must be 1 to 255 printable ASCII characters (optionally in double quotes)." },
      ]);
    }
    for (const key of ["x".repeat(255), `"${"y".repeat(254)} "`, 'a"b', "!"]) {
      expect(await admits(key), JSON.stringify(key)).toEqual([true, true, true]);
      expect((await post(employer, key, jobBody())).status, JSON.stringify(key)).toBe(201);
    }
    expect(await jobCount(employer.employerId)).toBe(4);
  });

  it("4xx answers are not remembered: the client fixes the body and retries with the same key", async () => {
    const employer = await createEmployer();
    const bad = await post(employer, "fix-1", jobBody({ categories: [] }));
    expect(bad.status).toBe(400);
    const fixed = await post(employer, "fix-1", jobBody());
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("keys are remembered 24 hours: the cron removes older ones, set-based, and the key is new again", async () => {
    const employer = await createEmployer();
    expect((await post(employer, "day-old", jobBody())).status).toBe(201);
    const now = Math.floor(Date.now() / 1000);
    await worker.scheduled({ cron: "0 * * * *", scheduledTime: (now + 86_400 + 60) * 1000 } as ScheduledController, env);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE employer_id = ?").bind(employer.employerId).first<{ n: number }>())!;
    expect(n).toBe(0);
    const again = await post(employer, "day-old", jobBody());
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await jobCount(employer.employerId)).toBe(2);
  });
});
