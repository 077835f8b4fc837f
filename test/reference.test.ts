import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("smoke", () => {
  it("GET /api/v1.1/positiontypes answers 200", async () => {
    const res = await exports.default.fetch("http://example.com/api/v1.1/positiontypes");
    expect(res.status).toBe(200);
  });
});
