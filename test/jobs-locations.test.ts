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

  it("a valid Canadian place that is not known is created once and reused by everyone", async () => {
    const [created] = await locationsOf(["Tiny Harbour, NL"]);
    expect(created).toMatchObject({ name: "Tiny Harbour", description: "Tiny Harbour, NL", type: "City" });
    const [reused] = await locationsOf(["tiny harbour, Newfoundland and Labrador"], other);
    expect(reused.id).toBe(created.id);
    // Known now, so the city alone finds it too.
    const [alone] = await locationsOf(["Tiny Harbour"]);
    expect(alone.id).toBe(created.id);
    const search = await (await request("/locations?q=tiny harb")).json<any>();
    expect(search.data.map((l: any) => l.id)).toContain(created.id);
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
