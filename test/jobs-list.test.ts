import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request } from "./support/api";
import { postJob } from "./support/jobs";

const employer = await createEmployer({ name: "Lister Ltd." });
const list = async (query = "") => {
  const res = await request(`/jobs${query}`, { apiKey: employer.apiKey });
  expect(res.status).toBe(200);
  return res.json<any>();
};

// 12 jobs, publishDate one hour apart (job i published i hours ago), statuses cycling.
const STATUSES = ["active", "archived", "draft"];
const jobs: any[] = [];
for (let i = 0; i < 12; i++) {
  const job = await postJob(employer, {
    title: i === 4 ? "Chef de Cuisine" : `Job ${i} 100%_done`,
    referenceId: `REF-${i}`,
    status: STATUSES[i % 3],
    confidential: i === 0,
  });
  await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - ? WHERE id = ?").bind(i * 3600, job.id).run();
  jobs.push(job);
}

describe("GET /api/v1.1/jobs (spec 4.5, 2.7, 2.8)", () => {
  it("headers only, newest publishDate first, default pageSize 10", async () => {
    const body = await list();
    expect(body.data).toHaveLength(10);
    expect(body.data.map((h: any) => h.id)).toEqual(jobs.slice(0, 10).map((j) => j.id));
    expect(Object.keys(body.data[0])).toEqual(["id", "referenceId", "employer", "title", "publishDate", "locations", "confidential", "status", "postingRules"]);
    expect(body.data[0]).toMatchObject({ employer: { id: employer.employerId, name: "Lister Ltd." }, confidential: true, locations: [{ description: "Vancouver, BC" }] });
    expect(body.paging).toEqual({
      total: 12,
      page: 1,
      pages: 2,
      pageSize: 10,
      previous: null,
      next: "https://api.test/api/v1.1/jobs?page=2",
    });
  });

  it("ties on publishDate are broken by id, descending", async () => {
    const other = await createEmployer();
    const a = await postJob(other);
    const b = await postJob(other);
    await env.DB.prepare("UPDATE jobs SET publish_date = 1800000000 WHERE id IN (?, ?)").bind(a.id, b.id).run();
    const res = await (await request("/jobs", { apiKey: other.apiKey })).json<any>();
    expect(res.data.map((h: any) => h.id)).toEqual([b.id, a.id]);
  });

  it("paging links keep the other query parameters", async () => {
    const body = await list("?status=active&pageSize=2&page=2");
    expect(body.paging).toMatchObject({ total: 4, page: 2, pages: 2, pageSize: 2, next: null });
    const previous = new URL(body.paging.previous);
    expect(previous.origin + previous.pathname).toBe("https://api.test/api/v1.1/jobs");
    expect(Object.fromEntries(previous.searchParams)).toEqual({ status: "active", pageSize: "2", page: "1" });
    const first = await (await request(body.paging.previous, { apiKey: employer.apiKey })).json<any>();
    expect(first.data.map((h: any) => h.id)).toEqual(jobs.filter((_, i) => i % 3 === 0).slice(0, 2).map((j) => j.id));
  });

  it("status filters", async () => {
    const body = await list("?status=draft&pageSize=100");
    expect(body.data.map((h: any) => h.status)).toEqual(Array(4).fill("draft"));
  });

  it("q matches title or referenceId, case-insensitive substring", async () => {
    expect((await list("?q=cuisine")).data.map((h: any) => h.id)).toEqual([jobs[4].id]);
    expect((await list("?q=ref-1")).data.map((h: any) => h.referenceId).sort()).toEqual(["REF-1", "REF-10", "REF-11"]);
    expect((await list("?q=ref-1&status=archived")).data.map((h: any) => h.referenceId)).toEqual(["REF-1", "REF-10"]);
    expect((await list("?q=CHEF")).paging.total).toBe(1);
  });

  it("q treats % and _ literally", async () => {
    expect((await list("?q=%25_&pageSize=100")).paging.total).toBe(11);
    expect((await list("?q=_")).paging.total).toBe(11);
    expect((await list("?q=b%25d")).paging.total).toBe(0);
  });

  it("a page past the end is empty with a link back", async () => {
    const body = await list("?page=5");
    expect(body.data).toEqual([]);
    expect(body.paging.previous).toContain("page=2");
  });

  it("bad query parameters are 400 naming the parameter", async () => {
    for (const [query, field] of [
      ["?pageSize=101", "pageSize"],
      ["?pageSize=0", "pageSize"],
      ["?page=0", "page"],
      ["?page=abc", "page"],
      ["?status=open", "status"],
    ]) {
      const res = await request(`/jobs${query}`, { apiKey: employer.apiKey });
      expect(res.status, query).toBe(400);
      expect((await problemOf(res)).errors!.map((e) => e.field)).toEqual([field]);
    }
  });
});

