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

describe("CORS (DESIGN 11)", () => {
  const origin = { Origin: "https://board.example" };
  it("reference data and the OpenAPI document may be read from any origin, and their preflights are answered", async () => {
    for (const path of ["/positiontypes", "/jobcategories", "/salarytypes", "/applicantroutingtypes", "/locations?q=van", "/locations/1", "/openapi.json"]) {
      const res = await request(path, { headers: origin });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Access-Control-Allow-Origin"), path).toBe("*");
      const preflight = await request(path, {
        method: "OPTIONS",
        headers: { ...origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "Content-Type" },
        undocumented: true,
      });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(preflight.headers.get("Access-Control-Allow-Methods")).toBe("GET,POST,OPTIONS");
      expect(preflight.headers.get("Access-Control-Allow-Headers")).toBe("Content-Type");
    }
  });

  it("the job API answers no CORS request: no Access-Control-Allow-Origin on any answer, no preflight", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer);
    for (const res of [
      await request(`/jobs/${job.id}`, { apiKey: employer.apiKey, headers: origin }),
      await request("/jobs", { apiKey: employer.apiKey, headers: origin }),
      await request("/jobs", { headers: origin }),
    ]) {
      expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    }
    const preflight = await request("/jobs", {
      method: "OPTIONS",
      headers: { ...origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "API-Key, Content-Type" },
      undocumented: true,
    });
    expect(preflight.status).not.toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toBeNull();
  });
});
