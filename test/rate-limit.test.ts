import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { API, createEmployer, problemOf } from "./support/api";

// These tests run the app with the low test limiters of test/vitest.config.ts in place of the
// dev ones (limit 5 job requests and 3 failed authentications per 60 s).
const JOB_LIMIT = 5;
const AUTH_FAILURE_LIMIT = 3;
const lowLimits = { ...env, JOB_RATE_LIMITER: env.TEST_LOW_JOB_RATE_LIMITER, AUTH_FAILURE_RATE_LIMITER: env.TEST_LOW_AUTH_FAILURE_RATE_LIMITER };

async function call(headers: Record<string, string>, bindings = lowLimits): Promise<Response> {
  return worker.fetch(new Request(`${API}/jobs`, { headers }), bindings, {} as ExecutionContext);
}

/**
 * Windows are fixed and aligned to the clock, so a boundary may fall between two requests:
 * 2 × limit + 1 requests span at most two windows and must therefore meet at least one 429.
 */
async function untilLimited(limit: number, headers: Record<string, string>): Promise<{ statuses: number[]; limited: Response }> {
  const statuses: number[] = [];
  for (let i = 0; i < 2 * limit + 1; i++) {
    const res = await call(headers);
    statuses.push(res.status);
    if (res.status === 429) return { statuses, limited: res };
    await res.body?.cancel();
  }
  throw new Error(`no 429 after ${statuses.length} requests: ${statuses.join(", ")}`);
}

/** The real job limiter, recording the key of every call. */
function recordingLimiter() {
  const keys: string[] = [];
  const recording: RateLimit = {
    limit: (options) => {
      keys.push(options.key);
      return env.JOB_RATE_LIMITER.limit(options);
    },
  };
  return { keys, recording };
}

