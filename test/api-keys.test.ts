import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_KEY_CACHE_TTL_MS, findApiKey, hashApiKey } from "../src/auth/api-keys";
import { createEmployer, request } from "./support/api";

const revoke = async (apiKey: string) => env.API_KEYS.delete(await hashApiKey(apiKey));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("API keys (OWASP API2: broken authentication)", () => {
  it("a revoked key that no isolate has cached is refused at once", async () => {
    const employer = await createEmployer();
    await revoke(employer.apiKey);
    const res = await request("/jobs", { apiKey: employer.apiKey });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toContain("API-Key");
  });

  it("within the 60 s cache window a revoked key is still accepted (the documented window)", async () => {
    const employer = await createEmployer();
    const t0 = 1_800_000_000_000;
    expect(await findApiKey(env.API_KEYS, employer.apiKey, t0)).toEqual({ employerId: employer.employerId });
    await revoke(employer.apiKey);
    expect(await findApiKey(env.API_KEYS, employer.apiKey, t0 + API_KEY_CACHE_TTL_MS - 1)).toEqual({ employerId: employer.employerId });
  });

  it("once the 60 s cache window has passed a revoked key is refused", async () => {
    const employer = await createEmployer();
    const t0 = 1_800_000_000_000;
    await findApiKey(env.API_KEYS, employer.apiKey, t0);
    await revoke(employer.apiKey);
    expect(API_KEY_CACHE_TTL_MS).toBe(60_000);
    expect(await findApiKey(env.API_KEYS, employer.apiKey, t0 + API_KEY_CACHE_TTL_MS)).toBeNull();
  });

  it("over HTTP, a revoked key works until the cache window ends and then gets 401", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-21T12:00:00Z"));
    const employer = await createEmployer();
    expect((await request("/jobs", { apiKey: employer.apiKey })).status).not.toBe(401);
    await revoke(employer.apiKey);
    vi.setSystemTime(new Date("2026-11-21T12:00:59Z"));
    expect((await request("/jobs", { apiKey: employer.apiKey })).status).not.toBe(401);
    vi.setSystemTime(new Date("2026-11-21T12:01:00Z"));
    expect((await request("/jobs", { apiKey: employer.apiKey })).status).toBe(401);
  });

  it("an unknown key is not cached: a key stored a moment after a failed attempt works at once", async () => {
    const employer = await createEmployer();
    const apiKey = `test_${crypto.randomUUID()}`;
    expect((await request("/jobs", { apiKey })).status).toBe(401);
    await env.API_KEYS.put(await hashApiKey(apiKey), JSON.stringify({ employerId: employer.employerId }));
    expect((await request("/jobs", { apiKey })).status).not.toBe(401);
  });

  it("keys are compared by SHA-256 hash only: a KV entry named by the clear key does not authenticate", async () => {
    const employer = await createEmployer();
    const apiKey = `test_${crypto.randomUUID()}`;
    await env.API_KEYS.put(apiKey, JSON.stringify({ employerId: employer.employerId }));
    expect((await request("/jobs", { apiKey })).status).toBe(401);
  });

  it("a KV entry that is not a valid record does not authenticate", async () => {
    for (const value of ['{"employerId":"1"}', '{"employerId":0}', '{"employerId":1.5}', "null", "[]", "{}"]) {
      const apiKey = `test_${crypto.randomUUID()}`;
      await env.API_KEYS.put(await hashApiKey(apiKey), value);
      expect((await request("/jobs", { apiKey })).status, value).toBe(401);
    }
  });

  it("an over-long API-Key is refused with 401, like any unknown key", async () => {
    const res = await request("/jobs", { apiKey: "k".repeat(10_000) });
    expect(res.status).toBe(401);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
  });

  it("keys never appear in logs or in response bodies", async () => {
    const lines: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    }
    const employer = await createEmployer();
    const unknown = `test_${crypto.randomUUID()}`;
    const bodies = await Promise.all(
      [
        request("/jobs", { apiKey: employer.apiKey }),
        request("/jobs", { apiKey: unknown }),
        request("/jobs/1", { apiKey: unknown, method: "DELETE" }),
        request("/jobs", { apiKey: employer.apiKey, method: "POST", headers: { "Content-Type": "application/json" }, body: "{" }),
      ].map(async (p) => (await p).text()),
    );
    for (const text of [...lines, ...bodies]) {
      expect(text).not.toContain(employer.apiKey);
      expect(text).not.toContain(unknown);
    }
  });
});
