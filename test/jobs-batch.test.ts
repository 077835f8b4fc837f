import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { API, createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { documentAdmits } from "./support/contract";
import { countingD1 } from "./support/count-d1";
import { interleavedD1, requestWith } from "./support/d1-proxies";
import { jobBody, postJob } from "./support/jobs";

// DESIGN 12: POST /api/v1.1/jobs/batch.

const sync = (who: TestEmployer, json: unknown, query = "", headers: Record<string, string> = {}) =>
  request(`/jobs/batch${query}`, { method: "POST", apiKey: who.apiKey, json, headers });

const entry = (referenceId: string, overrides: Record<string, unknown> = {}) => jobBody({ referenceId, ...overrides });

const jobsOf = async (employerId: number) =>
  (await env.DB.prepare("SELECT reference_id AS referenceId, title, revision FROM jobs WHERE employer_id = ? ORDER BY id").bind(employerId).all<any>()).results;

describe("POST /api/v1.1/jobs/batch (DESIGN 12)", () => {
  it("a mixed batch: each entry answered in request order with the status its single request would have had", async () => {
    const employer = await createEmployer();
    const existing = await postJob(employer, { referenceId: "MIX-OLD", title: "Old title" });
    await postJob(employer, { referenceId: "MIX-GONE" });
    await postJob(employer, { referenceId: "MIX-PINNED" });
    const res = await sync(employer, {
      upsert: [
        entry("MIX-NEW", { title: "Brand new" }),
        { referenceId: "MIX-OLD", title: "New title" },
        entry("MIX-BAD", { title: 5, categories: [] }),
        { title: "no referenceId" },
        { referenceId: "MIX-PINNED", title: "x", ifMatch: '"0.0"' },
        { referenceId: "MIX-OLD-DRAFT", ...jobBody(), status: "active" },
      ],
      delete: [{ referenceId: "MIX-GONE" }, { referenceId: "MIX-NEVER" }],
    });
    expect(res.status).toBe(200);
    const { results } = await res.json<any>();
    expect(results.map((r: any) => [r.op, r.index, r.referenceId, r.status])).toEqual([
      ["upsert", 0, "MIX-NEW", 201],
      ["upsert", 1, "MIX-OLD", 200],
      ["upsert", 2, "MIX-BAD", 400],
      ["upsert", 3, null, 400],
      ["upsert", 4, "MIX-PINNED", 412],
      ["upsert", 5, "MIX-OLD-DRAFT", 201],
      ["delete", 0, "MIX-GONE", 204],
      ["delete", 1, "MIX-NEVER", 404],
    ]);
    // Field paths are relative to the entry.
    expect(results[2]).toMatchObject({ type: "/problems/validation-error" });
    expect(results[2].errors.map((e: any) => e.field).sort()).toEqual(["categories", "title"]);
    expect(results[3].errors.map((e: any) => e.field)).toEqual(["referenceId"]);
    expect(results[4]).toMatchObject({ type: "/problems/precondition-failed", etag: expect.stringMatching(/^"/) });
    expect(results[7]).toMatchObject({ type: "/problems/not-found" });
    // Successes carry the full job and its ETag, equal to what GET then answers.
    for (const result of [results[0], results[1], results[5]]) {
      const read = await request(`/jobs/${result.job.id}`, { apiKey: employer.apiKey });
      expect(result.etag).toBe(read.headers.get("ETag"));
      expect(result.job).toEqual(await read.json());
    }
    expect(results[1].job).toMatchObject({ id: existing.id, title: "New title" });
    expect((await jobsOf(employer.employerId)).map((j: any) => j.referenceId).sort()).toEqual(["MIX-NEW", "MIX-OLD", "MIX-OLD-DRAFT", "MIX-PINNED"]);
  });

  it("an entry's ifMatch with the current ETag succeeds; an entry moving a job back to draft is that entry's 409", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { referenceId: "PIN-1", status: "active" });
    const etag = (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).headers.get("ETag")!;
    const { results } = await (await sync(employer, { upsert: [{ referenceId: "PIN-1", title: "Pinned", ifMatch: etag }] })).json<any>();
    expect(results[0]).toMatchObject({ status: 200, job: { title: "Pinned" } });
    const back = await (await sync(employer, { upsert: [{ referenceId: "PIN-1", status: "draft" }] })).json<any>();
    expect(back.results[0]).toMatchObject({ status: 409, type: "/problems/invalid-transition" });
  });

  it("an entry's ifMatch: null sets no condition, for an upsert and a delete alike, and closeDate: null is the default: the document's entries admit both (issue 34)", async () => {
    const employer = await createEmployer();
    await postJob(employer, { referenceId: "NULL-GONE" });
    const upsert = entry("NULL-NEW", { closeDate: null, ifMatch: null });
    const remove = { referenceId: "NULL-GONE", ifMatch: null };
    expect(await documentAdmits("BatchUpsertEntry", upsert)).toBe(true);
    expect(await documentAdmits("BatchDeleteEntry", remove)).toBe(true);
    const { results } = await (await sync(employer, { upsert: [upsert], delete: [remove] })).json<any>();
    expect(results.map((r: any) => r.status)).toEqual([201, 204]);
    expect(Date.parse(results[0].job.closeDate) - Date.parse(results[0].job.publishDate)).toBe(60 * 86_400_000);
    // Anything but an ETag string (or null) is still that entry's 400 naming ifMatch, as the document says.
    const wrong = await (await sync(employer, { upsert: [entry("NULL-NEW", { ifMatch: 5 })], delete: [{ referenceId: "NULL-OTHER", ifMatch: true }] })).json<any>();
    expect(wrong.results.map((r: any) => [r.status, r.errors.map((e: any) => e.field)])).toEqual([[400, ["ifMatch"]], [400, ["ifMatch"]]]);
    expect(await documentAdmits("BatchUpsertEntry", entry("NULL-NEW", { ifMatch: 5 }))).toBe(false);
  });

  it("a referenceId may appear once: otherwise a 400 for the whole request naming every entry, nothing written", async () => {
    const employer = await createEmployer();
    const res = await sync(employer, { upsert: [entry("DUP-1"), entry("DUP-2"), entry("DUP-1")], delete: [{ referenceId: "DUP-1" }] });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((e) => e.field)).toEqual(["upsert[0].referenceId", "upsert[2].referenceId", "delete[0].referenceId"]);
    expect(await jobsOf(employer.employerId)).toEqual([]);
  });

  it("0 entries and 101 entries are a 400; 100 are fine; a body not of this shape is a 400", async () => {
    const employer = await createEmployer();
    expect((await sync(employer, {})).status).toBe(400);
    expect((await sync(employer, { upsert: [], delete: [] })).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => entry(`MANY-${i}`));
    expect((await sync(employer, { upsert: many.slice(0, 60), delete: many.slice(60).map((e) => ({ referenceId: e.referenceId })) })).status).toBe(400);
    expect((await sync(employer, { upsert: "nope" })).status).toBe(400);
    expect((await sync(employer, { upsert: [1, 2] })).status).toBe(400);
    const hundred = await sync(employer, { upsert: many.slice(0, 100) });
    expect(hundred.status).toBe(200);
    expect((await hundred.json<any>()).results.every((r: any) => r.status === 201)).toBe(true);
  });

  it("employers are walled off: the same referenceIds make the caller's own jobs; another's job is never changed or deleted", async () => {
    const [mine, theirs] = [await createEmployer(), await createEmployer()];
    const their = await postJob(theirs, { referenceId: "WALL-1", title: "Theirs" });
    const { results } = await (await sync(mine, { upsert: [entry("WALL-1", { title: "Mine" })], delete: [{ referenceId: "WALL-1-X" }] })).json<any>();
    expect(results[0]).toMatchObject({ status: 201, job: { employer: { id: mine.employerId }, title: "Mine" } });
    expect(results[1].status).toBe(404);
    const gone = await (await sync(mine, { delete: [{ referenceId: "WALL-1" }] })).json<any>();
    expect(gone.results[0].status).toBe(204);
    expect((await request(`/jobs/${their.id}`, { apiKey: theirs.apiKey })).status).toBe(200);
  });

  it("validateOnly: every entry judged (201 for one that would create), nothing written", async () => {
    const employer = await createEmployer();
    await postJob(employer, { referenceId: "VO-OLD" });
    await postJob(employer, { referenceId: "VO-DOOMED" });
    const before = await jobsOf(employer.employerId);
    const { results } = await (
      await sync(employer, { upsert: [entry("VO-NEW"), { referenceId: "VO-OLD", title: "Changed?" }], delete: [{ referenceId: "VO-DOOMED" }] }, "?validateOnly=true")
    ).json<any>();
    expect(results.map((r: any) => r.status)).toEqual([201, 200, 204]);
    expect(results[0].job.id).toBeNull();
    expect(results[1].job.title).toBe("Changed?");
    expect(await jobsOf(employer.employerId)).toEqual(before);
  });

  it("Idempotency-Key: a repeat answers the first response again and writes nothing", async () => {
    const employer = await createEmployer();
    const body = { upsert: [entry("IDEM-B-1"), entry("IDEM-B-2", { categories: [] })] };
    const first = await sync(employer, body, "", { "Idempotency-Key": "sync-1" });
    const firstBody = await first.text();
    await request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: { referenceId: "IDEM-B-1", title: "Changed since" } });
    const again = await sync(employer, body, "", { "Idempotency-Key": "sync-1" });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect((await sync(employer, { upsert: [entry("IDEM-B-3")] }, "", { "Idempotency-Key": "sync-1" })).status).toBe(422);
    expect((await jobsOf(employer.employerId)).map((j: any) => j.referenceId)).toEqual(["IDEM-B-1"]);
  });

  it("atomic: when the write fails (a referenceId created between the read and the write), nothing of it is stored; read again, it lands once", async () => {
    const employer = await createEmployer();
    const meanwhile = () => request("/jobs", { method: "POST", apiKey: employer.apiKey, json: entry("ATOM-2", { title: "Created meanwhile" }) });
    const res = await requestWith(interleavedD1(meanwhile), "/jobs/batch", {
      method: "POST",
      apiKey: employer.apiKey,
      json: { upsert: [entry("ATOM-1", { locations: [{ description: "Atomic Bay, NS" }] }), entry("ATOM-2", { title: "From the batch" })] },
    });
    const { results } = await res.json<any>();
    expect(results.map((r: any) => r.status)).toEqual([201, 200]);
    const jobs = await jobsOf(employer.employerId);
    expect(jobs.map((j: any) => j.referenceId)).toEqual(["ATOM-2", "ATOM-1"]);
    expect(jobs[0]).toMatchObject({ title: "From the batch", revision: 2 });
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM locations WHERE name_key = 'atomic bay'").first<{ n: number }>())!;
    expect(n).toBe(1);
  });

  it("atomic: a batch whose every write fails stores none of its entries and answers 409", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { referenceId: "ATOM-BUSY" });
    let round = 0;
    const meanwhile = () => request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: `Busy ${round++}` } });
    const res = await requestWith(interleavedD1(meanwhile, 100), "/jobs/batch", {
      method: "POST",
      apiKey: employer.apiKey,
      json: { upsert: [entry("ATOM-NEW"), { referenceId: "ATOM-BUSY", confidential: true }] },
    });
    expect(res.status).toBe(409);
    expect((await jobsOf(employer.employerId)).map((j: any) => j.referenceId)).toEqual(["ATOM-BUSY"]);
  });

  it("round trips do not grow with the entry count: the same at 1, 10 and 100 entries (DESIGN 12)", async () => {
    const employer = await createEmployer();
    const counter = countingD1(env.DB);
    const trips: number[] = [];
    for (const size of [1, 10, 100]) {
      // Half new, half updates of jobs the previous round made.
      const upsert = Array.from({ length: size }, (_, i) => entry(`TRIPS-${i}`, { title: `Round ${size}`, locations: [{ description: "Toronto, ON" }, { description: "Trip Town, ON" }] }));
      counter.reset();
      const afterAnswer: Promise<unknown>[] = [];
      const res = await worker.fetch(
        new Request(`${API}/jobs/batch`, {
          method: "POST",
          headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" },
          body: JSON.stringify({ upsert }),
        }),
        { ...env, DB: counter.db },
        { waitUntil: (work: Promise<unknown>) => void afterAnswer.push(work) } as unknown as ExecutionContext,
      );
      expect(res.status).toBe(200);
      trips.push(counter.count());
      // What the answer waited for is counted; the events' hand-over after it must not reach the next count.
      await Promise.all(afterAnswer);
    }
    expect(new Set(trips).size).toBe(1);
    expect(trips[0]).toBeLessThanOrEqual(2);
  });

  it("a resend of unchanged jobs (a nightly full sync) writes nothing, records no event and cleans no description again (issue 27, DESIGN 13a)", async () => {
    const employer = await createEmployer();
    const dirty = '<p style="x">Night <i>shift</i></p><img src=x onerror=alert(1)>';
    const upsert = Array.from({ length: 20 }, (_, i) => entry(`NIGHTLY-${i}`, { description: dirty }));
    const first = await (await sync(employer, { upsert })).json<any>();
    expect(first.results.map((r: any) => r.job.description)).toEqual(Array(20).fill("<p>Night <i>shift</i></p>"));
    // A marker the cleaner could never make stands in for one stored text: shown back, it was not cleaned again.
    await env.DB.prepare("UPDATE jobs SET description = '<p>kept</p>' WHERE employer_id = ? AND reference_id = 'NIGHTLY-7'").bind(employer.employerId).run();
    const outboxRows = () => env.DB.prepare("SELECT count(*) AS n FROM events WHERE employer_id = ?").bind(employer.employerId).first<{ n: number }>();
    const eventsBefore = (await outboxRows())!.n;

    const again = await (await sync(employer, { upsert })).json<any>();
    expect(again.results.map((r: any) => r.status)).toEqual(Array(20).fill(200));
    expect(again.results.map((r: any) => r.etag)).toEqual(first.results.map((r: any) => r.etag));
    expect(again.results[7].job.description).toBe("<p>kept</p>");
    expect((await jobsOf(employer.employerId)).map((job: any) => job.revision)).toEqual(Array(20).fill(1));
    expect((await outboxRows())!.n).toBe(eventsBefore);
  });
});
