import { describe, expect, it } from "vitest";
import { createEmployer, request } from "./support/api";
import { postJob } from "./support/jobs";

const alice = await createEmployer({ name: "Alice Inc." });
const bob = await createEmployer({ name: "Bob Corp." });

describe("tenant isolation (spec 5.3, DESIGN 5)", () => {
  it("another employer's job is 404 for GET, PUT, DELETE and override", async () => {
    const job = await postJob(alice, { referenceId: "SHARED" });
    const path = `/jobs/${job.id}`;
    expect((await request(path, { apiKey: bob.apiKey })).status).toBe(404);
    expect((await request(path, { method: "PUT", apiKey: bob.apiKey, json: { title: "hijack" } })).status).toBe(404);
    expect((await request(path, { method: "DELETE", apiKey: bob.apiKey })).status).toBe(404);
    expect((await request(path, { method: "POST", apiKey: bob.apiKey, headers: { "X-HTTP-Method-Override": "DELETE" } })).status).toBe(404);
    expect((await request("/jobs", { method: "DELETE", apiKey: bob.apiKey, json: { referenceId: "SHARED" } })).status).toBe(404);
    const still = await (await request(path, { apiKey: alice.apiKey })).json<any>();
    expect(still.title).toBe(job.title);
  });

  it("referenceIds never collide across employers", async () => {
    await postJob(alice, { referenceId: "SAME-REF" });
    const bobs = await postJob(bob, { referenceId: "SAME-REF" });
    expect(bobs.employer).toEqual({ id: bob.employerId, name: "Bob Corp." });
    const res = await request("/jobs", { method: "PUT", apiKey: bob.apiKey, json: { referenceId: "SAME-REF", title: "Bob's" } });
    expect(res.status).toBe(200);
    expect((await res.json<any>()).id).toBe(bobs.id);
  });

  it("the list shows only the caller's jobs", async () => {
    const list = await (await request("/jobs?pageSize=100", { apiKey: bob.apiKey })).json<any>();
    expect(list.data.length).toBeGreaterThan(0);
    for (const header of list.data) expect(header.employer.id).toBe(bob.employerId);
  });

  it("no key or an unknown key is 401", async () => {
    expect((await request("/jobs")).status).toBe(401);
    expect((await request("/jobs/1", { apiKey: "nope" })).status).toBe(401);
  });
});
