import { describe, expect, it } from "vitest";
import { BASE, request } from "./support/api";

describe("GET /docs (API reference page)", () => {
  it("is public HTML that loads the reference from this deployment's OpenAPI document", async () => {
    const res = await request(`${BASE}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('data-url="/api/v1.1/openapi.json"');
    expect(html).toContain('<script src="/docs/scalar/standalone.js"></script>');
  });

  it("references nothing outside its own origin and turns off Scalar's external fonts and telemetry", async () => {
    const res = await request(`${BASE}/docs`);
    const html = await res.text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const configuration = JSON.parse(html.match(/data-configuration="([^"]*)"/)![1].replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
    expect(configuration).toMatchObject({ withDefaultFonts: false, telemetry: false });
    expect(configuration).not.toHaveProperty("proxyUrl");
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
  });
});
