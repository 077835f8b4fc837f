import { hc } from "hono/client";
import { describe, expect, it } from "vitest";
import type { AppType } from "../src/index";
import { BASE, createEmployer, request } from "./support/api";

// The typed client over the real Worker; going through request() keeps the contract check.
const client = (apiKey?: string) =>
  hc<AppType>(BASE, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => request(input instanceof Request ? input.url : String(input), init),
    headers: apiKey ? { "API-Key": apiKey } : {},
  });

describe("typed client (hono/client hc<AppType>)", () => {
  it("reads reference data with typed results", async () => {
    const res = await client().api["v1.1"].salarytypes.$get();
    expect(res.status).toBe(200);
    if (!res.ok) throw new Error(`unexpected ${res.status}`);
    const { data } = await res.json();
    const yearly = data.find((type) => type.id === 1);
    // `unit` is typed as a string: calling a string method on it compiles.
    expect(yearly?.unit.toUpperCase()).toBe("YEAR");
    // @ts-expect-error — SalaryType has no `amount`: a typo does not compile.
    expect(yearly?.amount).toBeUndefined();
  });

  it("typed path parameters and query: locations", async () => {
    const page = await client().api["v1.1"].locations.$get({ query: { q: "vancouver", pageSize: "1" } });
    if (page.status !== 200) throw new Error(`unexpected ${page.status}`);
    const { data, paging } = await page.json();
    expect(paging.pageSize).toBe(1);
    const one = await client().api["v1.1"].locations[":id"].$get({ param: { id: String(data[0].id) } });
    if (one.status !== 200) throw new Error(`unexpected ${one.status}`);
    expect((await one.json()).description).toBe("Vancouver, BC");
  });

  it("creates and reads a job with typed request body and typed Job", async () => {
    const employer = await createEmployer({ name: "Typed Client Ltd." });
    const jobs = client(employer.apiKey).api["v1.1"].jobs;
    const created = await jobs.$post({
      query: {},
      header: {},
      json: { title: "Typed Engineer", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }], status: "active" },
    });
    if (created.status !== 201) throw new Error(`unexpected ${created.status}: ${await created.text()}`);
    const job = await created.json();
    expect(job.employer).toEqual({ id: employer.employerId, name: "Typed Client Ltd." });
    expect(job.status satisfies "active" | "archived" | "draft").toBe("active");

    const read = await jobs[":id"].$get({ param: { id: String(job.id) }, header: {} });
    if (read.status !== 200) throw new Error(`unexpected ${read.status}`);
    const again = await read.json();
    expect(again.title?.toUpperCase()).toBe("TYPED ENGINEER");
    expect(again.locations.map((location) => location.description)).toEqual(["Vancouver, BC"]);
    // @ts-expect-error — a Job has no `salaryAmount` member: the typo does not compile.
    expect(again.salaryAmount).toBeUndefined();
  });

  it("error statuses are part of the typed response union", async () => {
    const res = await client("test_wrong-key").api["v1.1"].jobs.$get({ query: {} });
    expect(res.status).toBe(401);
    if (res.status === 401) {
      const problem = await res.json();
      expect(problem.detail).toBe("The API key is not valid.");
    }
  });
});
