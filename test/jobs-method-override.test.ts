import { describe, expect, it } from "vitest";
import { createEmployer, request } from "./support/api";
import { postJob } from "./support/jobs";

const employer = await createEmployer();
const OVERRIDE = "X-HTTP-Method-Override";

describe("method override (spec 4.6)", () => {
  it("POST + X-HTTP-Method-Override: PUT updates the job", async () => {
    const job = await postJob(employer);
    const res = await request(`/jobs/${job.id}`, { method: "POST", apiKey: employer.apiKey, headers: { [OVERRIDE]: "PUT" }, json: { title: "Overridden" } });
    expect(res.status).toBe(200);
    expect((await res.json<any>()).title).toBe("Overridden");
  });

  it("POST + X-HTTP-Method-Override: DELETE deletes, also by referenceId", async () => {
    const job = await postJob(employer, { referenceId: "OVR-1" });
    const byId = await postJob(employer);
    expect((await request(`/jobs/${byId.id}`, { method: "POST", apiKey: employer.apiKey, headers: { [OVERRIDE]: "delete" } })).status).toBe(204);
    const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, headers: { [OVERRIDE]: "DELETE" }, json: { referenceId: "OVR-1" } });
    expect(res.status).toBe(204);
    expect((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).status).toBe(404);
  });

  it("the header on a non-POST is ignored", async () => {
    const job = await postJob(employer);
    const res = await request(`/jobs/${job.id}`, { method: "GET", apiKey: employer.apiKey, headers: { [OVERRIDE]: "DELETE" } });
    expect(res.status).toBe(200);
    expect((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).status).toBe(200);
  });

  it("other values are ignored: the request stays a POST", async () => {
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      headers: { [OVERRIDE]: "PATCH" },
      json: { title: "Made by POST", locations: [{ description: "Regina, SK" }], categories: [{ id: 1 }] },
    });
    expect(res.status).toBe(201);
  });
});
