import { describe, expect, it } from "vitest";
import { API, BASE, request } from "./support/api";
import { assertMatchesContract } from "./support/contract";

// Synthetic responses, shaped as the Worker's (every documented response carries X-Request-Id).
const json = (body: unknown) => Response.json(body, { headers: { "X-Request-Id": "r" } });
const problem = (status: number) =>
  new Response(
    JSON.stringify({ type: "/problems/x", title: "X.", status, detail: "X.", instance: "/", requestId: "r" }),
    { status, headers: { "Content-Type": "application/problem+json", "X-Request-Id": "r" } },
  );

describe("contract check applied to every response the suite receives", () => {
  it("accepts a documented status whose body matches the documented schema", async () => {
    const res = json({ data: [{ id: 1, name: "Full Time" }] });
    await expect(assertMatchesContract(new Request(`${API}/positiontypes`), res)).resolves.toBeUndefined();
  });

  it("rejects a body that does not match the schema, naming the member", async () => {
    const res = json({ data: [{ id: "1", name: "Full Time" }] });
    await expect(assertMatchesContract(new Request(`${API}/positiontypes`), res)).rejects.toThrow(
      /GET \/api\/v1\.1\/positiontypes → 200: the application\/json body does not match its schema:[\s\S]*at #\/data\/0\/id/,
    );
  });

  it("rejects a status the operation does not document", async () => {
    await expect(assertMatchesContract(new Request(`${API}/positiontypes`), problem(409))).rejects.toThrow(
      /status 409 is not documented for GET \/api\/v1\.1\/positiontypes/,
    );
  });

  it("rejects a response without a required documented header", async () => {
    const res = Response.json({ data: [] });
    await expect(assertMatchesContract(new Request(`${API}/positiontypes`), res)).rejects.toThrow(/required header X-Request-Id is missing/);
  });

  it("rejects an undocumented media type", async () => {
    const res = new Response("<p>hi</p>", { headers: { "Content-Type": "text/html", "X-Request-Id": "r" } });
    await expect(assertMatchesContract(new Request(`${API}/positiontypes`), res)).rejects.toThrow(/Content-Type "text\/html" is not documented/);
  });

  it("an unknown path may only answer 404 problem+json", async () => {
    const res = await request("/no-such-resource");
    expect(res.status).toBe(404);
    await expect(assertMatchesContract(new Request(`${API}/no-such-resource`), json({}))).rejects.toThrow(
      /not in the OpenAPI document, so only a 404 may answer/,
    );
  });

  it("a method the path does not document may only answer 405 problem+json", async () => {
    const res = await request("/positiontypes", { method: "DELETE" });
    expect(res.status).toBe(405);
    await expect(assertMatchesContract(new Request(`${API}/positiontypes`, { method: "DELETE" }), problem(404))).rejects.toThrow(
      /DELETE is not documented for \/api\/v1\.1\/positiontypes .*only a 405 may answer/,
    );
  });

  it("follows X-HTTP-Method-Override on POST when picking the operation", async () => {
    const overridden = new Request(`${API}/positiontypes`, { method: "POST", headers: { "X-HTTP-Method-Override": "DELETE" } });
    await expect(assertMatchesContract(overridden, problem(405))).resolves.toBeUndefined();
    await expect(assertMatchesContract(overridden, problem(404))).rejects.toThrow(/POST \(as DELETE\)/);
  });

  it("the document itself and the /docs page must answer 200 with their media type", async () => {
    expect((await request(`${BASE}/api/v1.1/openapi.json`)).status).toBe(200);
    expect((await request(`${BASE}/docs`)).status).toBe(200);
    await expect(assertMatchesContract(new Request(`${BASE}/docs`), json({}))).rejects.toThrow(/expected 200 text\/html/);
  });

  it("`undocumented: true` is the escape hatch for a request that breaks the document on purpose", async () => {
    // DELETE /jobs/{id} documents no body, hence no 413; a 2 MiB body gets one anyway.
    const init = { method: "DELETE", apiKey: "test_any", body: "x".repeat(2 * 1024 * 1024) };
    await expect(request("/jobs/1", init)).rejects.toThrow(/status 413 is not documented for DELETE \/api\/v1\.1\/jobs\/\{id\}/);
    expect((await request("/jobs/1", { ...init, undocumented: true })).status).toBe(413);
  });
});
