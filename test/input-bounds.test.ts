import { beforeAll, describe, expect, it } from "vitest";
import { createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { jobBody } from "./support/jobs";

// DESIGN.md 6b: a JSON body nested deeper than 64 levels is a 400, and so is a string holding an
// unpaired surrogate, naming its member. Both are checked where every JSON body is read, before
// anything (validation, the Idempotency-Key's hash, the cleaner) walks it.

const MAX_DEPTH = 64;

let employer: TestEmployer;
beforeAll(async () => {
  employer = await createEmployer();
});

/** `levels` objects within each other (`{"a": {"a": … 1}}`); 0 levels is the number 1. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}
/** A job body whose ignored member `extra` makes the body `depth` levels deep (the body itself is the first). */
const jobOfDepth = (depth: number, overrides: Record<string, unknown> = {}) => jobBody({ extra: nested(depth - 1), ...overrides });
/** Where `nested` goes past 64 levels when its first object, `member`, is at level `level`. */
const tooDeepAt = (member: string, level: number) => member + ".a".repeat(MAX_DEPTH + 1 - level);

const post = (json: unknown, headers: Record<string, string> = {}) =>
  request("/jobs", { method: "POST", apiKey: employer.apiKey, json, headers });
const sync = (json: unknown) => request("/jobs/batch", { method: "POST", apiKey: employer.apiKey, json });

async function expectFields(res: Response, fields: string[]): Promise<{ field: string; message: string }[]> {
  expect(res.status).toBe(400);
  const problem = await problemOf(res);
  expect(problem.errors?.map((e) => e.field)).toEqual(fields);
  return problem.errors!;
}

describe("a JSON body nested deeper than 64 levels is a 400", () => {
  it("POST /jobs: 64 levels are accepted, 65 are a 400 naming the member where it goes too deep", async () => {
    expect((await post(jobOfDepth(MAX_DEPTH))).status).toBe(201);
    const [error] = await expectFields(await post(jobOfDepth(MAX_DEPTH + 1)), [tooDeepAt("extra", 2)]);
    expect(error.message).toMatch(/deeper than 64 levels/);
  });

  it("arrays count as levels too: 65 levels of arrays are a 400", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_DEPTH - 1; i++) deep = [deep];
    expect((await post(jobBody({ extra: deep }))).status).toBe(201);
    await expectFields(await post(jobBody({ extra: [deep] })), [`extra${"[0]".repeat(MAX_DEPTH - 1)}`]);
  });

  it("POST /jobs/batch: an entry 64 levels deep (in the body) is accepted, 65 are a 400 for the request", async () => {
    // The body, `upsert`, the entry: the entry's `extra` starts at level 4.
    const entry = (depth: number) => ({ referenceId: `DEEP-${depth}`, ...jobBody({ extra: nested(depth - 3) }) });
    const ok = await sync({ upsert: [entry(MAX_DEPTH)] });
    expect(ok.status).toBe(200);
    expect((await ok.json<any>()).results[0].status).toBe(201);
    await expectFields(await sync({ upsert: [entry(MAX_DEPTH + 1)] }), [tooDeepAt("upsert[0].extra", 4)]);
  });

  it("POST and PUT /webhooks: 65 levels are a 400", async () => {
    const body = (depth: number) => ({ url: "https://receiver.example/hooks", extra: nested(depth - 1) });
    const created = await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: body(MAX_DEPTH) });
    expect(created.status).toBe(201);
    const { id } = await created.json<any>();
    await expectFields(await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: body(MAX_DEPTH + 1) }), [
      tooDeepAt("extra", 2),
    ]);
    await expectFields(await request(`/webhooks/${id}`, { method: "PUT", apiKey: employer.apiKey, json: body(MAX_DEPTH + 1) }), [
      tooDeepAt("extra", 2),
    ]);
  });

  it("an ignored member nested 100 000 deep with an Idempotency-Key is a 400, not a 500, and nothing is written", async () => {
    const body = JSON.stringify(jobBody({ referenceId: "DEEP-100000" })).replace(/}$/, `,"extra":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      headers: { "Content-Type": "application/json", "Idempotency-Key": "deep-100000" },
      body,
    });
    await expectFields(res, [`extra${"[0]".repeat(MAX_DEPTH - 1)}`]);
    const list = await (await request("/jobs?q=DEEP-100000", { apiKey: employer.apiKey })).json<any>();
    expect(list.paging.total).toBe(0);
  });
});

describe("a string holding an unpaired surrogate is a 400 naming its member", () => {
  it("referenceId with a lone \\ud800: 400 on referenceId (it would come back changed)", async () => {
    const [error] = await expectFields(await post(jobBody({ referenceId: "REF-\ud800" })), ["referenceId"]);
    expect(error.message).toMatch(/unpaired surrogate/);
  });

  it("a lone low surrogate in title, and one in a location's description, are both named", async () => {
    const body = jobBody({ title: "Chef \udc00", locations: [{ description: "Vancouver, BC" }, { description: "Victoria\ud83d, BC" }] });
    await expectFields(await post(body), ["title", "locations[1].description"]);
  });

  it("PUT /jobs (by referenceId) refuses it too", async () => {
    const res = await request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: jobBody({ referenceId: "PUT-1", title: "\udfff" }) });
    await expectFields(res, ["title"]);
  });

  it("a batch entry: 400 naming upsert[3].title", async () => {
    const upsert = [0, 1, 2, 3].map((i) => ({ referenceId: `SUR-${i}`, ...jobBody({ title: i === 3 ? "a\ud800b" : "Fine" }) }));
    await expectFields(await sync({ upsert }), ["upsert[3].title"]);
  });

  it("in an ignored member, in an array item and in a member name: each named", async () => {
    const body = JSON.stringify(jobBody()).replace(/}$/, ',"notes":["ok","\\ud800"],"x\\udc00":1}');
    const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, headers: { "Content-Type": "application/json" }, body });
    // In document order: the body (its member name) before its members.
    const errors = await expectFields(res, ["body", "notes[1]"]);
    expect(errors[0].message).toMatch(/member name/);
  });

  it("a webhook description with a lone surrogate: 400 on description", async () => {
    const res = await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: { url: "https://receiver.example/hooks", description: "\ud800" } });
    await expectFields(res, ["description"]);
  });

  it("a valid surrogate pair (an emoji) is accepted and comes back unchanged", async () => {
    const res = await post(jobBody({ referenceId: "REF-😀", title: "Chef 🍳", description: "<p>Great team 🎉</p>" }));
    expect(res.status).toBe(201);
    const job = await res.json<any>();
    expect([job.referenceId, job.title, job.description]).toEqual(["REF-😀", "Chef 🍳", "<p>Great team 🎉</p>"]);
    const found = await (await request(`/jobs?q=${encodeURIComponent("REF-😀")}`, { apiKey: employer.apiKey })).json<any>();
    expect(found.data.map((j: any) => j.id)).toEqual([job.id]);
  });
});

describe("a lone surrogate cannot come through a query parameter", () => {
  it("q=%ED%A0%80 (a UTF-8-encoded surrogate, invalid UTF-8) is answered, not a 500", async () => {
    const jobs = await request("/jobs?q=%ED%A0%80", { apiKey: employer.apiKey });
    expect(jobs.status).toBe(200);
    expect((await jobs.json<any>()).data).toEqual([]);
    const board = await request("/board/jobs?q=%ED%A0%80");
    expect(board.status).toBe(200);
  });
});
