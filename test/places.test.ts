import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, request } from "./support/api";
import { postJob } from "./support/jobs";
import { settleBoard } from "./support/board";

type Location = { id: number; name: string; description: string; type: string; latitude: number | null; longitude: number | null };
type Paged<T> = { data: T[]; paging: { total: number } };

const employer = await createEmployer();
const locationsOf = async (descriptions: string[], who = employer) =>
  (await postJob(who, { locations: descriptions.map((description) => ({ description })) })).locations as Location[];
const publicPlace = async (id: number) => (await (await request(`/locations/${id}`)).json()) as Location;
const search = async (q: string) => ((await (await request(`/locations?q=${encodeURIComponent(q)}&pageSize=100`)).json()) as Paged<Location>).data;
const decimals = (value: number) => (String(value).split(".")[1] ?? "").length;

/** The last id of the gazetteer before DESIGN 17 (13 provinces + 596 municipalities). */
const LAST_FIRST_ID = 609;

describe("places with coordinates (DESIGN 17)", () => {
  it("the gazetteer grows to Canada's populated places: at least 2 500 public places", async () => {
    const { paging } = (await (await request("/locations?pageSize=1")).json()) as Paged<Location>;
    expect(paging.total).toBeGreaterThanOrEqual(2_500);
  });

  it.each([
    // As drizzle/0001_reference_data.sql seeded them before the gazetteer grew: the first and the last included.
    [1, "Alberta", "Alberta", "Province"],
    [13, "Yukon", "Yukon", "Province"],
    [14, "Toronto", "Toronto, ON", "City"],
    [15, "Montréal", "Montréal, QC", "City"],
    [21, "Vancouver", "Vancouver, BC", "City"],
    [100, "Norfolk County", "Norfolk County, ON", "City"],
    [250, "Niagara-on-the-Lake", "Niagara-on-the-Lake, ON", "Town"],
    [400, "Sechelt", "Sechelt, BC", "Town"],
    [500, "Goderich", "Goderich, ON", "Town"],
    [608, "Inuvik", "Inuvik, NT", "Town"],
    [LAST_FIRST_ID, "Rankin Inlet", "Rankin Inlet, NU", "Town"],
  ])("the 609 existing ids keep their meaning: %i is %s", async (id, name, description, type) => {
    expect(await publicPlace(id)).toMatchObject({ id, name, description, type });
  });

  it.each([
    ["Vancouver, BC", 49.25, -123.12],
    ["Montréal, QC", 45.51, -73.59],
  ])("%s has coordinates with the source's precision (at least 4 decimals)", async (description, latitude, longitude) => {
    const place = (await search(description.split(",")[0])).find((l) => l.description === description)!;
    expect(place.latitude).toBeCloseTo(latitude, 1);
    expect(place.longitude).toBeCloseTo(longitude, 1);
    expect(decimals(place.latitude!)).toBeGreaterThanOrEqual(4);
    expect(decimals(place.longitude!)).toBeGreaterThanOrEqual(4);
  });

  it("new places are appended after the first 609 and a small one resolves by `City, PC`", async () => {
    const [youbou] = await search("youbou");
    expect(youbou).toMatchObject({ name: "Youbou", description: "Youbou, BC" });
    expect(youbou.id).toBeGreaterThan(LAST_FIRST_ID);
    // A hamlet on Vancouver Island: west of the mainland, north of the 48th parallel.
    expect(youbou.latitude).toBeGreaterThan(48);
    expect(youbou.longitude).toBeLessThan(-123);
    const [located] = await locationsOf(["youbou, bc"]);
    expect(located).toEqual(youbou);
  });

  it("a city alone picks the most populous of the places of that name, the new ones included (DESIGN 3)", async () => {
    // A name that only places added by DESIGN 17 share: their order is the new ranks alone.
    const shared = (await env.DB.prepare(
      `SELECT name_key AS nameKey FROM locations WHERE owner_employer_id IS NULL AND type <> 'Province'
       GROUP BY name_key HAVING count(*) > 1 AND min(id) > ${LAST_FIRST_ID} AND count(DISTINCT population_rank) = count(*)
       ORDER BY name_key LIMIT 1`,
    ).first<{ nameKey: string }>())!;
    const mostPopulous = (await env.DB.prepare(
      "SELECT id, name FROM locations WHERE owner_employer_id IS NULL AND name_key = ? ORDER BY population_rank LIMIT 1",
    )
      .bind(shared.nameKey)
      .first<{ id: number; name: string }>())!;
    const [first] = await locationsOf([mostPopulous.name]);
    const [again] = await locationsOf([mostPopulous.name]);
    expect(first.id).toBe(mostPopulous.id);
    expect(again.id).toBe(first.id);
  });
});