describe("rate limiting (OWASP API4: unrestricted resource consumption)", () => {
  it("job requests beyond the per-key limit get 429 problem+json with Retry-After", async () => {
    const employer = await createEmployer();
    const { statuses, limited } = await untilLimited(JOB_LIMIT, { "API-Key": employer.apiKey });
    expect(statuses.length).toBeGreaterThan(JOB_LIMIT);
    expect(statuses.slice(0, -1)).not.toContain(429);
    expect(limited.headers.get("Content-Type")).toBe("application/problem+json");
    expect(limited.headers.get("Retry-After")).toBe("60");
    const problem = await problemOf(limited);
    expect(problem).toMatchObject({ type: "/problems/rate-limited", status: 429, title: expect.any(String), detail: expect.stringContaining("60 seconds") });
    expect(problem.requestId).toEqual(expect.any(String));
  });

  it("the job limit is per employer: one employer at its limit does not throttle another", async () => {
    const busy = await createEmployer();
    const quiet = await createEmployer();
    await (await untilLimited(JOB_LIMIT, { "API-Key": busy.apiKey })).limited.body?.cancel();
    const res = await call({ "API-Key": quiet.apiKey });
    expect(res.status).not.toBe(429);
  });

  it("the job limiter is keyed by employer id, never by the API key itself", async () => {
    const employer = await createEmployer();
    const { keys, recording } = recordingLimiter();
    const res = await call({ "API-Key": employer.apiKey }, { ...env, JOB_RATE_LIMITER: recording });
    expect(res.status).not.toBe(429);
    expect(keys).toEqual([`employer:${employer.employerId}`]);
    expect(keys.join()).not.toContain(employer.apiKey);
  });

  it("a POST overridden to PUT or DELETE counts once, like the request it stands for", async () => {
    const employer = await createEmployer();
    const { keys, recording } = recordingLimiter();
    const res = await worker.fetch(
      new Request(`${API}/jobs`, {
        method: "POST",
        headers: { "API-Key": employer.apiKey, "X-HTTP-Method-Override": "DELETE", "Content-Type": "application/json" },
        body: JSON.stringify({ referenceId: "none" }),
      }),
      { ...env, JOB_RATE_LIMITER: recording },
      {} as ExecutionContext,
    );
    expect(res.status).toBe(404);
    expect(keys).toEqual([`employer:${employer.employerId}`]);
  });

  it("failed authentications beyond the per-address limit get 429 instead of 401", async () => {
    const headers = { "API-Key": "not-a-key", "CF-Connecting-IP": "203.0.113.10" };
    const { statuses, limited } = await untilLimited(AUTH_FAILURE_LIMIT, headers);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.length).toBeGreaterThan(AUTH_FAILURE_LIMIT);
    expect(limited.headers.get("Retry-After")).toBe("60");
    expect(await problemOf(limited)).toMatchObject({ type: "/problems/rate-limited", status: 429 });
  });

  it("a missing API-Key counts as a failed authentication", async () => {
    const { statuses } = await untilLimited(AUTH_FAILURE_LIMIT, { "CF-Connecting-IP": "203.0.113.11" });
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
  });

  it("failed authentications from one address do not throttle another address", async () => {
    await (await untilLimited(AUTH_FAILURE_LIMIT, { "API-Key": "nope", "CF-Connecting-IP": "203.0.113.12" })).limited.body?.cancel();
    const res = await call({ "API-Key": "nope", "CF-Connecting-IP": "203.0.113.13" });
    expect(res.status).toBe(401);
  });

  it("a valid key is served even from an address that has used up its failed authentications", async () => {
    const employer = await createEmployer();
    const address = "203.0.113.14";
    await (await untilLimited(AUTH_FAILURE_LIMIT, { "API-Key": "nope", "CF-Connecting-IP": address })).limited.body?.cancel();
    const res = await call({ "API-Key": employer.apiKey, "CF-Connecting-IP": address });
    expect(res.status).not.toBe(429);
    expect(res.status).not.toBe(401);
  });

  it("reference data is not rate limited by the job limiter", async () => {
    const zero: RateLimit = { limit: async () => ({ success: false }) };
    const res = await worker.fetch(new Request(`${API}/positiontypes`), { ...env, JOB_RATE_LIMITER: zero, AUTH_FAILURE_RATE_LIMITER: zero }, {} as ExecutionContext);
    expect(res.status).toBe(200);
  });
});

describe("RateLimit-Policy (DESIGN 11)", () => {
  it("every job-API response carries RateLimit-Policy naming the employer's limit and window: 200, 201, 204, 400, 401, 404 and 429", async () => {
    const employer = await createEmployer();
    const policy = `"jobs";q=${env.JOB_RATE_LIMIT};w=60`;
    const send = (path: string, init: RequestInit = {}, bindings: typeof env = env) =>
      worker.fetch(new Request(`${API}${path}`, { ...init, headers: { "API-Key": employer.apiKey, ...init.headers } }), bindings, {} as ExecutionContext);
    const created = await send("/jobs", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ title: "x", locations: [{ description: "Regina, SK" }], categories: [{ id: 1 }] }),
    });
    const { id } = await created.clone().json<any>();
    const answers = [
      created,
      await send(`/jobs/${id}`),
      await send("/jobs?page=0"),
      await send("/jobs/2147483000"),
      await send("/jobs", { headers: { "API-Key": "nope" } }),
      await send(`/jobs/${id}`, { method: "DELETE" }),
    ];
    expect(answers.map((res) => res.status)).toEqual([201, 200, 400, 404, 401, 204]);
    for (const res of answers) expect(res.headers.get("RateLimit-Policy"), String(res.status)).toBe(policy);
    const { limited } = await untilLimited(JOB_LIMIT, { "API-Key": employer.apiKey });
    expect(limited.headers.get("RateLimit-Policy")).toBe(policy);
  });

  it("public reference data is not under the job limit and carries no RateLimit-Policy", async () => {
    const res = await worker.fetch(new Request(`${API}/positiontypes`), env, {} as ExecutionContext);
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Policy")).toBeNull();
  });
});
