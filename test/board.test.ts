import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, createEmployer, request } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";

// DESIGN 14: the public job board.

const employer = await createEmployer({ name: "Board Employer Ltd." });
let unique = 0;
/** A board address not requested before (the Cache API serves repeats): `t` is ignored by the API. */
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;
const board = async (path: string) => {
  await settleBoard();
  const res = await request(fresh(`/board${path}`));
  expect(res.status, path).toBe(200);
  return res.json<any>();
};
const word = () => `zq${Math.random().toString(36).slice(2, 8)}`;

describe("the public job board (DESIGN 14)", () => {
  it("shows active jobs not past their closeDate; drafts, archived and expired ones are not on it (list and 404)", async () => {
    const tag = word();
    const active = await postJob(employer, { title: `${tag} Active`, status: "active" });
    const draft = await postJob(employer, { title: `${tag} Draft` });
    const archived = await postJob(employer, { title: `${tag} Archived`, status: "archived" });
    const expired = await postJob(employer, { title: `${tag} Expired`, status: "active" });
    await env.DB.prepare("UPDATE jobs SET close_date = ? WHERE id = ?").bind(Math.floor(Date.now() / 1000) - 60, expired.id).run();
    const { data } = await board(`/jobs?q=${tag}`);
    expect(data.map((j: any) => j.id)).toEqual([active.id]);
    for (const job of [draft, archived, expired]) expect((await request(fresh(`/board/jobs/${job.id}`))).status).toBe(404);
    expect((await request("/board/jobs/abc")).status).toBe(400);
  });

  it("the board job: no referenceId or applicationEmail anywhere, employer null when confidential, apply by routing", async () => {
    const open = await postJob(employer, { referenceId: "SECRET-REF", status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hidden@acme.example" });
    const secret = await postJob(employer, { status: "active", confidential: true, applicantRoutingType: { id: 2 }, applicationUrl: "https://acme.example/apply" });
    await settleBoard();
    const res = await request(fresh(`/board/jobs/${open.id}`));
    const text = await res.text();
    expect(text).not.toContain("hidden@acme.example");
    expect(text).not.toContain("SECRET-REF");
    const job = JSON.parse(text);
    expect(job).not.toHaveProperty("referenceId");
    expect(job).not.toHaveProperty("applicationEmail");
    expect(job.employer).toEqual({ id: employer.employerId, name: "Board Employer Ltd." });
    expect(job.apply).toEqual({ method: "email" });
    const hidden = await (await request(fresh(`/board/jobs/${secret.id}`))).json<any>();
    expect(hidden.employer).toBeNull();
    expect(hidden.apply).toEqual({ method: "url", url: "https://acme.example/apply" });
    expect(hidden.jsonLd.hiringOrganization).toEqual({ "@type": "Organization", name: "Confidential" });
    expect(JSON.stringify(hidden)).not.toContain("Board Employer Ltd.");
  });

  it("q: every word must match the start of a title word, case and accents ignored", async () => {
    const tag = word();
    const match = await postJob(employer, { title: `Comptable Agréé ${tag}`, status: "active" });
    await postJob(employer, { title: `Comptable ${tag}`, status: "active" });
    for (const q of [`COMPT agre ${tag}`, `agréé ${tag.slice(0, 5)}`]) {
      expect((await board(`/jobs?q=${encodeURIComponent(q)}`)).data.map((j: any) => j.id), q).toEqual([match.id]);
    }
    // Query syntax is only text: quotes, stars and operators are not FTS syntax here.
    expect((await board(`/jobs?q=${encodeURIComponent(`"${tag}"* (NEAR`)}`)).data.length).toBe(0);
    expect((await board(`/jobs?q=${encodeURIComponent(`"${tag}"*^`)}`)).data.length).toBe(2);
  });

  it("filters: location, province, category and position type", async () => {
    const tag = word();
    const a = await postJob(employer, { title: `${tag} A`, status: "active", locations: [{ description: "Regina, SK" }], categories: [{ id: 2 }], positionType: { id: 3 } });
    const b = await postJob(employer, { title: `${tag} B`, status: "active", locations: [{ description: "Halifax, NS" }], categories: [{ id: 4 }], positionType: { id: 1 } });
    const ids = async (filter: string) => (await board(`/jobs?q=${tag}&${filter}`)).data.map((j: any) => j.id);
    expect(await ids(`location=${a.locations[0].id}`)).toEqual([a.id]);
    expect(await ids("province=NS")).toEqual([b.id]);
    expect(await ids("category=2")).toEqual([a.id]);
    expect(await ids("positionType=1")).toEqual([b.id]);
    expect((await request(fresh("/board/jobs?province=ZZ"))).status).toBe(400);
  });

  it("cursor paging walks every job once, newest first, while jobs are added, with no gap or duplicate", async () => {
    const tag = word();
    const posted = [];
    for (let i = 0; i < 7; i++) posted.push(await postJob(employer, { title: `${tag} ${i}`, status: "active" }));
    await settleBoard();
    const seen: number[] = [];
    let next: string | null = `/board/jobs?q=${tag}&pageSize=3`;
    for (let page = 0; next && page < 5; page++) {
      const res = await request(next.replace(/^https?:\/\/[^/]+\/api\/v1\.1/, ""));
      const body = await res.json<any>();
      seen.push(...body.data.map((j: any) => j.id));
      expect(body.paging.pageSize).toBe(3);
      if (page === 0) await postJob(employer, { title: `${tag} late`, status: "active" }).then(() => settleBoard());
      next = body.paging.next;
    }
    expect(seen).toEqual(posted.map((j) => j.id).reverse());
  });

  it("the list item: summary of the description's text, at most 200 characters ending at a word, and the job's url", async () => {
    const tag = word();
    const long = `<p>${"Lorem ipsum dolor sit amet &amp; more. ".repeat(10)}</p><ul><li>One</li></ul>`;
    const job = await postJob(employer, { title: tag, status: "active", description: long });
    const [item] = (await board(`/jobs?q=${tag}`)).data;
    expect(item.summary.endsWith("…")).toBe(true);
    expect([...item.summary].length).toBeLessThanOrEqual(200);
    expect(item.summary.startsWith("Lorem ipsum dolor sit amet & more.")).toBe(true);
    expect(item.url).toMatch(new RegExp(`/api/v1\\.1/board/jobs/${job.id}$`));
  });

  it("jsonLd: a schema.org JobPosting for every position type and salary type", async () => {
    const employment = ["FULL_TIME", "PART_TIME", "CONTRACTOR", "TEMPORARY", "VOLUNTEER"];
    const units = ["YEAR", "MONTH", "WEEK", "DAY", "HOUR"];
    const jobs = [];
    for (let id = 1; id <= 5; id++) {
      jobs.push(await postJob(employer, {
        title: `Posting ${id}`,
        status: "active",
        positionType: { id },
        salary: { amount: 20 * id, maxAmount: 30 * id, type: { id } },
        locations: [{ description: "Vancouver, BC" }],
        applicantRoutingType: { id: 2 },
        applicationUrl: "https://acme.example/apply",
      }));
    }
    await settleBoard();
    for (const [i, job] of jobs.entries()) {
      const id = i + 1;
      const { jsonLd } = await (await request(fresh(`/board/jobs/${job.id}`))).json<any>();
      expect(jsonLd).toMatchObject({
        "@context": "https://schema.org",
        "@type": "JobPosting",
        title: `Posting ${id}`,
        datePosted: job.publishDate,
        validThrough: job.closeDate,
        employmentType: employment[id - 1],
        hiringOrganization: { "@type": "Organization", name: "Board Employer Ltd." },
        jobLocation: [{ "@type": "Place", address: { "@type": "PostalAddress", addressLocality: "Vancouver", addressRegion: "BC", addressCountry: "CA" } }],
        baseSalary: { "@type": "MonetaryAmount", currency: "CAD", value: { "@type": "QuantitativeValue", minValue: 20 * id, maxValue: 30 * id, unitText: units[id - 1] } },
        directApply: false,
      });
    }
  });

  it("cacheable: Cache-Control public, max-age=60, an ETag and 304; a repeat comes from the Cache API, a new address shows the change", async () => {
    const job = await postJob(employer, { title: "Cached title", status: "active" });
    await settleBoard();
    const path = fresh(`/board/jobs/${job.id}`);
    const first = await request(path);
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=60");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"/);
    expect((await request(path, { headers: { "If-None-Match": etag } })).status).toBe(304);
    await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Changed title" } });
    await settleBoard();
    expect((await (await request(path)).json<any>()).title).toBe("Cached title");
    expect((await (await request(fresh(`/board/jobs/${job.id}`))).json<any>()).title).toBe("Changed title");
  });

  it("a 404 is cached at most 5 s: a job just published is not hidden for a minute behind a cached 404, on the API or on its page (DESIGN 14)", async () => {
    const job = await postJob(employer, { title: "Soon Published" });
    const apiPath = fresh(`/board/jobs/${job.id}`);
    const pagePath = `${BASE}/jobs/${job.id}-soon-published?t=${Date.now()}-${Math.random()}`;
    const missing = [await request(apiPath), await request(pagePath, { undocumented: true })];
    const askedAt = Date.now();
    for (const res of missing) {
      expect(res.status).toBe(404);
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=5");
    }
    expect((await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "active" } })).status).toBe(200);
    await settleBoard();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, askedAt + 5_500 - Date.now())));
    expect((await request(apiPath)).status).toBe(200);
    expect((await request(pagePath, { undocumented: true })).status).toBe(200);
  });

  it("CORS: any origin may read the board, and preflights are answered", async () => {
    const res = await request(fresh("/board/jobs"), { headers: { Origin: "https://jobs.example" } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const preflight = await request("/board/jobs", { method: "OPTIONS", headers: { Origin: "https://jobs.example", "Access-Control-Request-Method": "GET" }, undocumented: true });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toBe("GET,POST,OPTIONS");
  });
});
