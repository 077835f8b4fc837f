import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { candidatesQuery } from "../src/alerts/repository";
import { termsOfAlert, termsOfJob, jobFactsOf } from "../src/alerts/rules";
import { createEmployer, request } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { activeAlert, lastEventSeq, matchEventsSince, matchesOf } from "./support/alerts";
import { boardEntryOf } from "../src/board/alerts";

// DESIGN 23: matching is a reverse search — a job that is, or becomes, visible on the board is
// matched against the alerts filed under what they require, each then checked with the board's own
// rules; a match is stored once per (alert, job). For any alert and job: matched ⇔ the board's
// search with the alert's parameters lists the job.

/** A seeded generator (mulberry32), so a failing pair can be found again. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("matching (DESIGN 23)", () => {
  it("a job that becomes visible is matched to the alerts whose whole search lists it, stored once per (alert, job) even when its events come again", async () => {
    const employer = await createEmployer({ name: "Matching Works Ltd.", plan: "unlimited" });
    const wanted = await activeAlert({ search: { q: "zebrafish techn", province: "BC" } });
    const otherProvince = await activeAlert({ search: { q: "zebrafish", province: "QC" } });
    const before = await lastEventSeq();
    const job = await postJob(employer, { title: "Zebrafish Technician", status: "active", locations: [{ description: "Kelowna, BC" }] });
    const draft = await postJob(employer, { title: "Zebrafish Technician (draft)", locations: [{ description: "Kelowna, BC" }] });
    await matchEventsSince(before);
    await matchEventsSince(before);
    expect(await matchesOf(wanted.id)).toEqual([job.id]);
    expect(await matchesOf(otherProvince.id)).toEqual([]);
    expect(draft.status).toBe("draft");
  });

  it("a job that leaves the board (archived) is never emailed: its unsent matches are marked gone", async () => {
    const employer = await createEmployer({ name: "Leaving Co.", plan: "unlimited" });
    const alert = await activeAlert({ search: { q: "quokkakeeper" } });
    const before = await lastEventSeq();
    const job = await postJob(employer, { title: "Quokkakeeper", status: "active" });
    await matchEventsSince(before);
    expect(await matchesOf(alert.id)).toEqual([job.id]);
    const archivedAt = await lastEventSeq();
    expect((await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "archived" } })).status).toBe(200);
    await matchEventsSince(archivedAt);
    const row = await env.ALERTS_DB.prepare("SELECT gone, send_id FROM alert_matches WHERE alert_id = ? AND job_id = ?").bind(alert.id, job.id).first();
    expect(row).toEqual({ gone: 1, send_id: null });
  });

  it("alerts are filed under what they require: where it looks (near's cells, else its province) with what else it requires (the longest word of q, else category and position type), as one term; a job reads only those terms", async () => {
    expect(termsOfAlert({ search: { q: "Sr comptabilité" }, centre: null })).toEqual(["w:comptabilite"]);
    expect(termsOfAlert({ search: { q: "Sr comptabilité", province: "QC" }, centre: null })).toEqual(["w:comptabilite|p:QC"]);
    expect(termsOfAlert({ search: { q: "comptable", near: 1, radiusKm: 10 }, centre: { latitude: 45.5, longitude: -73.6 } })).toContain("w:comptable|g:45:-74");
    expect(termsOfAlert({ search: { province: "QC", category: 3 }, centre: null })).toEqual(["p:QC|k:3"]);
    expect(termsOfAlert({ search: { province: "QC", positionType: 2 }, centre: null })).toEqual(["p:QC|t:2"]);
    expect(termsOfAlert({ search: { category: 3 }, centre: null })).toEqual(["k:3"]);
    expect(termsOfAlert({ search: { salaryMin: 1 }, centre: null })).toEqual(["*"]);
    const near = termsOfAlert({ search: { near: 1, radiusKm: 10 }, centre: { latitude: 45.5, longitude: -73.6 } });
    expect(near).toContain("g:45:-74");
    expect(termsOfAlert({ search: { near: 1, radiusKm: 10, category: 3 }, centre: { latitude: 45.5, longitude: -73.6 } })).toContain("g:45:-74|k:3");
    const employer = await createEmployer({ name: "Terms Inc.", plan: "unlimited" });
    const job = await postJob(employer, { title: "Comptable", status: "active", locations: [{ description: "Montréal, QC" }], categories: [{ id: 3 }] });
    const row = { ...(await env.DB.prepare("SELECT data FROM events WHERE subject_id = ? AND type = 'job.created'").bind(job.id).first<{ data: string }>()) };
    const { jobOfEvent } = await import("../src/jobs/event-data");
    const entry = await boardEntryOf(env, jobOfEvent("job.created", row.data!), Math.floor(Date.now() / 1000));
    const terms = termsOfJob(jobFactsOf(entry!));
    for (const term of ["w:comptab", "w:terms", "p:QC", "k:3", "p:QC|k:3", "g:45:-74", "g:45:-74|k:3", "w:comptab|p:QC", "w:comptab|g:45:-74", "*"]) expect(terms).toContain(term);
  });

  it("a job reads only the index: its candidates, and what the check needs of them, come from one covering index, never the alerts table (EXPLAIN QUERY PLAN)", async () => {
    const { sql: query, params } = new SQLiteAsyncDialect().sqlToQuery(candidatesQuery(["w:comptab", "p:QC|k:3", "*"]));
    const { results } = await env.ALERTS_DB.prepare(`EXPLAIN QUERY PLAN ${query}`).bind(...params).all<{ detail: string }>();
    // Every table read of the plan (the terms' own json_each aside).
    const reads = results.map((row) => row.detail).filter((step) => /^(SEARCH|SCAN) /.test(step) && !step.startsWith("SCAN json_each"));
    expect(reads).toEqual(["SEARCH alert_terms USING COVERING INDEX alert_terms_match_idx (term=?)"]);
  });

  it("property: matched ⇔ the board's forward search lists the job, over 100 random alerts × 100 random jobs (10 000 pairs), 0 differences", async () => {
    const next = random(20261126);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const WORDS = ["Senior", "Comptable", "Accountant", "Développeur", "Developer", "Infirmière", "Nurse", "Gestionnaire", "Clerk", "Analyste", "Électricien", "Junior"];
    const EMPLOYERS = ["Érable Solutions", "Acme Analyste Ltd.", "Northern Clerk Co.", "Bouchard Senior Inc."];
    const PLACES = ["Montréal, QC", "Laval, QC", "Québec, QC", "Toronto, ON", "Mississauga, ON", "Ottawa, ON", "Vancouver, BC", "Kelowna, BC", "Halifax, NS", "Calgary, AB", "Quebec", "Ontario"];
    const employers = await Promise.all(EMPLOYERS.map((name) => createEmployer({ name, plan: "unlimited" })));

    const before = await lastEventSeq();
    const jobs: number[] = [];
    const placeIds = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const title = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(WORDS)).join(" ");
      const hourly = next() < 0.3;
      const salary = next() < 0.7 ? { amount: hourly ? 15 + Math.floor(next() * 60) : 30_000 + Math.floor(next() * 120_000), ...(next() < 0.5 ? { maxAmount: hourly ? 80 : 160_000 } : {}), type: { id: hourly ? 5 : 1 } } : undefined;
      const job = await postJob(pick(employers), {
        title,
        status: "active",
        confidential: next() < 0.2,
        locations: Array.from(new Set(Array.from({ length: 1 + Math.floor(next() * 2) }, () => pick(PLACES)))).map((description) => ({ description })),
        categories: [{ id: 1 + Math.floor(next() * 4) }],
        ...(next() < 0.8 ? { positionType: { id: 1 + Math.floor(next() * 3) } } : {}),
        ...(salary ? { salary } : {}),
      });
      jobs.push(job.id);
      for (const location of job.locations as { id: number; type: string }[]) if (location.type !== "Province") placeIds.add(location.id);
    }
    await settleBoard();

    const prefix = (word: string) => {
      const folded = next() < 0.5 ? word.normalize("NFKD").replace(/\p{M}/gu, "") : word;
      const cased = next() < 0.5 ? folded.toLowerCase() : folded.toUpperCase();
      return next() < 0.5 ? cased : cased.slice(0, 2 + Math.floor(next() * (cased.length - 1)));
    };
    const searches: Record<string, unknown>[] = [];
    for (let i = 0; i < 100; i++) {
      const search: Record<string, unknown> = {};
      if (next() < 0.6) search.q = Array.from({ length: 1 + Math.floor(next() * 2) }, () => prefix(pick([...WORDS, ...EMPLOYERS.flatMap((name) => name.split(" "))]))).join(" ");
      if (next() < 0.3) {
        search.near = pick([...placeIds]);
        if (next() < 0.7) search.radiusKm = pick([1, 10, 50, 120, 400, 500]);
      } else if (next() < 0.3) search.province = pick(["QC", "ON", "BC", "NS", "AB"]);
      if (next() < 0.25) search.category = 1 + Math.floor(next() * 4);
      if (next() < 0.25) search.positionType = 1 + Math.floor(next() * 3);
      if (next() < 0.3) search.salaryMin = pick([0, 40_000, 80_000, 120_000, 150_000]);
      if (Object.keys(search).length === 0) search.salaryMin = pick([0, 60_000]);
      searches.push(search);
    }
    const alerts = [];
    for (const search of searches) alerts.push({ search, ...(await activeAlert({ search })) });
    await matchEventsSince(before);

    const differences: string[] = [];
    let pairs = 0;
    for (const alert of alerts) {
      const params = new URLSearchParams(Object.entries(alert.search).map(([name, value]) => [name, String(value)]));
      params.set("pageSize", "50");
      const listed = new Set<number>();
      let url: string | null = `/board/jobs?${params}&t=${alert.id}`;
      while (url) {
        const res = await request(url);
        expect(res.status, url).toBe(200);
        const page = (await res.json()) as { data: { id: number }[]; paging: { next: string | null } };
        for (const item of page.data) listed.add(item.id);
        url = page.paging.next;
      }
      const matched = new Set(await matchesOf(alert.id));
      for (const jobId of jobs) {
        pairs++;
        if (listed.has(jobId) !== matched.has(jobId)) differences.push(`alert ${JSON.stringify(alert.search)} job ${jobId}: listed ${listed.has(jobId)}, matched ${matched.has(jobId)}`);
      }
    }
    expect(pairs).toBeGreaterThanOrEqual(10_000);
    expect(differences).toEqual([]);
    // Not a vacuous agreement: many pairs match, many do not.
    const total = (await env.ALERTS_DB.prepare("SELECT count(*) AS n FROM alert_matches WHERE job_id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(jobs)).first<{ n: number }>())!.n;
    expect(total).toBeGreaterThan(300);
    expect(total).toBeLessThan(9_000);
  }, 180_000);
});