describe("an employer's own places and coordinates (DESIGN 17)", () => {
  it("the employer's own created places have no coordinates (null) when no gazetteer entry matches", async () => {
    const [created] = await locationsOf(["Nowhere Flats, MB"]);
    expect(created).toMatchObject({ description: "Nowhere Flats, MB", latitude: null, longitude: null });
    const own = (await (await request(`/locations/${created.id}`, { apiKey: employer.apiKey })).json()) as Location;
    expect(own).toMatchObject({ latitude: null, longitude: null });
  });

  it("a place an employer creates gets the coordinates of a gazetteer entry of its name and province, even one this isolate does not know yet", async () => {
    await locationsOf(["Vancouver, BC"]); // the isolate has read its copy of the gazetteer
    // As a later migration would add it, after that read: the Worker still creates a place of the employer's own.
    const added = { latitude: 46.12345, longitude: -64.54321 };
    await env.DB.prepare(
      `INSERT INTO locations (name, description, type, province_code, name_key, population_rank, source, latitude, longitude)
       VALUES ('Grown Hollow', 'Grown Hollow, NB', 'Town', 'NB', 'grown hollow', 99999, 'gazetteer', ?, ?)`,
    )
      .bind(added.latitude, added.longitude)
      .run();
    const [created] = await locationsOf(["Grown Hollow, NB"]);
    const { owner } = (await env.DB.prepare("SELECT owner_employer_id AS owner FROM locations WHERE id = ?").bind(created.id).first<{ owner: number }>())!;
    expect(owner).toBe(employer.employerId);
    expect(created).toMatchObject({ description: "Grown Hollow, NB", ...added });
  });

  it("places employers created before the gazetteer grew get the coordinates of the entry of their name and province (the migration)", async () => {
    const owner = await createEmployer();
    const [etobicoke] = await search("etobicoke");
    expect(etobicoke.latitude).toEqual(expect.any(Number));
    const insertOwned = (name: string, nameKey: string, province: string) =>
      env.DB.prepare(
        `INSERT INTO locations (name, description, type, province_code, name_key, source, owner_employer_id)
         VALUES (?, ?, 'City', ?, ?, 'employer', ?) RETURNING id`,
      )
        .bind(name, `${name}, ${province}`, province, nameKey, owner.employerId)
        .first<number>("id");
    const matching = await insertOwned("ETOBICOKE", "etobicoke", "ON");
    const otherProvince = await insertOwned("Etobicoke", "etobicoke", "NS");
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0011_"))!;
    await env.DB.prepare(migration.queries.at(-1)!).run();
    const own = async (id: number | null) => (await (await request(`/locations/${id}`, { apiKey: owner.apiKey })).json()) as Location;
    expect(await own(matching)).toMatchObject({ latitude: etobicoke.latitude, longitude: etobicoke.longitude });
    expect(await own(otherProvince)).toMatchObject({ latitude: null, longitude: null });
  });
});

describe("location objects carry latitude and longitude", () => {
  it("in a job: the gazetteer's coordinates, null for a place of the employer's own", async () => {
    const [vancouver] = await search("vancouver");
    const { id } = await postJob(employer, { locations: [{ description: "Vancouver, BC" }, { description: "Quiet Bend, SK" }] });
    const job = (await (await request(`/jobs/${id}`, { apiKey: employer.apiKey })).json()) as { locations: Location[] };
    expect(job.locations[0]).toEqual(vancouver);
    expect(job.locations[1]).toMatchObject({ description: "Quiet Bend, SK", latitude: null, longitude: null });
    const list = (await (await request("/jobs?pageSize=100", { apiKey: employer.apiKey })).json()) as { data: { id: number; locations: Location[] }[] };
    expect(list.data.find((item) => item.id === id)!.locations[0]).toEqual(vancouver);
  });

  it("on the board", async () => {
    const [montreal] = await search("montréal");
    const { id } = await postJob(employer, { status: "active", locations: [{ description: "Montréal, QC" }] });
    await settleBoard();
    // `t`: an address not requested before, so the board's cache cannot answer.
    const item = (await (await request(`/board/jobs/${id}?t=${crypto.randomUUID()}`)).json()) as { locations: Location[] };
    expect(item.locations).toEqual([montreal]);
    const { data } = (await (await request(`/board/jobs?t=${crypto.randomUUID()}`)).json()) as { data: { id: number; locations: Location[] }[] };
    expect(data.find((listed) => listed.id === id)!.locations).toEqual([montreal]);
  });
});
