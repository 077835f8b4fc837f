import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../src/db/client";
import { consumeViewsBatch } from "../src/stats/consumer";
import { listJobsWithTotals } from "../src/stats/service";
import { dailyNumbers, dateOf, dayOf, rangeOf } from "../src/stats/rules";
import { BASE, createEmployer, createTestKey, problemOf, request } from "./support/api";
import { eventually, settleBoard } from "./support/board";
import { parameterAdmits } from "./support/contract";
import { countingD1 } from "./support/count-d1";
import { postJob } from "./support/jobs";

// DESIGN 21, 21a: GET /api/v1.1/jobs/{id}/stats, views through the views queue.

const employer = await createEmployer();
const today = dayOf(Date.now());
const stats = (jobId: number, query = "", who = employer) => request(`/jobs/${jobId}/stats${query}`, { apiKey: who.apiKey });
const totalsOf = async (jobId: number) => (await (await stats(jobId)).json<any>()).totals;

describe("per-job numbers (DESIGN 21)", () => {
  it("views of the board job and of its pages are counted, cached repeats and 304s included, and arrive through the queue", async () => {
    const job = await postJob(employer, { title: "Counted Clerk", status: "active" });
    await settleBoard();
    const first = await request(`/board/jobs/${job.id}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get("ETag")!;
    expect((await request(`/board/jobs/${job.id}`)).status).toBe(200); // the cache answers this one
    expect((await request(`/board/jobs/${job.id}`, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await request(`${BASE}/jobs/${job.id}-counted-clerk`, { undocumented: true })).status).toBe(200);
    expect((await request(`${BASE}/fr/emplois/${job.id}-counted-clerk`, { undocumented: true })).status).toBe(200);
    // Not views: a redirect to the canonical address, and another job's 404.
    expect((await request(`${BASE}/jobs/${job.id}`, { undocumented: true, redirect: "manual" })).status).toBe(301);
    await eventually(async () => expect(await totalsOf(job.id)).toEqual({ views: 5, applications: 0 }), 15_000);
    const { data } = await (await stats(job.id)).json<any>();
    expect(data.at(-1)).toEqual({ date: dateOf(today), views: 5, applications: 0 });
  });

  it("applications are counted on the day they were received", async () => {
    const job = await postJob(employer, { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@stats.example" });
    for (const name of ["Ada", "Grace"]) {
      const res = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name, email: `${name.toLowerCase()}@example.com` }, headers: { "CF-Connecting-IP": "10.7.7.7" } });
      expect(res.status).toBe(201);
    }
    expect(await totalsOf(job.id)).toEqual({ views: 0, applications: 2 });
  });

  it("the views queue's consumer adds a whole batch in one write, summed per job and day; views of a deleted job are dropped", async () => {
    const job = await postJob(employer, { status: "active" });
    const gone = await postJob(employer, { status: "active" });
    // Viewed on the board, then deleted before the views reached the consumer (the board's record of a job names its shard).
    await settleBoard();
    await request(`/jobs/${gone.id}`, { method: "DELETE", apiKey: employer.apiKey });
    await settleBoard();
    const acked: boolean[] = [];
    const message = (body: unknown) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body, ack() {}, retry() {} });
    const batch = {
      queue: "job-posting-views",
      messages: [
        message([{ jobId: job.id, day: today, views: 2 }, { jobId: gone.id, day: today, views: 9 }]),
        message([{ jobId: job.id, day: today, views: 3 }, { jobId: job.id, day: today - 1, views: 1 }, { jobId: "x", day: today, views: 1 }]),
      ],
      ackAll: () => void acked.push(true),
      retryAll: () => {},
    } as unknown as MessageBatch<never>;
    await consumeViewsBatch(batch, env);
    expect(acked).toEqual([true]);
    const { data } = await (await stats(job.id, `?from=${dateOf(today - 1)}&to=${dateOf(today)}`)).json<any>();
    expect(data).toEqual([
      { date: dateOf(today - 1), views: 1, applications: 0 },
      { date: dateOf(today), views: 5, applications: 0 },
    ]);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM job_views WHERE job_id = ?").bind(gone.id).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("ranges: every day listed, zeros included; default the last 30 days up to today; from/to included", async () => {
    const job = await postJob(employer, { status: "draft" });
    const byDefault = await (await stats(job.id)).json<any>();
    expect(byDefault.data).toHaveLength(30);
    expect(byDefault.data[0].date).toBe(dateOf(today - 29));
    expect(byDefault.data.at(-1).date).toBe(dateOf(today));
    const year = await (await stats(job.id, "?from=2025-01-01&to=2025-12-31")).json<any>();
    expect(year.data).toHaveLength(365);
    expect(year.totals).toEqual({ views: 0, applications: 0 });
    expect((await (await stats(job.id, "?from=2024-01-01&to=2024-12-31")).json<any>()).data).toHaveLength(366);
  });

  it("a bad range is a 400 naming the parameter: over 366 days, from after to, not a date", async () => {
    const job = await postJob(employer, { status: "draft" });
    for (const [query, field] of [
      ["?from=2024-01-01&to=2025-01-01", "from"],
      ["?from=2026-03-02&to=2026-03-01", "from"],
      ["?from=2026-02-30", "from"],
      ["?to=yesterday", "to"],
      ["?from=1&to=2026-13-01", "from"],
    ] as const) {
      const res = await stats(job.id, query);
      expect(res.status, query).toBe(400);
      expect((await problemOf(res)).errors!.map((e) => e.field)).toContain(field);
    }
  });

  it("from and to must be YYYY-MM-DD days that exist: the document's pattern and format refuse what the API refuses, so a client refuses it first (issue 34)", async () => {
    const job = await postJob(employer, { status: "draft" });
    for (const value of ["2026-1-01", "20261101", "2026-11-01T00:00:00Z", "yesterday", "2026-02-30", "2026-13-01"]) {
      for (const name of ["from", "to"] as const) {
        expect(await parameterAdmits("get", "/api/v1.1/jobs/{id}/stats", name, value), `${name}=${value}`).toBe(false);
        const res = await stats(job.id, `?${name}=${encodeURIComponent(value)}`);
        expect(res.status, `${name}=${value}`).toBe(400);
        expect((await problemOf(res)).errors, `${name}=${value}`).toEqual([{ field: name, message: `${name} must be a date written YYYY-MM-DD (UTC).` }]);
      }
    }
    // Both wrong: one 400 naming each.
    expect((await problemOf(await stats(job.id, "?from=1&to=2026-13-01"))).errors!.map((e) => e.field)).toEqual(["from", "to"]);
    expect(await parameterAdmits("get", "/api/v1.1/jobs/{id}/stats", "from", "2026-11-01")).toBe(true);
    expect((await stats(job.id, "?from=2026-11-01&to=2026-11-30")).status).toBe(200);
  });

  it("only the owner sees them: another employer's job, or one of the other space, is a 404", async () => {
    const job = await postJob(employer, { status: "draft" });
    expect((await stats(job.id, "", await createEmployer())).status).toBe(404);
    expect((await stats(job.id, "", await createTestKey(employer))).status).toBe(404);
  });

  it("a test job's numbers stay 0, its test applications too", async () => {
    const test = await createTestKey(employer);
    const job = await postJob(test, { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@stats.example" });
    const applied = await request(`/jobs/${job.id}/applications/test`, { method: "POST", apiKey: test.apiKey, json: { name: "Ada", email: "ada@example.com" } });
    expect(applied.status).toBe(201);
    expect((await stats(job.id)).status).toBe(404); // not the live space's job
    expect((await (await stats(job.id, "", test)).json<any>()).totals).toEqual({ views: 0, applications: 0 });
  });
});

describe("totals of many jobs (a list's columns)", () => {
  it("listJobsWithTotals: the page of GET /jobs with each job's views and applications since it was posted, in one round trip; another employer's job is left out, a test job's stay 0", async () => {
    const owner = await createEmployer();
    const job = await postJob(owner, { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@stats.example" });
    const quiet = await postJob(owner, { status: "draft" });
    const applied = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name: "Ada", email: "ada@example.com" }, headers: { "CF-Connecting-IP": "10.7.7.8" } });
    expect(applied.status).toBe(201);
    await env.DB.prepare("INSERT INTO job_views (job_id, day, views) VALUES (?, ?, 4), (?, ?, 2)").bind(job.id, today - 400, job.id, today).run();
    await postJob(await createEmployer(), { status: "draft" });
    const test = await createTestKey(owner);
    const testJob = await postJob(test, { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@stats.example" });
    expect((await request(`/jobs/${testJob.id}/applications/test`, { method: "POST", apiKey: test.apiKey, json: { name: "Ada", email: "ada@example.com" } })).status).toBe(201);

    const counter = countingD1(env.DB);
    const db = createDatabase(counter.db);
    const listed = await listJobsWithTotals(db, owner.employerId, { page: 1, pageSize: 10 });
    expect(counter.count()).toBe(1);
    expect(listed.rows.map((row) => row.id)).toEqual([quiet.id, job.id]);
    expect(listed.total).toBe(2);
    expect(listed.totals).toEqual(
      new Map([
        [job.id, { views: 6, applications: 1 }],
        [quiet.id, { views: 0, applications: 0 }],
      ]),
    );
    const second = await listJobsWithTotals(db, owner.employerId, { page: 2, pageSize: 1 });
    expect([...second.totals.keys()]).toEqual([job.id]);
    expect((await listJobsWithTotals(db, test.employerId, { page: 1, pageSize: 10 })).totals).toEqual(new Map([[testJob.id, { views: 0, applications: 0 }]]));
    expect((await listJobsWithTotals(db, owner.employerId, { q: "no such title", page: 1, pageSize: 10 })).totals).toEqual(new Map());
  });
});

describe("the range rules (pure)", () => {
  it("rangeOf: only `from` given runs to today; only `to` given starts 29 days before", () => {
    const day = 20_000;
    expect(rangeOf({ from: dateOf(day - 3) }, day)).toEqual({ from: day - 3, to: day });
    expect(rangeOf({ to: dateOf(day - 10) }, day)).toEqual({ from: day - 39, to: day - 10 });
    expect(dailyNumbers({ from: day, to: day + 1 }, new Map([[day + 1, 4]]), new Map([[day, 1]]))).toEqual({
      data: [
        { date: dateOf(day), views: 0, applications: 1 },
        { date: dateOf(day + 1), views: 4, applications: 0 },
      ],
      totals: { views: 4, applications: 1 },
    });
  });
});
