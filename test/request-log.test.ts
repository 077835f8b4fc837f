import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { createEmployer, request, type TestEmployer } from "./support/api";
import { jobBody } from "./support/jobs";
import { openApiDocument } from "./support/openapi-document";

let log: MockInstance<typeof console.log>;
let employer: TestEmployer;

beforeEach(async () => {
  employer ??= await createEmployer();
  // The contract check fetches the document once per file; not a request under test.
  await openApiDocument();
  log = vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => log.mockRestore());

/** The request lines logged since the spy started, parsed. */
function requestLines(): Record<string, unknown>[] {
  return log.mock.calls
    .map(([line]) => (typeof line === "string" && line.startsWith("{") ? JSON.parse(line) : null))
    .filter((entry) => entry?.message === "request");
}

describe("structured request log: one JSON line per request", () => {
  it("logs request id, method, route pattern, status, duration and the employer id", async () => {
    const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody() });
    expect(res.status).toBe(201);
    const lines = requestLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      level: "info",
      message: "request",
      requestId: res.headers.get("X-Request-Id"),
      method: "POST",
      route: "/api/v1.1/jobs",
      path: "/api/v1.1/jobs",
      status: 201,
      durationMs: expect.any(Number),
      employerId: employer.employerId,
    });
  });

  it("logs the route pattern, not the concrete path, for a path with an id", async () => {
    await request("/locations/1");
    expect(requestLines()[0]).toMatchObject({ method: "GET", route: "/api/v1.1/locations/:id", path: "/api/v1.1/locations/1", status: 200 });
    expect(requestLines()[0]).not.toHaveProperty("employerId");
  });

  it("logs error responses too: 401, 404 of another employer's job, unknown path, 405", async () => {
    const other = await createEmployer();
    await request("/jobs", { apiKey: "test_not-a-real-key" });
    await request("/jobs/999999", { apiKey: other.apiKey });
    await request("/no-such-thing");
    await request("/positiontypes", { method: "DELETE" });
    expect(requestLines().map(({ route, status }) => [route, status])).toEqual([
      ["/api/v1.1/jobs", 401],
      ["/api/v1.1/jobs/:id", 404],
      [null, 404],
      [null, 405],
    ]);
    expect(requestLines()[1].employerId).toBe(other.employerId);
  });

  it("never logs the API key, the body or the query string", async () => {
    const secretTitle = "Title-that-must-not-be-logged";
    await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ title: secretTitle }) });
    await request("/jobs?q=query-that-must-not-be-logged", { apiKey: employer.apiKey });
    await request("/jobs", { apiKey: "test_wrong-key-that-must-not-be-logged" });
    const everything = JSON.stringify(log.mock.calls);
    expect(requestLines()).toHaveLength(3);
    for (const secret of [employer.apiKey, "wrong-key-that-must-not-be-logged", secretTitle, "query-that-must-not-be-logged"]) {
      expect(everything).not.toContain(secret);
    }
  });
});
