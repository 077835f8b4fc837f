import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request } from "./support/api";
import { eventually } from "./support/board";
import { postJob } from "./support/jobs";

// DESIGN 19: GET and PUT /api/v1.1/employer, the settings the posting rules read.

const put = (apiKey: string, json: unknown) => request("/employer", { method: "PUT", apiKey, json });
const get = async (apiKey: string) => {
  const res = await request("/employer", { apiKey });
  expect(res.status).toBe(200);
  return res.json<Record<string, unknown>>();
};

describe("GET /api/v1.1/employer", () => {
  it("answers the caller's own settings, with the defaults: ontarioEmployees unknown, not federal, warn", async () => {
    const employer = await createEmployer({ name: "Defaults Inc." });
    expect(await get(employer.apiKey)).toEqual({
      id: employer.employerId,
      name: "Defaults Inc.",
      ontarioEmployees: null,
      federallyRegulated: false,
      postingRules: "warn",
    });
  });

  it("needs an API key: 401 without one", async () => {
    expect((await request("/employer")).status).toBe(401);
  });
});

describe("PUT /api/v1.1/employer", () => {
  it("is partial: members not sent keep their value, and it answers 200 with the settings", async () => {
    const employer = await createEmployer({ name: "Partial Ltd." });
    const res = await put(employer.apiKey, { ontarioEmployees: 12, postingRules: "enforce" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: employer.employerId, name: "Partial Ltd.", ontarioEmployees: 12, federallyRegulated: false, postingRules: "enforce" });
    const second = await put(employer.apiKey, { federallyRegulated: true });
    expect(await second.json()).toMatchObject({ ontarioEmployees: 12, federallyRegulated: true, postingRules: "enforce" });
    expect(await get(employer.apiKey)).toMatchObject({ ontarioEmployees: 12, federallyRegulated: true, postingRules: "enforce" });
  });

  it("ontarioEmployees: null means unknown again", async () => {
    const employer = await createEmployer();
    await put(employer.apiKey, { ontarioEmployees: 3 });
    expect(await (await put(employer.apiKey, { ontarioEmployees: null })).json()).toMatchObject({ ontarioEmployees: null });
  });

  it("bad values are a 400 naming every broken member; nothing changes", async () => {
    const employer = await createEmployer({ name: "Strict Co." });
    const res = await put(employer.apiKey, { name: "  ", ontarioEmployees: -1, federallyRegulated: "yes", postingRules: "block" });
    expect(res.status).toBe(400);
    const problem = await problemOf(res);
    expect(problem.type).toBe("/problems/validation-error");
    expect(problem.errors!.map((error) => error.field).sort()).toEqual(["federallyRegulated", "name", "ontarioEmployees", "postingRules"]);
    for (const [json, field] of [
      [{ name: "x".repeat(129) }, "name"],
      [{ name: null }, "name"],
      [{ ontarioEmployees: 2.5 }, "ontarioEmployees"],
      [{ ontarioEmployees: "40" }, "ontarioEmployees"],
      [{ ontarioEmployees: 10_000_001 }, "ontarioEmployees"],
      [{ federallyRegulated: null }, "federallyRegulated"],
      [{ postingRules: null }, "postingRules"],
    ] as const) {
      const one = await put(employer.apiKey, json);
      expect(one.status, JSON.stringify(json)).toBe(400);
      expect((await problemOf(one)).errors!.map((error) => error.field), JSON.stringify(json)).toEqual([field]);
    }
    expect(await get(employer.apiKey)).toMatchObject({ name: "Strict Co.", ontarioEmployees: null, federallyRegulated: false, postingRules: "warn" });
  });

  it("read-only and unknown members are ignored: an employer cannot change its id or plan", async () => {
    const employer = await createEmployer({ name: "Ignored Ltd." });
    const res = await put(employer.apiKey, { id: 1, plan: "unlimited", revision: 99, name: "Renamed Ltd." });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: employer.employerId, name: "Renamed Ltd." });
    const row = await env.DB.prepare("SELECT plan FROM employers WHERE id = ?").bind(employer.employerId).first<{ plan: string }>();
    expect(row!.plan).toBe("standard");
  });

  it("a body that is not a JSON object is a 400", async () => {
    const employer = await createEmployer();
    expect((await request("/employer", { method: "PUT", apiKey: employer.apiKey, json: [1], undocumented: true })).status).toBe(400);
  });

  it("each employer sees and changes only its own settings", async () => {
    const [a, b] = [await createEmployer({ name: "Alpha" }), await createEmployer({ name: "Beta" })];
    await put(a.apiKey, { name: "Alpha Renamed", postingRules: "enforce" });
    expect(await get(b.apiKey)).toMatchObject({ id: b.employerId, name: "Beta", postingRules: "warn" });
  });

  it("a new name reaches the board's jobs and their search (employer.renamed, DESIGN 17a)", async () => {
    const employer = await createEmployer({ name: "Old Name Ltd." });
    const job = await postJob(employer, { status: "active" });
    expect(job.employer.name).toBe("Old Name Ltd.");
    const res = await put(employer.apiKey, { name: "Zyxwname Brand New" });
    expect(res.status).toBe(200);
    const renamed = await env.DB.prepare("SELECT data FROM events WHERE employer_id = ? AND type = 'employer.renamed'").bind(employer.employerId).all<{ data: string }>();
    expect(renamed.results.map((row) => JSON.parse(row.data))).toEqual([{ name: "Zyxwname Brand New" }]);
    await eventually(async () => {
      const board = await request(`/board/jobs/${job.id}?t=${Date.now()}`);
      expect((await board.json<any>()).employer.name).toBe("Zyxwname Brand New");
      const search = await request(`/board/jobs?q=zyxwname&t=${Date.now()}`);
      expect((await search.json<any>()).data.map((item: { id: number }) => item.id)).toEqual([job.id]);
    });
    // The employer's own answers show it at once.
    expect((await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>()).employer.name).toBe("Zyxwname Brand New");
  });

  it("a PUT that changes nothing records no event and keeps every job's ETag", async () => {
    const employer = await createEmployer({ name: "Steady Ltd." });
    const job = await postJob(employer);
    const before = (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).headers.get("ETag");
    expect((await put(employer.apiKey, { name: "Steady Ltd.", postingRules: "warn" })).status).toBe(200);
    expect((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).headers.get("ETag")).toBe(before);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE employer_id = ? AND type = 'employer.renamed'").bind(employer.employerId).first<{ n: number }>();
    expect(events!.n).toBe(0);
  });
});
