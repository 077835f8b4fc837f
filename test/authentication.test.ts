import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { API_KEY_CACHE_TTL_MS, findApiKey, hashApiKey } from "../src/auth/api-keys";
import { createEmployer, problemOf, request } from "./support/api";

// Any job path exercises the authentication middleware; 404 means "authenticated, no such job".
const JOB_PATH = "/jobs/2147483647";

describe("authentication (spec 5, DESIGN 7)", () => {
  it("a missing API-Key is a 401 problem with WWW-Authenticate", async () => {
    const res = await request(JOB_PATH);
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^API-Key/);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect(await problemOf(res)).toMatchObject({ status: 401, type: "/problems/unauthorized" });
  });

  it("an unknown API-Key is a 401 problem", async () => {
    const res = await request(JOB_PATH, { apiKey: "jpa_not-a-real-key" });
    expect(res.status).toBe(401);
    expect((await problemOf(res)).detail).toMatch(/not valid/);
  });

  it("a valid API-Key is accepted", async () => {
    const { apiKey } = await createEmployer();
    const res = await request(JOB_PATH, { apiKey });
    expect(res.status).toBe(404);
  });

  it("a revoked key (KV entry deleted) is refused", async () => {
    const { apiKey } = await createEmployer();
    await env.API_KEYS.delete(await hashApiKey(apiKey));
    expect((await request(JOB_PATH, { apiKey })).status).toBe(401);
  });

  it("keys are stored only as their SHA-256 hash", async () => {
    const { apiKey, employerId } = await createEmployer();
    expect(await env.API_KEYS.get(apiKey)).toBeNull();
    expect(await env.API_KEYS.get(await hashApiKey(apiKey), "json")).toEqual({ employerId });
    expect(await hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("a key is cached for at most 60 s: a revoked key stops working once the window has passed", async () => {
    const { apiKey, employerId } = await createEmployer();
    const start = Date.now();
    expect(await findApiKey(env.API_KEYS, apiKey, start)).toEqual({ employerId });
    await env.API_KEYS.delete(await hashApiKey(apiKey));
    expect(await findApiKey(env.API_KEYS, apiKey, start + API_KEY_CACHE_TTL_MS - 1)).toEqual({ employerId });
    expect(await findApiKey(env.API_KEYS, apiKey, start + API_KEY_CACHE_TTL_MS)).toBeNull();
  });

  it("reference data needs no key", async () => {
    expect((await request("/positiontypes")).status).toBe(200);
  });
});
