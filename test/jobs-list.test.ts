import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runScheduledJobs } from "../src/jobs/scheduled-rules";
import { mergeSearchIndex, MERGES_PER_RUN } from "../src/jobs/search-index";
import { cronBounds } from "../src/scheduled/chunks";
import { createEmployer, problemOf, request, shardDb, type TestEmployer } from "./support/api";
import { postJob } from "./support/jobs";
import { seedJobs } from "./support/seed-jobs";

const employer = await createEmployer({ name: "Lister Ltd." });
/** An employer's token in job_search's column e (and, with a status, column s), as drizzle/0025 writes them. */
const tokenOf = (id: number, base = 0xe000) => String.fromCharCode(base + Math.floor(id / 4_194_304), base + (Math.floor(id / 2_048) % 2_048), base + (id % 2_048));
const STATUS_CODES: Record<string, number> = { active: 0, draft: 1, archived: 2 };

/** The job ids the index holds under a token, in descending rowid order: the list's order. */
async function indexed(shard: number, match: string) {
  const { results } = await shardDb(shard).prepare("SELECT rowid % 2147483648 AS id FROM job_search WHERE job_search MATCH ? ORDER BY rowid DESC").bind(match).all<{ id: number }>();
  return results.map((row) => row.id);
}

/** The index agrees with the jobs table: every job of the employer once, in the list's order, under its status's token too; FTS5's own check passes. */
async function expectIndexOf(owner: TestEmployer) {
  const db = shardDb(owner.shard);
  const ordered = async (status?: string) =>
    (await db.prepare(`SELECT id FROM jobs WHERE employer_id = ? ${status ? "AND status = ?" : ""} ORDER BY publish_date DESC, id DESC`).bind(...(status ? [owner.employerId, status] : [owner.employerId])).all<{ id: number }>()).results.map((row) => row.id);
  expect(await indexed(owner.shard, `{e}: "${tokenOf(owner.employerId)}"`)).toEqual(await ordered());
  for (const status of Object.keys(STATUS_CODES)) {
    expect(await indexed(owner.shard, `{s}: "${tokenOf(owner.employerId * 4 + STATUS_CODES[status], 0xe800)}"`), status).toEqual(await ordered(status));
  }
  await db.prepare("INSERT INTO job_search (job_search, rank) VALUES ('integrity-check', 0)").run();
}
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

  it("the search walks the trigram index among the caller's own entries (its token, matched with the term) in the list's order: no sort of matches, no jobs row read beyond the page (EXPLAIN QUERY PLAN)", async () => {
    const other = await createEmployer();
    for (let i = 0; i < 3; i++) await postJob(other, { title: `Accountant ${i}` });
    const ran = await statementsOf("/jobs?q=accountant", employer.apiKey);
    const searches = ran.filter(({ sql }) => sql.includes("job_search MATCH"));
    expect(searches.length).toBe(2);
    for (const { sql, params } of searches) {
      expect(params).toContain(`{title reference_id}: "accountant" AND {e}: "${tokenOf(employer.employerId)}"`);
      const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ id: number; parent: number; detail: string }>()).results;
      const details = plan.map((step) => step.detail).join(" | ");
      const search = plan.filter((step) => /job_search VIRTUAL TABLE INDEX \d+:M/.test(step.detail));
      expect(search.length, details).toBe(1);
      expect(plan.some((step) => /SCAN j\b|SCAN jobs/.test(step.detail)), details).toBe(false);
      // The page's ids come in rowid order straight from FTS5 (ORDER BY rowid DESC LIMIT): nothing sorts
      // the matches beside the search; only the page's own rows are sorted once read.
      expect(plan.some((step) => step.parent === search[0].parent && step.detail.includes("TEMP B-TREE")), details).toBe(false);
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

describe("q walks the list-ordered search index (drizzle/0025): the list's order, the caller's own entries, exact totals", () => {
  /** Every page of a list, pageSize 4, and each page's total. */
  async function allPages(owner: TestEmployer, query: string) {
    const ids: number[] = [];
    const totals = new Set<number>();
    for (let page = 1; page < 20; page++) {
      const body = await (await request(`/jobs?pageSize=4&page=${page}${query}`, { apiKey: owner.apiKey })).json<any>();
      totals.add(body.paging.total);
      if (body.data.length === 0) break;
      ids.push(...body.data.map((j: any) => j.id));
    }
    return { ids, totals: [...totals] };
  }

  /** What q must list: the list without q, kept to the jobs whose title or referenceId holds the term. */
  async function expected(owner: TestEmployer, term: string, status?: string) {
    const body = await (await request(`/jobs?pageSize=100${status ? `&status=${status}` : ""}`, { apiKey: owner.apiKey })).json<any>();
    const holds = (text: string | null) => (text ?? "").toLowerCase().includes(term.toLowerCase());
    return body.data.filter((j: any) => holds(j.title) || holds(j.referenceId)).map((j: any) => j.id);
  }

  it("q finds title and referenceId matches in the list's order across pages (publishDate descending, then id), status keeps to its status, and every page's total is exact", async () => {
    const owner = await createEmployer();
    const statuses = ["active", "draft", "archived"];
    for (let i = 0; i < 23; i++) {
      const title = i % 3 === 0 ? `Night Auditor ${i}` : `Line Cook ${i}`;
      const referenceId = i % 4 === 0 ? `AUD-${i}` : `REF-${owner.employerId}-${i}`;
      const job = await postJob(owner, { title, referenceId, status: statuses[i % 3] });
      // Out of creation order, with ties (broken by id): the index must order as the list does.
      await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - ? WHERE id = ?").bind(((i * 7) % 5) * 3600, job.id).run();
    }
    for (const status of [undefined, ...statuses]) {
      const want = await expected(owner, "aud", status);
      expect(want.length).toBeGreaterThanOrEqual(status ? 2 : 10);
      const got = await allPages(owner, `&q=aud${status ? `&status=${status}` : ""}`);
      expect(got.ids, String(status)).toEqual(want);
      expect(got.totals, String(status)).toEqual([want.length]);
    }
  });

  it("q never lists or counts another employer's job, even with the same term, on the same shard, in either shard (ids of shard 1 start at 2^27)", async () => {
    for (const shard of [0, 1]) {
      const mine = await createEmployer({ shard });
      const theirs = await createEmployer({ shard });
      const own = [await postJob(mine, { title: "Harbour Pilot", status: "active" }), await postJob(mine, { title: "Harbour Pilot", referenceId: `HP-${shard}`, status: "draft" })];
      for (let i = 0; i < 6; i++) await postJob(theirs, { title: `Harbour Pilot ${i}`, referenceId: `HP-${shard}-${i}`, status: "active" });
      const listed = await (await request("/jobs?q=harbour%20pilot", { apiKey: mine.apiKey })).json<any>();
      expect(listed.data.map((j: any) => j.id)).toEqual(own.map((j) => j.id).reverse());
      expect(listed.paging.total).toBe(2);
      const active = await (await request("/jobs?q=harbour&status=active", { apiKey: mine.apiKey })).json<any>();
      expect(active.data.map((j: any) => j.id)).toEqual([own[0].id]);
      expect(active.paging.total).toBe(1);
      expect((await (await request(`/jobs?q=hp-${shard}`, { apiKey: mine.apiKey })).json<any>()).paging.total).toBe(1);
      expect((await (await request(`/jobs?q=hp-${shard}`, { apiKey: theirs.apiKey })).json<any>()).paging.total).toBe(6);
    }
  });

  it("a title holding another employer's token characters does not reach that employer's search", async () => {
    const mine = await createEmployer();
    const theirs = await createEmployer();
    await postJob(mine, { title: "Night Accountant" });
    await postJob(theirs, { title: `Night Accountant ${tokenOf(mine.employerId)}` });
    const body = await (await request(`/jobs?q=${encodeURIComponent(`accountant ${tokenOf(mine.employerId)}`)}`, { apiKey: mine.apiKey })).json<any>();
    expect(body.paging.total).toBe(0);
    const own = await (await request("/jobs?q=night%20accountant", { apiKey: mine.apiKey })).json<any>();
    expect(own.data.map((j: any) => j.employer.id)).toEqual([mine.employerId]);
  });

  it("q follows the list's order and status as jobs change: a re-published job comes first, an archived one is found by status=archived only, a renamed one by its new title, a deleted one nowhere", async () => {
    const mover = await createEmployer();
    const [first, second, third] = [
      await postJob(mover, { title: "Mover Clerk 1", status: "active" }),
      await postJob(mover, { title: "Mover Clerk 2", status: "active" }),
      await postJob(mover, { title: "Mover Clerk 3", status: "active" }),
    ];
    // Published minutes ago, so that a re-publish now is the newest.
    await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - 600 WHERE employer_id = ?").bind(mover.employerId).run();
    const ids = async (query: string) => (await (await request(`/jobs${query}`, { apiKey: mover.apiKey })).json<any>()).data.map((j: any) => j.id);
    await request(`/jobs/${first.id}`, { method: "PUT", apiKey: mover.apiKey, json: { status: "archived" } });
    expect(await ids("?q=mover%20clerk&status=archived")).toEqual([first.id]);
    expect(await ids("?q=mover%20clerk&status=active")).toEqual([third.id, second.id]);
    await request(`/jobs/${first.id}`, { method: "PUT", apiKey: mover.apiKey, json: { status: "active" } });
    expect(await ids("?q=mover%20clerk")).toEqual(await ids(""));
    expect(await ids("?q=mover%20clerk")).toEqual([first.id, third.id, second.id]);
    expect(await ids("?q=mover%20clerk&status=archived")).toEqual([]);
    await request(`/jobs/${second.id}`, { method: "PUT", apiKey: mover.apiKey, json: { title: "Porter" } });
    expect(await ids("?q=mover%20clerk")).toEqual([first.id, third.id]);
    expect(await ids("?q=porter")).toEqual([second.id]);
    await request(`/jobs/${third.id}`, { method: "DELETE", apiKey: mover.apiKey });
    expect(await ids("?q=mover%20clerk")).toEqual([first.id]);
  });

  it("the index holds one entry per job, at its place in the list's order, under its employer's and its status's tokens, through creates, updates, set-based changes (as the cron's) and deletes", async () => {
    const owner = await createEmployer();
    const made = [];
    for (let i = 0; i < 8; i++) made.push(await postJob(owner, { title: `Inventory Clerk ${i}`, status: i % 2 ? "draft" : "active" }));
    await request(`/jobs/${made[0].id}`, { method: "PUT", apiKey: owner.apiKey, json: { status: "archived" } });
    await request(`/jobs/${made[1].id}`, { method: "PUT", apiKey: owner.apiKey, json: { referenceId: "INV-1" } });
    await request(`/jobs/${made[2].id}`, { method: "DELETE", apiKey: owner.apiKey });
    await env.DB.prepare("UPDATE jobs SET publish_date = publish_date + 60 WHERE id IN (?, ?)").bind(made[3].id, made[5].id).run();
    await env.DB.prepare("UPDATE jobs SET status = 'archived' WHERE id = ?").bind(made[4].id).run();
    await expectIndexOf(owner);
  });
});

describe("the cron's chunks and the search index (drizzle/0025, src/jobs/search-index.ts)", () => {
  it("a chunk of the cron defers the index to the end of its batch: afterwards refreshed and expired jobs are where the list has them, under their new status, nothing is left deferred, and a change after the chunk moves its entry at once again", async () => {
    const owner = await createEmployer({ plan: "unlimited" });
    const now = Math.floor(Date.now() / 1000);
    // Refreshed: autoRefresh, published 8 days ago; expired: closed a day ago.
    const refreshed = await seedJobs(env.DB, owner.employerId, 5, { title: "Cron Baker", autoRefresh: true, publishDate: now - 8 * 86_400, closeDate: now + 30 * 86_400 });
    const expired = await seedJobs(env.DB, owner.employerId, 4, { title: "Cron Baker", publishDate: now - 9 * 86_400, closeDate: now - 86_400 });
    const kept = await seedJobs(env.DB, owner.employerId, 2, { title: "Cron Baker", publishDate: now - 3 * 86_400 });
    // Rounds of 3 jobs: several chunks, each deferring and applying its own moves.
    await runScheduledJobs(env, new Date(now * 1000), [], cronBounds({ rows: 3, budgetMs: 60_000 }));
    const ids = async (query: string) => (await (await request(`/jobs?pageSize=100${query}`, { apiKey: owner.apiKey })).json<any>()).data.map((j: any) => j.id);
    const newestFirst = (list: number[]) => [...list].reverse();
    expect(await ids("&q=cron%20baker")).toEqual([...newestFirst(refreshed), ...newestFirst(kept), ...newestFirst(expired)]);
    expect(await ids("&q=cron%20baker&status=active")).toEqual([...newestFirst(refreshed), ...newestFirst(kept)]);
    expect(await ids("&q=cron%20baker&status=archived")).toEqual(newestFirst(expired));
    await expectIndexOf(owner);
    expect(await env.DB.prepare("SELECT (SELECT count(*) FROM job_search_deferral) + (SELECT count(*) FROM job_search_moves) AS n").first("n")).toBe(0);
    await env.DB.prepare("UPDATE jobs SET title = 'Night Baker' WHERE id = ?").bind(kept[0]).run();
    expect(await ids("&q=night%20baker")).toEqual([kept[0]]);
    await expectIndexOf(owner);
  });
});

describe("the hourly merge of the search index (src/jobs/search-index.ts)", () => {
  it("merges the index's b-trees a bounded statement at a time until nothing is left to merge, and q answers the same afterwards", async () => {
    const owner = await createEmployer();
    // Single writes: each adds a b-tree to the index.
    for (let i = 0; i < 24; i++) await postJob(owner, { title: `Merge Fitter ${i}`, referenceId: `MF-${i}`, status: i % 3 ? "active" : "draft" });
    const answers = async () =>
      Promise.all(["?q=fitter", "?q=fitter&status=draft", "?q=mf-1", "?q=fitter&page=2&pageSize=5"].map(async (query) => (await request(`/jobs${query}`, { apiKey: owner.apiKey })).json<any>()));
    const before = await answers();
    const segments = () => env.DB.prepare("SELECT count(DISTINCT segid) AS n FROM job_search_idx").first<number>("n");
    const segmentsBefore = await segments();
    expect(segmentsBefore).toBeGreaterThan(1);
    // One page per statement: several statements, and runs (each stops at MERGES_PER_RUN or its budget) until done.
    let runs = 0;
    let merges = 0;
    let progress;
    do {
      progress = await mergeSearchIndex(env, { pages: 1 });
      expect(progress.merges).toBeGreaterThanOrEqual(1);
      expect(progress.merges).toBeLessThanOrEqual(MERGES_PER_RUN);
      merges += progress.merges;
      runs++;
    } while (!progress.finished && runs < 50);
    expect(progress.finished).toBe(true);
    expect(merges).toBeGreaterThan(2);
    expect(await segments()).toBeLessThan(segmentsBefore!);
    expect(await answers()).toEqual(before);
    await expectIndexOf(owner);
    // Nothing left: one statement, which finds nothing to do.
    expect(await mergeSearchIndex(env)).toEqual({ merges: 1, finished: true });
  });
});
