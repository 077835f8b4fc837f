import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SHARD_ID_SPAN } from "../src/shards/identity";
import { BASE, createEmployer, createTestKey, request, shardDb } from "./support/api";
import { settleBoard } from "./support/board";
import { jobBody, postJob } from "./support/jobs";

// DESIGN 22: the employer side over two shards (DB and DB_1, as npm run dev, the tests and the
// bench bind them). An employer lives in one; its key's record names it; public writes find it
// from the board's record of the job, or from the withdraw link's token.

const home = await createEmployer({ name: "Shard Zero Ltd." });
const away = await createEmployer({ name: "Shard One Ltd.", shard: 1 });
const rowsIn = async (shard: number, sql: string, ...params: unknown[]) => (await shardDb(shard).prepare(sql).bind(...params).all()).results;
const count = async (shard: number, table: string, where: string, ...params: unknown[]) =>
  ((await shardDb(shard).prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).bind(...params).first<{ n: number }>())!.n);
let address = 0;
const fromAddress = () => ({ "CF-Connecting-IP": `10.22.${Math.floor(++address / 200)}.${address % 200}` });

describe("shards: every employer-side row in its employer's shard (DESIGN 22)", () => {
  it("shard 1 numbers its rows from 2^27 + 1, so no id names two things across shards", async () => {
    expect(home.employerId).toBeLessThanOrEqual(SHARD_ID_SPAN);
    expect(away.employerId).toBeGreaterThan(SHARD_ID_SPAN);
    const job = await postJob(away, { title: "Numbered Apart", locations: [{ description: "Tinyville, NS" }] });
    expect(job.id).toBeGreaterThan(SHARD_ID_SPAN);
    // The place it created is the employer's own, numbered in the shard's range too.
    expect(job.locations[0].id).toBeGreaterThan(SHARD_ID_SPAN);
    expect(await count(1, "jobs", "id = ?", job.id)).toBe(1);
    expect(await count(0, "jobs", "id = ?", job.id)).toBe(0);
    expect(await rowsIn(1, "SELECT shard FROM shard_identity")).toEqual([{ shard: 1 }]);
  });

  it("routing: the key's record sends every request to its shard: jobs, their events, webhooks and the test space live there", async () => {
    const job = await postJob(away, { title: "Routed Right", status: "active" });
    expect((await request(`/jobs/${job.id}`, { apiKey: away.apiKey })).status).toBe(200);
    expect(await count(1, "events", "subject_id = ? AND type = 'job.created'", job.id)).toBe(1);
    expect(await count(0, "events", "subject_id = ?", job.id)).toBe(0);
    const hook = await request("/webhooks", { method: "POST", apiKey: away.apiKey, json: { url: "https://receiver.example/shard-one" } });
    expect(hook.status).toBe(201);
    expect(await count(1, "webhook_endpoints", "id = ?", (await hook.json<any>()).id)).toBe(1);
    const testKey = await createTestKey(away);
    const testJob = await postJob(testKey, { title: "Test Space Job" });
    expect(await count(1, "jobs", "id = ? AND test = 1", testJob.id)).toBe(1);
  });

  it("isolation across shards: another shard's job is a 404 to read, change, delete or list, as another employer's is", async () => {
    const mine = await postJob(home, { title: "Zero's Own" });
    const theirs = await postJob(away, { title: "One's Own" });
    for (const [who, other] of [[home, theirs.id], [away, mine.id]] as const) {
      expect((await request(`/jobs/${other}`, { apiKey: who.apiKey })).status).toBe(404);
      expect((await request(`/jobs/${other}`, { method: "PUT", apiKey: who.apiKey, json: { title: "Taken" } })).status).toBe(404);
      expect((await request(`/jobs/${other}`, { method: "DELETE", apiKey: who.apiKey })).status).toBe(404);
      const listed = (await (await request("/jobs?pageSize=100", { apiKey: who.apiKey })).json<any>()).data.map((job: { id: number }) => job.id);
      expect(listed).not.toContain(other);
    }
    expect((await (await request(`/jobs/${theirs.id}`, { apiKey: away.apiKey })).json<any>()).title).toBe("One's Own");
  });

  it("a shard-1 employer's list and search find its own jobs, with the exact total (ids past 2^27 in every index)", async () => {
    const lister = await createEmployer({ shard: 1 });
    const jobs = [await postJob(lister, { title: "Quartermaster Lead" }), await postJob(lister, { title: "Quartermaster Aide", status: "active" })];
    const list = await (await request("/jobs?pageSize=10", { apiKey: lister.apiKey })).json<any>();
    expect(list.paging.total).toBe(2);
    expect(list.data.map((job: { id: number }) => job.id).sort()).toEqual(jobs.map((job) => job.id).sort());
    for (const query of ["q=quartermaster", "q=qu", "status=active&q=aide", "status=draft"]) {
      const found = await (await request(`/jobs?${query}`, { apiKey: lister.apiKey })).json<any>();
      expect(found.paging.total, query).toBe(query === "q=quartermaster" || query === "q=qu" ? 2 : 1);
    }
  });

  it("a key made before shards (no shard in its record) reaches shard 0; a record naming a shard not bound is not a valid key (401, never a 500)", async () => {
    const { hashApiKey } = await import("../src/auth/api-keys");
    const key = `test_${crypto.randomUUID()}`;
    await env.API_KEYS.put(await hashApiKey(key), JSON.stringify({ employerId: home.employerId }));
    const job = await postJob({ ...home, apiKey: key }, { title: "Old Key" });
    expect(await count(0, "jobs", "id = ?", job.id)).toBe(1);
    const stray = `test_${crypto.randomUUID()}`;
    await env.API_KEYS.put(await hashApiKey(stray), JSON.stringify({ employerId: home.employerId, shard: 7 }));
    expect((await request("/jobs", { apiKey: stray })).status).toBe(401);
  });
});

