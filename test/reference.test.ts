import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { API, request } from "./support/api";
import { countingD1 } from "./support/count-d1";

describe("smoke", () => {
  it("GET /api/v1.1/positiontypes answers 200", async () => {
    const res = await request("/positiontypes");
    expect(res.status).toBe(200);
  });
  it("counting wrapper counts a batch as one round trip", async () => {
    const counter = countingD1(env.DB);
    const res = await worker.fetch(new Request(`${API}/locations?q=x`), { ...env, DB: counter.db }, {} as ExecutionContext);
    expect(res.status).toBe(200);
    expect(counter.count()).toBe(1);
  });
});
