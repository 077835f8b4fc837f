import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, request } from "./support/api";
import { postJob } from "./support/jobs";

const employer = await createEmployer();

describe("DELETE (spec 4.4)", () => {
  it("by id: 204 with no body, then the job is gone", async () => {
    const job = await postJob(employer);
    const res = await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).status).toBe(404);
    expect((await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey })).status).toBe(404);
  });

  it("by referenceId in the body: 204, and the referenceId is free again", async () => {
    await postJob(employer, { referenceId: "DEL-1" });
    const res = await request("/jobs", { method: "DELETE", apiKey: employer.apiKey, json: { referenceId: "DEL-1" } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    await postJob(employer, { referenceId: "DEL-1" });
  });

  it("an unknown referenceId is 404; a body without one is 400", async () => {
    expect((await request("/jobs", { method: "DELETE", apiKey: employer.apiKey, json: { referenceId: "nope" } })).status).toBe(404);
    expect((await request("/jobs", { method: "DELETE", apiKey: employer.apiKey, json: {} })).status).toBe(400);
  });

  it("link rows go with the job (D1 enforces ON DELETE CASCADE)", async () => {
    const job = await postJob(employer, { categories: [{ id: 1 }, { id: 2 }] });
    await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey });
    const links = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM job_locations WHERE job_id = ?1) + (SELECT count(*) FROM job_categories WHERE job_id = ?1) AS n",
    )
      .bind(job.id)
      .first<{ n: number }>();
    expect(links!.n).toBe(0);
  });
});
