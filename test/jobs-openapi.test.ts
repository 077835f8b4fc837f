import { describe, expect, it } from "vitest";
import { request } from "./support/api";

describe("OpenAPI document: job operations", () => {
  it("documents every job operation with its success and error responses", async () => {
    const res = await request("/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json<any>();
    const jobs = doc.paths["/api/v1.1/jobs"];
    const job = doc.paths["/api/v1.1/jobs/{id}"];
    expect(Object.keys(jobs).sort()).toEqual(["delete", "get", "post", "put"]);
    expect(Object.keys(job).sort()).toEqual(["delete", "get", "put"]);
    expect(Object.keys(jobs.post.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "409", "415"]));
    expect(jobs.post.responses["201"].headers.Location).toBeDefined();
    expect(Object.keys(jobs.put.responses)).toEqual(expect.arrayContaining(["200", "201"]));
    expect(job.put.security).toEqual([{ ApiKey: [] }]);
    expect(JSON.stringify(doc.components.schemas.Job)).toContain("applicantRoutingType");
    expect(doc.components.schemas.JobInput.properties.closeDate).toBeDefined();
  });
});
