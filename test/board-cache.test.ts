import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { API, createEmployer, problemOf, request } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";

// DESIGN 14, the board's cache-miss path (src/board/cache.ts): the limiter asked alongside the
// cache lookup, the answer's bytes read once for the ETag, the answer and the cache's copy.

const employer = await createEmployer({ name: "Board Cache Ltd." });
let unique = 0;
/** A board address not requested before: `t` is ignored by the API. */
const fresh = (path: string) => `${API}/board${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;

/** One board request to the Worker, its work after the answer (the cache's put) finished before it returns. */
async function call(url: string, headers: Record<string, string> = {}, bindings: typeof env = env): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, { headers }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The board's limiter, recording the key of every call. */
function recordingLimiter() {
  const keys: string[] = [];
  const recording: RateLimit = {
    limit: (options) => {
      keys.push(options.key);
      return env.BOARD_RATE_LIMITER.limit(options);
    },
  };
  return { keys, recording };
}

describe("the board's cache and limiter (DESIGN 14)", () => {
  it("a repeat comes from the cache, byte for byte, with the miss's ETag; If-None-Match gets a 304 on a hit and on a miss", async () => {
    // A search (a job's address would also count a view, whose sending waits seconds after the answer).
    const tag = `zc${Math.random().toString(36).slice(2, 8)}`;
    const job = await postJob(employer, { title: `Cached once ${tag}`, status: "active" });
    await settleBoard();
    const search = `/jobs?q=${tag}`;
    const titleOf = async (res: Response) => (await res.json<any>()).data.map((item: any) => item.title);
    const path = fresh(search);
    const first = await call(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"b[0-9a-f]{24}"$/);
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=60");
    const text = await first.text();
    expect(JSON.parse(text).data.map((item: any) => item.title)).toEqual([`Cached once ${tag}`]);

    await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: `Changed since ${tag}` } });
    await settleBoard();
    // The repeat: the cache's copy of the first answer (up to 60 s old), the same bytes and ETag.
    const repeat = await call(path);
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get("ETag")).toBe(etag);
    expect(repeat.headers.get("Cache-Control")).toBe("public, max-age=60");
    expect(await repeat.text()).toBe(text);
    const hit304 = await call(path, { "If-None-Match": etag });
    expect(hit304.status).toBe(304);
    expect(hit304.headers.get("ETag")).toBe(etag);
    expect(hit304.headers.get("Cache-Control")).toBe("public, max-age=60");

    // A new address answers the current state; sent with its ETag, a miss is a 304 too, and the
    // cache keeps the whole answer for the next repeat.
    const current = await call(fresh(search));
    const currentEtag = current.headers.get("ETag")!;
    expect(currentEtag).not.toBe(etag);
    expect(await titleOf(current)).toEqual([`Changed since ${tag}`]);
    const other = fresh(search);
    const miss304 = await call(other, { "If-None-Match": `W/${currentEtag}` });
    expect(miss304.status).toBe(304);
    expect(miss304.headers.get("ETag")).toBe(currentEtag);
    const afterIt = await call(other);
    expect(afterIt.status).toBe(200);
    expect(afterIt.headers.get("ETag")).toBe(currentEtag);
    expect(await titleOf(afterIt)).toEqual([`Changed since ${tag}`]);
  });

  it("the limiter is asked once per request, keyed by the client's address, on a miss, a hit and a 304 alike", async () => {
    const { keys, recording } = recordingLimiter();
    const bindings = { ...env, BOARD_RATE_LIMITER: recording };
    const headers = { "CF-Connecting-IP": "198.51.100.40" };
    const path = fresh("/jobs?pageSize=5");
    const miss = await call(path, headers, bindings);
    const hit = await call(path, headers, bindings);
    const notModified = await call(path, { ...headers, "If-None-Match": miss.headers.get("ETag")! }, bindings);
    expect([miss.status, hit.status, notModified.status]).toEqual([200, 200, 304]);
    expect(keys).toEqual(Array(3).fill("address:198.51.100.40"));
  });

  it("past its limit an address gets 429 with Retry-After, for an address the cache holds too; another address does not", async () => {
    // The test limiter allows 5 a minute; windows are aligned to the clock, so 2 × 5 + 1 requests
    // meet at least one 429 even when a window ends between two of them.
    const limited = { ...env, BOARD_RATE_LIMITER: env.TEST_LOW_JOB_RATE_LIMITER };
    const headers = { "CF-Connecting-IP": "198.51.100.41" };
    const path = fresh("/jobs?pageSize=5");
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 11 && !refused; i++) {
      const res = await call(path, headers, limited);
      statuses.push(res.status);
      if (res.status === 429) refused = res;
      else await res.body?.cancel();
    }
    // The first a miss, the others repeats the cache holds: all count, and the last is refused.
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(refused!.headers.get("Retry-After")).toBe("60");
    expect(await problemOf(refused!)).toMatchObject({ type: "/problems/rate-limited", status: 429 });
    const elsewhere = await call(path, { "CF-Connecting-IP": "198.51.100.42" }, limited);
    expect(elsewhere.status).toBe(200);
  });
});
