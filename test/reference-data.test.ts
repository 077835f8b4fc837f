import { describe, expect, it } from "vitest";
import { API, problemOf, request } from "./support/api";

type Paged<T> = { data: T[]; paging: { total: number; page: number; pages: number; pageSize: number; previous: string | null; next: string | null } };
type Location = { id: number; name: string; description: string; type: string; latitude: number | null; longitude: number | null };

describe("reference lists (DESIGN 2)", () => {
  it.each([
    ["/positiontypes", [{ id: 1, name: "Full Time" }, { id: 2, name: "Part Time" }, { id: 3, name: "Contract" }, { id: 4, name: "Temp" }, { id: 5, name: "Volunteer" }]],
    ["/salarytypes", [
      { id: 1, name: "Yearly", unit: "year" },
      { id: 2, name: "Monthly", unit: "month" },
      { id: 3, name: "Weekly", unit: "week" },
      { id: 4, name: "Daily", unit: "day" },
      { id: 5, name: "Hourly", unit: "hour" },
    ]],
    ["/applicantroutingtypes", [{ id: 1, name: "Email" }, { id: 2, name: "URL" }]],
  ])("GET %s lists the stable ids, public and cacheable", async (path, expected) => {
    const res = await request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toMatch(/^public, max-age=\d+$/);
    expect(await res.json()).toEqual({ data: expected });
  });

  it("GET /jobcategories lists about 30 categories, ids from 1, names at most 40 characters", async () => {
    const res = await request("/jobcategories");
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { id: number; name: string }[] };
    expect(data.length).toBeGreaterThanOrEqual(25);
    expect(data.map((c) => c.id)).toEqual(data.map((_, i) => i + 1));
    for (const category of data) expect([...category.name].length).toBeLessThanOrEqual(40);
    expect(data[0]).toEqual({ id: 1, name: "Accounting" });
  });
});

describe("locations (DESIGN 2)", () => {
  it("the gazetteer has every province and territory and at least 500 municipalities", async () => {
    const all = (await (await request("/locations?pageSize=100")).json()) as Paged<Location>;
    expect(all.paging.total).toBeGreaterThanOrEqual(513);
    const provinces: Location[] = [];
    for (let page = 1; page <= all.paging.pages; page++) {
      const body = (await (await request(`/locations?pageSize=100&page=${page}`)).json()) as Paged<Location>;
      provinces.push(...body.data.filter((l) => l.type === "Province"));
    }
    expect(provinces.map((p) => p.name).sort()).toEqual([
      "Alberta", "British Columbia", "Manitoba", "New Brunswick", "Newfoundland and Labrador", "Northwest Territories",
      "Nova Scotia", "Nunavut", "Ontario", "Prince Edward Island", "Quebec", "Saskatchewan", "Yukon",
    ]);
  });

  it("q is a prefix match on the name, case- and accent-insensitive", async () => {
    for (const q of ["montr", "MONTRÉ", "  Montre "]) {
      const body = (await (await request(`/locations?q=${encodeURIComponent(q)}`)).json()) as Paged<Location>;
      expect(body.data.map((l) => l.description)).toContain("Montréal, QC");
      for (const l of body.data) expect(l.name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()).toMatch(/^montr/);
    }
  });

  it("shortest name first, then the most populous", async () => {
    const body = (await (await request("/locations?q=vanc")).json()) as Paged<Location>;
    expect(body.data[0]).toMatchObject({ name: "Vancouver", description: "Vancouver, BC", type: "City" });
    const lengths = body.data.map((l) => l.name.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });

  it("a city name shared by several provinces lists each place, the most populous first", async () => {
    const body = (await (await request("/locations?q=richmond")).json()) as Paged<Location>;
    expect(body.data[0].description).toBe("Richmond, BC");
  });

  it("paging: defaults page 1 and pageSize 10, absolute next link keeping the query", async () => {
    const body = (await (await request("/locations?q=s")).json()) as Paged<Location>;
    expect(body.data).toHaveLength(10);
    expect(body.paging).toMatchObject({ page: 1, pageSize: 10, previous: null });
    expect(body.paging.pages).toBe(Math.ceil(body.paging.total / 10));
    const next = new URL(body.paging.next!);
    expect(next.origin).toBe(new URL(API).origin);
    expect(next.pathname).toBe("/api/v1.1/locations");
    expect(Object.fromEntries(next.searchParams)).toEqual({ q: "s", page: "2" });
    const second = (await (await request(body.paging.next!)).json()) as Paged<Location>;
    expect(second.paging.page).toBe(2);
    expect(new URL(second.paging.previous!).searchParams.get("page")).toBe("1");
    expect(second.data[0].id).not.toBe(body.data[0].id);
  });

  it.each([
    ["pageSize=101", "pageSize"],
    ["pageSize=0", "pageSize"],
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["pageSize=abc", "pageSize"],
  ])("a bad paging parameter (%s) is a 400 naming it", async (query, field) => {
    const res = await request(`/locations?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    const problem = await problemOf(res);
    expect(problem.errors?.map((e) => e.field)).toEqual([field]);
  });

  it("GET /locations/{id} returns one location; a province is placed at its capital (DESIGN 17)", async () => {
    const res = await request("/locations/1");
    expect(res.status).toBe(200);
    const [edmonton] = ((await (await request("/locations?q=edmonton")).json()) as Paged<Location>).data;
    expect(edmonton.latitude).toEqual(expect.any(Number));
    expect(await res.json()).toEqual({
      id: 1,
      name: "Alberta",
      description: "Alberta",
      type: "Province",
      latitude: edmonton.latitude,
      longitude: edmonton.longitude,
    });
  });

  it("an unknown location id is a 404 problem", async () => {
    const res = await request("/locations/999999");
    expect(res.status).toBe(404);
    expect((await problemOf(res)).status).toBe(404);
  });

  it.each(["01", "abc", "-1", "1e3", "2147483648", "0"])("path id %s is not a canonical Int32: 400", async (id) => {
    const res = await request(`/locations/${id}`);
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors?.[0].field).toBe("id");
  });
});
