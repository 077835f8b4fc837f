import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("migrations apply cleanly", () => {
  it("every migration in drizzle/ is recorded as applied", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual(env.TEST_MIGRATIONS.map((m) => m.name));
    expect(results.length).toBeGreaterThanOrEqual(2);
  });

  it("the database passes the checks D1 allows: quick_check and foreign_key_check", async () => {
    expect(await env.DB.prepare("PRAGMA quick_check").first()).toEqual({ quick_check: "ok" });
    expect((await env.DB.prepare("PRAGMA foreign_key_check").all()).results).toEqual([]);
  });

  it("reference data is seeded with stable ids", async () => {
    const count = (table: string) => env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>("n");
    expect(await count("position_types")).toBe(5);
    expect(await count("salary_types")).toBe(5);
    expect(await count("applicant_routing_types")).toBe(2);
    expect(await count("locations")).toBeGreaterThanOrEqual(513);
    expect(await env.DB.prepare("SELECT description FROM locations WHERE id = 14").first("description")).toBe("Toronto, ON");
  });
});