const routed = await postJob(away, {
  title: "Public Writes Clerk",
  status: "active",
  applicantRoutingType: { id: 1 },
  applicationEmail: "hr@shard-one.example",
});
await settleBoard();

describe("public writes to a shard-1 job find its shard from the board's record of it (DESIGN 22)", () => {
  it("the board records each job's shard from its events", async () => {
    const row = await env.BOARD_DB.prepare("SELECT j.shard AS onBoard, r.shard AS heard FROM board_jobs j JOIN board_revisions r USING (job_id) WHERE job_id = ?")
      .bind(routed.id)
      .first();
    expect(row).toEqual({ onBoard: 1, heard: 1 });
  });

  it("an application through the API is stored in the job's shard, its withdraw link names the shard and works", async () => {
    const res = await request(`/board/jobs/${routed.id}/applications`, {
      method: "POST",
      json: { name: "Ada Applicant", email: "ada@example.com" },
      headers: fromAddress(),
    });
    expect(res.status).toBe(201);
    const { id } = await res.json<any>();
    expect(id).toBeGreaterThan(SHARD_ID_SPAN);
    expect(await count(1, "applications", "id = ? AND job_id = ?", id, routed.id)).toBe(1);
    expect(await count(0, "applications", "id = ?", id)).toBe(0);
    // The applicant's confirmation holds the withdraw link: `1-` and 43 random characters.
    const [{ link }] = (await rowsIn(1, "SELECT withdraw_link AS link FROM applicant_emails WHERE application_id = ?", id)) as { link: string }[];
    const path = new URL(link).pathname;
    expect(path).toMatch(/^\/withdraw\/1-[A-Za-z0-9_-]{43}$/);
    expect((await request(`${BASE}${path}`, { undocumented: true })).status).toBe(200);
    expect((await request(`${BASE}${path}`, { method: "POST", undocumented: true })).status).toBe(200);
    expect(await rowsIn(1, "SELECT status FROM applications WHERE id = ?", id)).toEqual([{ status: "withdrawn" }]);
  });

  it("an application and a report through the job's page are stored in the job's shard", async () => {
    const page = `${BASE}/jobs/${routed.id}-public-writes-clerk`;
    const form = new FormData();
    form.set("name", "Page Applicant");
    form.set("email", "page@example.com");
    const applied = await request(page, { method: "POST", body: form, redirect: "manual", undocumented: true, headers: fromAddress() });
    expect(applied.status).toBe(303);
    expect(await count(1, "applications", "job_id = ? AND email = 'page@example.com'", routed.id)).toBe(1);
    const report = new FormData();
    report.set("reason", "fraud");
    report.set("details", "Asks for a fee.");
    const reported = await request(`${page}/report`, { method: "POST", body: report, redirect: "manual", undocumented: true, headers: fromAddress() });
    expect(reported.status).toBe(303);
    expect(await count(1, "job_reports", "job_id = ?", routed.id)).toBe(1);
    expect(await count(0, "job_reports", "job_id = ?", routed.id)).toBe(0);
  });

  it("views of a shard-1 job are counted in its shard", async () => {
    const { consumeViewsBatch } = await import("../src/stats/consumer");
    const day = Math.floor(Date.now() / 86_400_000);
    const batch = {
      queue: "job-posting-views",
      messages: [{ id: "v1", timestamp: new Date(), attempts: 1, body: [{ jobId: routed.id, day, views: 3 }], ack() {}, retry() {} }],
      ackAll() {},
      retryAll() {},
    } as unknown as MessageBatch<never>;
    await consumeViewsBatch(batch, env);
    expect(await rowsIn(1, "SELECT views FROM job_views WHERE job_id = ?", routed.id)).toEqual([{ views: 3 }]);
  });

  it("a withdraw link naming a shard this deployment does not bind is the link-not-valid page, never a 500", async () => {
    const res = await request(`${BASE}/withdraw/9-${"a".repeat(43)}`, { undocumented: true });
    expect(res.status).toBe(404);
  });
});

describe("the cron runs every shard (DESIGN 22)", () => {
  it("a shard-1 job past its closeDate is expired by the run, with its event, and the log line reports each shard", async () => {
    const job = await postJob(away, { ...jobBody(), title: "Closing In Shard One", status: "active" });
    await shardDb(1).prepare("UPDATE jobs SET close_date = ? WHERE id = ?").bind(Math.floor(Date.now() / 1000) - 60, job.id).run();
    const logged: string[] = [];
    const log = console.log;
    console.log = (line: string) => void logged.push(line);
    try {
      const entry = exports.default as unknown as { scheduled(controller: { cron: string; scheduledTime: number }): Promise<void> };
      await entry.scheduled({ cron: "0 * * * *", scheduledTime: Date.now() });
    } finally {
      console.log = log;
    }
    expect(await rowsIn(1, "SELECT status FROM jobs WHERE id = ?", job.id)).toEqual([{ status: "archived" }]);
    expect(await count(1, "events", "subject_id = ? AND type = 'job.expired'", job.id)).toBe(1);
    const line = JSON.parse(logged.find((l) => l.startsWith('{"event":"scheduled"'))!);
    expect(line.shards.map((run: { shard: number }) => run.shard)).toEqual([0, 1]);
    expect(line.shards[1].stages.rules.outcome).toBe("ok");
  });
});
