import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request } from "./support/api";

const ONE_MIB = 1024 * 1024;

describe("problem+json errors and request ids (DESIGN 5)", () => {
  it("an unknown path is a 404 problem", async () => {
    const res = await request("/api/v1.1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect(await problemOf(res)).toMatchObject({
      type: "/problems/not-found",
      title: "Not found.",
      status: 404,
      instance: "/api/v1.1/nothing-here",
    });
  });

  it("a method the path does not allow is a 405 with Allow", async () => {
    const res = await request("/positiontypes", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, HEAD");
    expect(await problemOf(res)).toMatchObject({ status: 405, type: "/problems/method-not-allowed" });
  });

  it("every response carries X-Request-Id, and problems quote it", async () => {
    const ok = await request("/positiontypes");
    expect(ok.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await request("/api/v1.1/nothing-here");
    const id = failed.headers.get("X-Request-Id");
    expect(id).toBeTruthy();
    expect((await problemOf(failed)).requestId).toBe(id);
  });

  it("a well-formed incoming X-Request-Id is kept; a malformed one is replaced", async () => {
    const kept = await request("/positiontypes", { headers: { "X-Request-Id": "client-trace-42" } });
    expect(kept.headers.get("X-Request-Id")).toBe("client-trace-42");
    const replaced = await request("/positiontypes", { headers: { "X-Request-Id": "bad id <script>" } });
    expect(replaced.headers.get("X-Request-Id")).not.toBe("bad id <script>");
  });
});

describe("body limit (DESIGN 5: larger than 1 MiB → 413)", () => {
  it("a body of 1 MiB + 1 byte is a 413 problem", async () => {
    const { apiKey } = await createEmployer();
    const res = await request("/jobs", {
      method: "POST",
      apiKey,
      headers: { "Content-Type": "application/json" },
      body: "x".repeat(ONE_MIB + 1),
    });
    expect(res.status).toBe(413);
    expect(await problemOf(res)).toMatchObject({ status: 413, type: "/problems/payload-too-large" });
  });

  it("a body of exactly 1 MiB is not refused for its size", async () => {
    const { apiKey } = await createEmployer();
    const res = await request("/jobs", {
      method: "POST",
      apiKey,
      headers: { "Content-Type": "application/json" },
      body: `{"title":"${"x".repeat(ONE_MIB - 12)}"}`,
    });
    expect(res.status).not.toBe(413);
    expect(res.status).toBeLessThan(500);
  });

  it("a chunked body over 1 MiB (no Content-Length) is a 413", async () => {
    const { apiKey } = await createEmployer();
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > ONE_MIB) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await request("/jobs", { method: "POST", apiKey, headers: { "Content-Type": "application/json" }, body });
    expect(res.status).toBe(413);
  });
});

describe("method override (spec 4.6)", () => {
  it("POST with X-HTTP-Method-Override: DELETE is handled as DELETE", async () => {
    const res = await request("/positiontypes", { method: "POST", headers: { "X-HTTP-Method-Override": "DELETE" } });
    expect(res.status).toBe(405);
    expect((await problemOf(res)).detail).toMatch(/^DELETE is not allowed/);
  });

  it("the header is ignored when the original method is not POST", async () => {
    const res = await request("/positiontypes", { method: "GET", headers: { "X-HTTP-Method-Override": "DELETE" } });
    expect(res.status).toBe(200);
  });

  it("values other than PUT or DELETE are ignored", async () => {
    const res = await request("/positiontypes", { method: "POST", headers: { "X-HTTP-Method-Override": "GET" } });
    expect(res.status).toBe(405);
    expect((await problemOf(res)).detail).toMatch(/^POST is not allowed/);
  });

  it("the override is read from the header only, not the query string", async () => {
    const res = await request("/positiontypes?_method=DELETE&X-HTTP-Method-Override=DELETE", { method: "POST" });
    expect((await problemOf(res)).detail).toMatch(/^POST is not allowed/);
  });
});