describe("list totals and search at scale (counters and trigram index)", () => {
  it("the total stays exact through creates, status moves (also set-based, as the cron does) and deletes", async () => {
    const owner = await createEmployer();
    const totals = async (query = "") => (await (await request(`/jobs${query}`, { apiKey: owner.apiKey })).json<any>()).paging.total;
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await postJob(owner, { status: "active" }));
    expect(await totals()).toBe(5);
    await request(`/jobs/${made[0].id}`, { method: "PUT", apiKey: owner.apiKey, json: { status: "archived" } });
    await env.DB.prepare("UPDATE jobs SET status = 'archived' WHERE employer_id = ? AND id IN (?, ?)").bind(owner.employerId, made[1].id, made[2].id).run();
    expect(await totals("?status=active")).toBe(2);
    expect(await totals("?status=archived")).toBe(3);
    await request(`/jobs/${made[3].id}`, { method: "DELETE", apiKey: owner.apiKey });
    expect(await totals()).toBe(4);
    expect(await totals("?status=active")).toBe(1);
    expect(await totals("?status=draft")).toBe(0);
  });

  it("q finds renamed jobs and forgets deleted ones", async () => {
    const owner = await createEmployer();
    const job = await postJob(owner, { title: "Plumber" });
    const find = async (q: string) => (await (await request(`/jobs?q=${encodeURIComponent(q)}`, { apiKey: owner.apiKey })).json<any>()).data.map((h: any) => h.id);
    expect(await find("plumb")).toEqual([job.id]);
    await request(`/jobs/${job.id}`, { method: "PUT", apiKey: owner.apiKey, json: { title: "Electrician", referenceId: "ELEC-7" } });
    expect(await find("plumb")).toEqual([]);
    expect(await find("TRICIAN")).toEqual([job.id]);
    expect(await find("lec-7")).toEqual([job.id]);
    await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: owner.apiKey });
    expect(await find("tricia")).toEqual([]);
  });

  it("q is case-insensitive beyond ASCII and never leaks other employers' matches", async () => {
    const owner = await createEmployer();
    const mine = await postJob(owner, { title: "ÉDUCATRICE à l'enfance" });
    await postJob(employer, { title: "Éducatrice (other employer)" });
    const res = await (await request(`/jobs?q=${encodeURIComponent("éducatrice")}`, { apiKey: owner.apiKey })).json<any>();
    expect(res.data.map((h: any) => h.id)).toEqual([mine.id]);
    expect(res.paging.total).toBe(1);
  });

  it("q with search-syntax characters is a plain substring", async () => {
    for (const q of ['a" OR "b', "NEAR(x y)", "*", "title:x", '"']) {
      const res = await request(`/jobs?q=${encodeURIComponent(q)}`, { apiKey: employer.apiKey });
      expect(res.status, q).toBe(200);
      expect((await res.json<any>()).paging.total, q).toBe(0);
    }
  });
});

describe("q costs what the caller's own jobs cost (DESIGN 6a)", () => {
  /** The statements a request ran, with their bound values. */
  async function statementsOf(path: string, apiKey: string) {
    const { capturingD1, requestWith } = await import("./support/d1-proxies");
    const { db, ran } = capturingD1();
    expect((await requestWith(db, path, { apiKey })).status).toBe(200);
    return ran;
  }

  it("the search reads the trigram index within the caller's rowid range only (EXPLAIN QUERY PLAN), never another employer's entries", async () => {
    const other = await createEmployer();
    for (let i = 0; i < 3; i++) await postJob(other, { title: `Accountant ${i}` });
    const ran = await statementsOf("/jobs?q=accountant", employer.apiKey);
    expect(ran.length).toBeGreaterThan(0);
    for (const { sql, params } of ran) {
      const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>()).results.map((r) => r.detail);
      const search = plan.filter((step) => step.includes("job_search"));
      expect(search.length, sql).toBeGreaterThan(0);
      // FTS5's plan: M = MATCH, then the rowid bounds it was given (> and <): a range, not all rowids.
      for (const step of search) expect(step).toMatch(/VIRTUAL TABLE INDEX \d+:M\d*[><]{2}/);
      expect(plan.some((step) => /SCAN j\b|SCAN jobs/.test(step)), plan.join(" | ")).toBe(false);
    }
  });

  it("another employer's matches are not counted or listed: the total is the caller's own", async () => {
    const mine = await createEmployer();
    const theirs = await createEmployer();
    await postJob(mine, { title: "Payroll Accountant" });
    for (let i = 0; i < 5; i++) await postJob(theirs, { title: `Payroll Accountant ${i}` });
    const res = await request("/jobs?q=payroll", { apiKey: mine.apiKey });
    const body = await res.json<any>();
    expect(body.paging.total).toBe(1);
    expect(body.data.map((j: any) => j.employer.id)).toEqual([mine.employerId]);
  });
});
