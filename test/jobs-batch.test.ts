import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { MAX_JSON_LIST_BYTES } from "../src/db/lists";
import { WATCHED_COLUMNS } from "../src/jobs/repository";
import { API, createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { documentAdmits } from "./support/contract";
import { countingD1 } from "./support/count-d1";
import { capturingD1, interleavedD1, proxiedD1, requestWith } from "./support/d1-proxies";
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

// Issue 38: the batch's writes are set-based (one statement per table or kind of change for all
// its entries, src/jobs/repository/writes.ts); what they store must be what the single requests store.
describe("POST /api/v1.1/jobs/batch: set-based writes (issue 38)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const SEEDED = 60;
  const seedBody = (i: number) =>
    jobBody({
      referenceId: `SYNC-${i}`,
      title: `Seeded ${i}`,
      status: i % 3 === 0 ? "active" : "draft",
      description: `<p>Seeded <b>${i}</b></p>`,
      locations: [{ description: i % 2 ? "Toronto, ON" : `Seedville ${i % 5}, ON` }],
      categories: [{ id: 1 + (i % 4) }],
      ...(i % 4 === 0 ? { salary: { amount: 50_000 + i, type: { id: 1 } } } : {}),
    });
  /** Ten kinds of change, by the job's number: a column watched by the search index, the counters, lists, JSON columns, a no-op. */
  const changeOf = (i: number): Record<string, unknown> =>
    [
      { title: `Renamed ${i}` },
      { status: "archived" },
      { status: "active", closeDate: "2027-10-01" },
      { description: `<p>New <i>${i}</i></p>` },
      { categories: [{ id: 5 }, { id: 6 }] },
      { locations: [{ description: `Movedtown ${i}, NS` }, { description: "Sharedville, NS" }], title: `Moved ${i}` },
      { salary: null, confidential: true },
      { title: `Seeded ${i}` },
      { closeDate: "2027-12-31", autoRefresh: true },
      { translations: { fr: { title: "Titre", description: "<p>En français</p>" } }, questions: [{ key: "permit", text: "Work permit?", type: "yesNo" }] },
    ][i % 10];
  const newBody = (i: number) =>
    jobBody({
      referenceId: `NEW-${i}`,
      title: `New ${i}`,
      status: i % 2 ? "active" : "draft",
      description: `<p>Brand new ${i}</p>`,
      locations: i % 3 ? [{ description: `Newplace ${i % 7}, ON` }, { description: "Sharedville, NS" }] : [{ description: "Halifax, NS" }],
      categories: [{ id: 1 + (i % 5) }, { id: 7 }],
      ...(i % 4 === 1 ? { salary: { amount: 60_000, maxAmount: 70_000, type: { id: 1 }, plusCommission: true } } : {}),
      ...(i % 5 === 2 ? { translations: { fr: { title: `Nouveau ${i}`, description: "<p>Bonjour</p>" } } } : {}),
    });
  /** 40 new jobs, 40 changes of seeded ones (4 of them no-ops), 20 deletes: 100 entries. */
  const mixed = () => ({
    upsert: [
      ...Array.from({ length: 40 }, (_, i) => (i % 2 ? newBody(i) : { referenceId: `SYNC-${i}`, ...changeOf(i) })),
      ...Array.from({ length: 40 }, (_, i) => (i % 2 ? { referenceId: `SYNC-${i}`, ...changeOf(i) } : newBody(i))),
    ],
    delete: Array.from({ length: 20 }, (_, i) => ({ referenceId: `SYNC-${40 + i}` })),
  });

  /** Everything a job write stores for an employer, its own ids and times left out where they differ by nature. */
  async function storedFor(employerId: number) {
    const rows = async (query: string, ...params: unknown[]) => (await env.DB.prepare(query).bind(...params).all<any>()).results;
    const jobs = (await rows("SELECT * FROM jobs WHERE employer_id = ? ORDER BY reference_id", employerId)).map(({ id, employer_id, ...job }) => job);
    const places = await rows(
      `SELECT j.reference_id, jl.position, l.name, l.description, l.type, l.province_code, l.latitude, l.longitude, l.owner_employer_id IS NOT NULL AS owned,
         CASE WHEN l.owner_employer_id IS NULL THEN l.id END AS public_id
       FROM job_locations jl JOIN jobs j ON j.id = jl.job_id JOIN locations l ON l.id = jl.location_id WHERE j.employer_id = ? ORDER BY j.reference_id, jl.position`,
      employerId,
    );
    const categories = await rows(
      "SELECT j.reference_id, jc.position, jc.category_id FROM job_categories jc JOIN jobs j ON j.id = jc.job_id WHERE j.employer_id = ? ORDER BY j.reference_id, jc.position",
      employerId,
    );
    const ownedPlaces = await rows(
      "SELECT name, description, type, province_code, name_key, latitude, longitude, source FROM locations WHERE owner_employer_id = ? ORDER BY name_key, province_code",
      employerId,
    );
    const counts = await rows("SELECT status, total FROM job_counts WHERE employer_id = ? ORDER BY status", employerId);
    const search = await rows("SELECT title, reference_id FROM job_search WHERE rowid BETWEEN ?1 * 4294967296 AND ?1 * 4294967296 + 4294967295 ORDER BY reference_id", employerId);
    // The outbox in order: each event's job named by its referenceId, without the ids that differ.
    const events = (await rows("SELECT type, revision, occurred_at, data FROM events WHERE employer_id = ? ORDER BY seq", employerId)).map((event: any) => {
      const { job } = JSON.parse(event.data);
      const { id, employerId: _employer, locations, ...rest } = job;
      return { ...event, data: { ...rest, ...(locations ? { locations: locations.map(({ id: _id, ...place }: any) => place) } : {}) } };
    });
    return { jobs, places, categories, ownedPlaces, counts, search, events };
  }

  it("a batch of 100 mixed inserts, updates and deletes stores exactly what the 100 single requests store: jobs, links, places, counters, search index, events", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-26T08:00:00Z"));
    const [batched, single] = [await createEmployer({ name: "Same Ltd." }), await createEmployer({ name: "Same Ltd." })];
    for (const employer of [batched, single]) for (let i = 0; i < SEEDED; i++) await postJob(employer, seedBody(i));
    vi.setSystemTime(new Date("2026-11-26T09:00:00Z"));
    const body = mixed();
    const capture = capturingD1();

    const res = await requestWith(capture.db, "/jobs/batch", { method: "POST", apiKey: batched.apiKey, json: body });
    expect(res.status).toBe(200);
    const { results } = await res.json<any>();
    const answers: { status: number; job?: any }[] = [];
    for (const entry of body.upsert) {
      const one = await request("/jobs", { method: "PUT", apiKey: single.apiKey, json: entry });
      answers.push({ status: one.status, job: await one.json() });
    }
    for (const entry of body.delete) answers.push({ status: (await request("/jobs", { method: "DELETE", apiKey: single.apiKey, json: entry })).status });

    expect(results.map((r: any) => r.status)).toEqual(answers.map((a) => a.status));
    expect(new Set(results.map((r: any) => r.status))).toEqual(new Set([200, 201, 204]));
    const shown = (job: any) => job && { ...job, id: undefined, employer: undefined, locations: job.locations.map((l: any) => l.description) };
    expect(results.map((r: any) => shown(r.job))).toEqual(answers.map((a) => shown(a.job)));
    const [fromBatch, fromSingles] = [await storedFor(batched.employerId), await storedFor(single.employerId)];
    expect(fromBatch.jobs).toHaveLength(SEEDED + 40 - 20);
    expect(fromBatch.ownedPlaces.length).toBeGreaterThan(5);
    expect(fromBatch.events.length).toBeGreaterThan(100);
    for (const part of Object.keys(fromBatch) as (keyof typeof fromBatch)[]) expect({ [part]: fromBatch[part] }).toEqual({ [part]: fromSingles[part] });
    // Set-based: the 100 entries' writes are a few statements, not one or more per entry: a guard
    // and an UPDATE per kind of change of the watched columns (six kinds here), one statement per
    // table otherwise (24 in all).
    const writes = capture.ran.filter((statement) => !/^\s*SELECT/i.test(statement.sql));
    expect(writes.length).toBeLessThanOrEqual(30);
  });

  it("every write statement of a batch finds its rows by id, key or unique index, never by walking the employer's jobs", async () => {
    const employer = await createEmployer();
    for (let i = 0; i < 12; i++) await postJob(employer, seedBody(i));
    const capture = capturingD1();
    const body = {
      upsert: [newBody(1), newBody(2), ...Array.from({ length: 10 }, (_, i) => ({ referenceId: `SYNC-${i}`, ...changeOf(i) }))],
      delete: [{ referenceId: "SYNC-10" }, { referenceId: "SYNC-11" }],
    };
    expect((await requestWith(capture.db, "/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: body })).status).toBe(200);
    const writes = capture.ran.filter((statement) => !/^\s*SELECT/i.test(statement.sql));
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const write of writes) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${write.sql}`).bind(...write.params).all<{ detail: string }>();
      const walks = results.map((step) => step.detail).filter((step) => /^(SCAN|SEARCH) (jobs|j)\b/.test(step) && !/INTEGER PRIMARY KEY|jobs_employer_reference_unique|^SEARCH jobs$/.test(step));
      expect({ sql: write.sql, walks }).toEqual({ sql: write.sql, walks: [] });
    }
  });

  it("one UPDATE never sets a column an index or an UPDATE OF trigger of jobs watches for a job that leaves it alone", async () => {
    // Each column a job's change may write (src/jobs/repository/writes.ts COLUMN_NAMES) that some
    // index's columns or WHERE, or some trigger's UPDATE OF list, names must be in WATCHED_COLUMNS.
    const schema = (await env.DB.prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'jobs' AND type IN ('index', 'trigger') AND sql IS NOT NULL").all<any>()).results;
    const columns = (await env.DB.prepare("SELECT name FROM pragma_table_info('jobs')").all<{ name: string }>()).results.map((c) => c.name);
    const written = new Set(["revision", "updated_at"]);
    const watched = new Set<string>();
    for (const { type, sql } of schema) {
      const text = type === "trigger" ? (/UPDATE OF ([^]*?) ON /i.exec(sql)?.[1] ?? "") : sql.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+/i, "");
      for (const column of columns) if (new RegExp(`[\`"\\s(,.]${column}[\`"\\s),]`).test(` ${text} `)) watched.add(column);
    }
    expect(watched.has("title") && watched.has("status") && watched.has("close_date")).toBe(true);
    const unwatched = ["id", "employer_id", "test", ...written, ...WATCHED_COLUMNS];
    expect([...watched].filter((column) => !unwatched.includes(column))).toEqual([]);
  });

  /**
   * A D1 binding that runs `meanwhile` before the request's first write batch, and records how
   * each write batch ended (a batch of the jobs' and the employer's reads has 2 statements).
   */
  function racedD1(meanwhile: () => Promise<unknown>) {
    const outcomes: string[] = [];
    let first = true;
    const db = proxiedD1((name, original) =>
      name === "batch"
        ? async (statements: D1PreparedStatement[]) => {
            if (statements.length <= 2) return original(statements);
            if (first) await meanwhile();
            first = false;
            try {
              const results = await original(statements);
              outcomes.push("stored");
              return results;
            } catch (error) {
              outcomes.push(String(error));
              throw error;
            }
          }
        : undefined,
    );
    return { db, outcomes };
  }

  it("a change by another request to one of its jobs between the read and the write stops the whole batch, nothing written; read again, the batch lands once", async () => {
    const employer = await createEmployer();
    for (let i = 0; i < 12; i++) await postJob(employer, seedBody(i));
    const eventsBefore = (await env.DB.prepare("SELECT count(*) AS n FROM events WHERE employer_id = ?").bind(employer.employerId).first<{ n: number }>())!.n;
    // Every update renames its job (the search index's column), as does the other request.
    const body = {
      upsert: [newBody(1), ...Array.from({ length: 8 }, (_, i) => ({ referenceId: `SYNC-${i}`, title: `Batch ${i}` })), newBody(2)],
      delete: [{ referenceId: "SYNC-10" }, { referenceId: "SYNC-11" }],
    };
    const other = () => request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: { referenceId: "SYNC-5", title: "Other", confidential: true } });
    const raced = racedD1(other);

    const res = await requestWith(raced.db, "/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: body });

    expect(raced.outcomes).toEqual([expect.stringContaining("write_guard:revision"), "stored"]);
    const { results } = await res.json<any>();
    expect(results.map((r: any) => r.status)).toEqual([201, ...Array(8).fill(200), 201, 204, 204]);
    // The other request's change is kept, merged under the batch's.
    expect(results[6].job).toMatchObject({ referenceId: "SYNC-5", title: "Batch 5", confidential: true });
    const jobs = await jobsOf(employer.employerId);
    expect(jobs.map((j: any) => j.referenceId).sort()).toEqual(["NEW-1", "NEW-2", ...Array.from({ length: 10 }, (_, i) => `SYNC-${i}`)].sort());
    // Written once: each updated job one revision on (SYNC-5 two: the other request's, then the batch's).
    expect(Object.fromEntries(jobs.map((j: any) => [j.referenceId, j.revision]))).toEqual({
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`SYNC-${i}`, i === 5 ? 3 : 2])),
      "SYNC-8": 1,
      "SYNC-9": 1,
      "NEW-1": 1,
      "NEW-2": 1,
    });
    const events = (await env.DB.prepare("SELECT type FROM events WHERE employer_id = ? ORDER BY seq").bind(employer.employerId).all<{ type: string }>()).results.slice(eventsBefore);
    // The other request's job.updated, then the batch's own, once each.
    expect(events.map((e) => e.type)).toEqual([
      "job.updated",
      "job.created",
      "job.published",
      ...Array(8).fill("job.updated"),
      "job.created",
      "job.deleted",
      "job.deleted",
    ]);
  });

  it("a delete of a job another request changed meanwhile stops the whole batch too; read again, it is deleted", async () => {
    const employer = await createEmployer();
    for (let i = 0; i < 4; i++) await postJob(employer, seedBody(i));
    const raced = racedD1(() => request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: { referenceId: "SYNC-3", confidential: true } }));
    const res = await requestWith(raced.db, "/jobs/batch", {
      method: "POST",
      apiKey: employer.apiKey,
      json: { upsert: [{ referenceId: "SYNC-0", title: "Kept" }, newBody(9)], delete: [{ referenceId: "SYNC-2" }, { referenceId: "SYNC-3" }] },
    });
    expect(raced.outcomes).toEqual([expect.stringContaining("write_guard:revision"), "stored"]);
    expect((await res.json<any>()).results.map((r: any) => r.status)).toEqual([200, 201, 204, 204]);
    expect((await jobsOf(employer.employerId)).map((j: any) => [j.referenceId, j.revision])).toEqual([
      ["SYNC-0", 2],
      ["SYNC-1", 1],
      ["NEW-9", 1],
    ]);
  });

  it("D1's cap on a value (2 000 000 bytes): the jobs' JSON lists are cut by size, and a job too large for one is bound column by column; stored as sent", async () => {
    const employer = await createEmployer();
    const D1_MAX_VALUE_BYTES = 2_000_000;
    // `&` is stored as `&amp;`: 60 000 of them make a 300 KB description, 199 000 one of 995 KB.
    const amps = (n: number) => `<p>${"&".repeat(n)}</p>`;
    const big = entry("SIZE-BIG", { description: amps(199_000), translations: { fr: { title: "Gros", description: amps(199_000) } } });
    const upsert = [...Array.from({ length: 5 }, (_, i) => entry(`SIZE-${i}`, { description: amps(60_000) })), big];
    const capture = capturingD1();

    const res = await requestWith(capture.db, "/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: { upsert } });

    expect(res.status).toBe(200);
    const { results } = await res.json<any>();
    expect(results.map((r: any) => r.status)).toEqual(Array(6).fill(201));
    expect(results.map((r: any) => r.job.description.length)).toEqual([...Array(5).fill(60_000 * 5 + 7), 199_000 * 5 + 7]);
    expect(results[5].job.translations.fr.description).toBe(`<p>${"&amp;".repeat(199_000)}</p>`);
    const inserts = capture.ran.filter((statement) => /INSERT INTO jobs/.test(statement.sql));
    // Three 300 KB jobs to a list, the large one alone (its two texts each a value of their own).
    expect(inserts.map((statement) => statement.params.filter((p) => typeof p === "string" && p.length > 100_000).length)).toEqual([1, 1, 2]);
    const bytes = (value: unknown) => (typeof value === "string" ? new TextEncoder().encode(value).byteLength : 0);
    for (const statement of capture.ran) for (const param of statement.params) expect(bytes(param)).toBeLessThanOrEqual(D1_MAX_VALUE_BYTES);
    for (const statement of capture.ran.filter((s) => /json_each/.test(s.sql))) {
      for (const param of statement.params) if (bytes(param) > 100_000 && String(param).startsWith("[")) expect(bytes(param)).toBeLessThanOrEqual(MAX_JSON_LIST_BYTES);
    }

    // Updated the same way: the large job's new texts bound one by one, the others as one list.
    const changed = capturingD1();
    const again = await requestWith(changed.db, "/jobs/batch", {
      method: "POST",
      apiKey: employer.apiKey,
      json: { upsert: [{ referenceId: "SIZE-BIG", description: amps(198_000), translations: { fr: { title: "Gros", description: amps(197_000) } } }, { referenceId: "SIZE-0", title: "Smaller" }] },
    });
    expect((await again.json<any>()).results.map((r: any) => [r.status, r.job.description.length, r.job.title])).toEqual([
      [200, 198_000 * 5 + 7, "Senior Accountant"],
      [200, 60_000 * 5 + 7, "Smaller"],
    ]);
    for (const statement of changed.ran) for (const param of statement.params) expect(bytes(param)).toBeLessThanOrEqual(D1_MAX_VALUE_BYTES);
    const read = await request(`/jobs/${results[5].job.id}`, { apiKey: employer.apiKey });
    expect((await read.json<any>()).translations.fr.description).toBe(`<p>${"&amp;".repeat(197_000)}</p>`);
  });

  describe("the employer's place limit within a batch (DESIGN 3: 1 000 places of its own)", () => {
    const ownedCount = async (employerId: number) =>
      (await env.DB.prepare("SELECT count(*) AS n FROM locations WHERE owner_employer_id = ?").bind(employerId).first<{ n: number }>())!.n;
    /** An employer with `count` places of its own already, and a job to move. */
    async function crowded(count: number) {
      const employer = await createEmployer();
      await postJob(employer, { referenceId: "LIMIT-OLD", locations: [{ description: "Toronto, ON" }] });
      await env.DB.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
         INSERT INTO locations (name, description, type, province_code, name_key, population_rank, source, owner_employer_id)
         SELECT 'Filler ' || i, 'Filler ' || i || ', ON', 'City', 'ON', 'filler ' || i, NULL, 'employer', ?1 FROM n`,
      ).bind(employer.employerId, count).run();
      return employer;
    }

    it("new places the batch's entries name together beyond the limit: every entry creating one is refused as a single request past it would be, the others are stored, no place is created", async () => {
      const employer = await crowded(998);
      const res = await sync(employer, {
        upsert: [
          entry("LIMIT-A", { locations: [{ description: "Overflow One, ON" }] }),
          entry("LIMIT-B", { locations: [{ description: "Overflow Two, ON" }, { description: "Overflow Three, ON" }] }),
          entry("LIMIT-C", { locations: [{ description: "Ottawa, ON" }] }),
          { referenceId: "LIMIT-OLD", locations: [{ description: "Overflow Four, ON" }] },
          entry("LIMIT-D", { locations: [{ description: "Halifax, NS" }] }),
        ],
      });
      const { results } = await res.json<any>();
      expect(results.map((r: any) => r.status)).toEqual([400, 400, 201, 400, 201]);
      const single = await request("/jobs", { method: "POST", apiKey: (await crowded(1000)).apiKey, json: jobBody({ locations: [{ description: "Overflow One, ON" }] }) });
      const refused = await problemOf(single);
      for (const i of [0, 1, 3]) expect({ type: results[i].type, errors: results[i].errors }).toEqual({ type: refused.type, errors: refused.errors });
      expect(await ownedCount(employer.employerId)).toBe(998);
      expect(results[2].job.locations.map((l: any) => l.description)).toEqual(["Ottawa, ON"]);
    });

    it("new places within the limit are all created, a place several entries name once", async () => {
      const employer = await crowded(997);
      const res = await sync(employer, {
        upsert: [
          entry("LIMIT-A", { locations: [{ description: "Newfound One, ON" }, { description: "Newfound Shared, ON" }] }),
          { referenceId: "LIMIT-OLD", locations: [{ description: "Newfound Shared, ON" }] },
          entry("LIMIT-B", { locations: [{ description: "Newfound Two, ON" }, { description: "Newfound Shared, ON" }] }),
        ],
      });
      const { results } = await res.json<any>();
      expect(results.map((r: any) => r.status)).toEqual([201, 200, 201]);
      expect(await ownedCount(employer.employerId)).toBe(1000);
      expect(results.map((r: any) => r.job.locations.map((l: any) => l.description))).toEqual([
        ["Newfound One, ON", "Newfound Shared, ON"],
        ["Newfound Shared, ON"],
        ["Newfound Two, ON", "Newfound Shared, ON"],
      ]);
    });
  });
});
