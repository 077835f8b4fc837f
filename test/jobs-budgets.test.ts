import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { API, createEmployer } from "./support/api";
import { countingD1 } from "./support/count-d1";
import { jobBody } from "./support/jobs";

// DESIGN 9: D1 round trips per operation (a batch counts as one).
const employer = await createEmployer();
const counter = countingD1(env.DB);

async function counted(path: string, init: { method?: string; json?: unknown } = {}) {
  const headers = new Headers({ "API-Key": employer.apiKey });
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  counter.reset();
  const afterAnswer: Promise<unknown>[] = [];
  const res = await worker.fetch(
    new Request(`${API}${path}`, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }),
    { ...env, DB: counter.db },
    { waitUntil: (work: Promise<unknown>) => void afterAnswer.push(work) } as unknown as ExecutionContext,
  );
  // The budget is what the answer waits for; the work after it (handing events over) is let
  // finish before the next request is counted.
  const trips = counter.count();
  await Promise.all(afterAnswer);
  return { res, trips, withAfterAnswer: counter.count() };
}

const full = jobBody({
  referenceId: "BUDGET-1",
  locations: [{ description: "Toronto, ON" }, { description: "Brand New Place, MB" }, { description: "Richmond" }],
  categories: [{ id: 1 }, { id: 2 }, { id: 3 }],
  salary: { amount: 50000, type: { id: 1 } },
  applicantRoutingType: { id: 1 },
  applicationEmail: "hr@acme.example",
});

describe("round-trip budgets (DESIGN 9)", () => {
  let id: number;

  it("POST: one round trip, plus one on a cold isolate for reference data", async () => {
    const cold = await counted("/jobs", { method: "POST", json: { ...full, referenceId: "BUDGET-0" } });
    expect(cold.res.status).toBe(201);
    expect(cold.trips).toBeLessThanOrEqual(2);
    const warm = await counted("/jobs", { method: "POST", json: full });
    expect(warm.res.status).toBe(201);
    expect(warm.trips).toBe(1);
    id = (await warm.res.json<any>()).id;
  });

  it("GET one job: 1", async () => {
    const { res, trips } = await counted(`/jobs/${id}`);
    expect(res.status).toBe(200);
    expect(trips).toBe(1);
  });

  it("list: 1, with and without filters", async () => {
    for (const query of ["", "?status=active&page=2&pageSize=5", "?q=budget", "?q=bu"]) {
      const { res, trips } = await counted(`/jobs${query}`);
      expect(res.status, query).toBe(200);
      expect(trips, query).toBe(1);
    }
  });

  it("PUT by id: at most 2, also when the lists change", async () => {
    const { res, trips } = await counted(`/jobs/${id}`, {
      method: "PUT",
      json: { title: "x", status: "active", locations: [{ description: "Ottawa, ON" }, { description: "Another New Place, PE" }], categories: [{ id: 4 }] },
    });
    expect(res.status).toBe(200);
    expect(trips).toBeLessThanOrEqual(2);
  });

  it("PUT by referenceId: at most 2 for update and for create", async () => {
    const update = await counted("/jobs", { method: "PUT", json: { referenceId: "BUDGET-1", title: "y" } });
    expect(update.res.status).toBe(200);
    expect(update.trips).toBeLessThanOrEqual(2);
    const create = await counted("/jobs", { method: "PUT", json: { ...full, referenceId: "BUDGET-2" } });
    expect(create.res.status).toBe(201);
    expect(create.trips).toBeLessThanOrEqual(2);
  });

  it("DELETE: 1, by id and by referenceId", async () => {
    expect((await counted(`/jobs/${id}`, { method: "DELETE" })).trips).toBe(1);
    const byReference = await counted("/jobs", { method: "DELETE", json: { referenceId: "BUDGET-2" } });
    expect(byReference.res.status).toBe(204);
    expect(byReference.trips).toBe(1);
  });

  it("a write's D1 calls, the work after its answer included, are its own: no second batch to mark its events handed over (DESIGN 22)", async () => {
    const created = await counted("/jobs", { method: "POST", json: jobBody({ referenceId: "ONE-BATCH", status: "active" }) });
    expect(created.withAfterAnswer).toBe(created.trips);
    const { id } = await created.res.json<{ id: number }>();
    const put = await counted(`/jobs/${id}`, { method: "PUT", json: { title: "One batch" } });
    expect(put.res.status).toBe(200);
    expect(put.withAfterAnswer).toBe(put.trips);
    const deleted = await counted(`/jobs/${id}`, { method: "DELETE" });
    expect(deleted.res.status).toBe(204);
    expect(deleted.withAfterAnswer).toBe(1);
  });
});
