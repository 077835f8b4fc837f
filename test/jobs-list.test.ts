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
    expect(Object.keys(body.data[0])).toEqual(["id", "referenceId", "employer", "title", "publishDate", "locations", "confidential", "status"]);
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
