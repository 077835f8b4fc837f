import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { API, createEmployer, request } from "./support/api";
import { postJob } from "./support/jobs";

// OWASP API8 (security misconfiguration): headers that make every client and cache treat
// responses as intended.
describe("security headers (OWASP API8)", () => {
  it("every response, errors included, carries X-Content-Type-Options: nosniff", async () => {
    const employer = await createEmployer();
    const responses = [
      await request("/positiontypes"),
      await request("/locations?pageSize=1000"),
      await request("/no-such-thing"),
      await request("/positiontypes", { method: "POST" }),
      await request("/jobs"),
      await request("/jobs", { apiKey: employer.apiKey }),
      await request("/jobs", { method: "POST", apiKey: employer.apiKey, body: "x".repeat(1024 * 1024 + 1) }),
      await request("/jobs", { method: "POST", apiKey: employer.apiKey, headers: { "X-HTTP-Method-Override": "DELETE" }, json: { referenceId: "none" } }),
    ];
    for (const res of responses) {
      expect(res.headers.get("X-Content-Type-Options"), `${res.status} ${res.url}`).toBe("nosniff");
      await res.body?.cancel();
    }
  });

  it("job responses are never cached (Cache-Control: no-store), whatever their status", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer);
    const zero: RateLimit = { limit: async () => ({ success: false }) };
    const responses = [
      await request(`/jobs/${job.id}`, { apiKey: employer.apiKey }),
      await request("/jobs", { apiKey: employer.apiKey }),
      await request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: { referenceId: "NS-1", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }] } }),
      await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey }),
      await request(`/jobs/${job.id}`, { apiKey: employer.apiKey }),
      await request("/jobs"),
      await worker.fetch(new Request(`${API}/jobs`, { headers: { "API-Key": employer.apiKey } }), { ...env, JOB_RATE_LIMITER: zero }, {} as ExecutionContext),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 201, 204, 404, 401, 429]);
    for (const res of responses) {
      expect(res.headers.get("Cache-Control"), String(res.status)).toBe("no-store");
      await res.body?.cancel();
    }
  });

  it("public reference data keeps its public cache policy", async () => {
    const res = await request("/positiontypes");
    expect(res.headers.get("Cache-Control")).toMatch(/^public/);
  });
});
