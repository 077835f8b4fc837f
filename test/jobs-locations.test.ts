import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request } from "./support/api";
import { jobBody, postJob } from "./support/jobs";

const employer = await createEmployer();
const other = await createEmployer();
const locationsOf = async (descriptions: string[], who = employer) =>
  (await postJob(who, { locations: descriptions.map((description) => ({ description })) })).locations as any[];

describe("locations in a job request (DESIGN 3)", () => {
  it("city and code match a known place, ignoring case, accents and extra spaces", async () => {
    const [montreal] = await locationsOf(["  montreal ,   qc "]);
    expect(montreal).toMatchObject({ name: "Montréal", description: "Montréal, QC", type: "City" });
    const [again] = await locationsOf(["MONTRÉAL, Québec"]);
    expect(again.id).toBe(montreal.id);
  });

  it("a city alone with several matches picks the most populous", async () => {
    const [richmond] = await locationsOf(["Richmond"]);
    const { rank, id } = (await env.DB.prepare(
      "SELECT id, population_rank AS rank FROM locations WHERE name_key = 'richmond' ORDER BY population_rank LIMIT 1",
    ).first<{ id: number; rank: number }>())!;
    expect(rank).not.toBeNull();
    expect(richmond.id).toBe(id);
  });

  it("a province alone is the province location", async () => {
    const [ontario] = await locationsOf(["Ontario"]);
    expect(ontario).toMatchObject({ name: "Ontario", type: "Province" });
  });

  it("a valid Canadian place that is not known is created once and reused by its creator", async () => {
    const [created] = await locationsOf(["Tiny Harbour, NL"]);
    expect(created).toMatchObject({ name: "Tiny Harbour", description: "Tiny Harbour, NL", type: "City" });
    const [reused] = await locationsOf(["tiny harbour, Newfoundland and Labrador"]);
    expect(reused.id).toBe(created.id);
    // Known to its creator now, so the city alone finds it too.
    const [alone] = await locationsOf(["Tiny Harbour"]);
    expect(alone.id).toBe(created.id);
  });

  it("a place one employer created belongs to it: another employer naming it gets a place of its own (DESIGN 3)", async () => {
    const [mine] = await locationsOf(["Owned Cove, NS"]);
    const [theirs] = await locationsOf(["Owned Cove, NS"], other);
    expect(theirs).toMatchObject({ name: "Owned Cove", description: "Owned Cove, NS", type: "City" });
    expect(theirs.id).not.toBe(mine.id);
  });

  it("another employer's place never resolves a city named alone: 400 asking for the code, not squatting", async () => {
    await locationsOf(["Squatted Falls, NU"]);
    const res = await request("/jobs", { method: "POST", apiKey: other.apiKey, json: jobBody({ locations: [{ description: "Squatted Falls" }] }) });
    expect(res.status).toBe(400);
    const [error] = (await problemOf(res)).errors!;
    expect(error.field).toBe("locations[0].description");
    expect(error.message).toMatch(/province code/);
  });

  it("places employers created are never public: not listed by /locations, and /locations/{id} answers only the owner's key", async () => {
    const [created] = await locationsOf(["Private Point, PE"]);
    const search = await (await request("/locations?q=private poi")).json<any>();
    expect(search.data.map((l: any) => l.id)).not.toContain(created.id);
    expect(search.paging.total).toBe(0);
    expect((await request(`/locations/${created.id}`)).status).toBe(404);
    expect((await request(`/locations/${created.id}`, { headers: { "API-Key": other.apiKey } })).status).toBe(404);
    const own = await request(`/locations/${created.id}`, { headers: { "API-Key": employer.apiKey } });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual(created);
    expect(own.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("the same place written two ways counts once: \"Smallville\" and \"Smallville, SK\" (DESIGN 3)", async () => {
    const [created] = await locationsOf(["Smallville, SK"]);
    const both = await locationsOf(["Smallville", "Smallville, SK"]);
    expect(both).toEqual([created]);
    const [a, b] = await locationsOf(["Brand Newton, SK", "brand newton, Saskatchewan"]);
    expect(b).toBeUndefined();
    expect(a).toMatchObject({ description: "Brand Newton, SK" });
  });

  it("at most 1 000 places of an employer's own: the next new one is a 400 on locations", async () => {
    const crowded = await createEmployer();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
       INSERT INTO locations (name, description, type, province_code, name_key, population_rank, source, owner_employer_id)
       SELECT 'Place ' || i, 'Place ' || i || ', ON', 'City', 'ON', 'place ' || i, NULL, 'employer', ?1 FROM n`,
    ).bind(crowded.employerId).run();
    // One it already has is still fine.
    expect((await locationsOf(["Place 7, ON"], crowded))[0].description).toBe("Place 7, ON");
    const res = await request("/jobs", { method: "POST", apiKey: crowded.apiKey, json: jobBody({ locations: [{ description: "Place 1001, ON" }] }) });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors).toEqual([{ field: "locations", message: expect.stringMatching(/1000 places of your own/) }]);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM locations WHERE owner_employer_id = ?").bind(crowded.employerId).first<{ n: number }>())!;
    expect(n).toBe(1000);
  });

  it("concurrent creates of the same new place make one location", async () => {
    await Promise.all(Array.from({ length: 5 }, () => locationsOf(["Racing Creek, YT"])));
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM locations WHERE name_key = 'racing creek'").first<{ n: number }>())!;
    expect(n).toBe(1);
  });

  it("an unknown city without a province code → 400 asking for the code", async () => {
    const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ locations: [{ description: "Nowheresville" }] }) });
    expect(res.status).toBe(400);
    const [error] = (await problemOf(res)).errors!;
    expect(error.field).toBe("locations[0].description");
    expect(error.message).toMatch(/province code/);
  });

  it("an unknown province code or a name with markup → 400 at the item's path", async () => {
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      json: jobBody({ locations: [{ description: "Toronto, ON" }, { description: "Springfield, ZZ" }, { description: "<b>x</b>, ON" }] }),
    });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((e) => e.field)).toEqual(["locations[1].description", "locations[2].description"]);
  });

  it("a description over 300 characters is rejected", async () => {
    const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ locations: [{ description: `${"a".repeat(299)}, ON` }] }) });
    expect(res.status).toBe(400);
  });
});
