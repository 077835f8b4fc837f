import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import type { Env } from "../src/env";
import { createEmployer, request, type TestEmployer } from "./support/api";
import { countingD1 } from "./support/count-d1";
import { capturingD1, interleavedD1, requestWith } from "./support/d1-proxies";
import { jobBody, postJob } from "./support/jobs";

// DESIGN 6b: every list that reaches SQL is bound as one JSON parameter, so no statement has
// more than D1's 100 bound parameters whatever the input. Each test goes past 100 members.

/** D1 on Workers Paid: queries per Worker invocation, every statement of a batch counted. */
const D1_QUERIES_PER_INVOCATION = 1_000;
/** Past D1's 100 bound parameters per statement, whatever else the statement binds. */
const MANY = 150;

const sync = (who: TestEmployer, json: unknown) => request("/jobs/batch", { method: "POST", apiKey: who.apiKey, json });

const ownedPlaceCount = async (employerId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM locations WHERE owner_employer_id = ?").bind(employerId).first<{ n: number }>())!.n;

/** Short entity tags no job has, then `last`: an If-Match of MANY members within its 1 024 characters. */
const manyTags = (last: string) => [...Array.from({ length: MANY - 1 }, (_, i) => `"${i}"`), last].join(",");

/** The cron as Cloudflare fires it, with these bindings; waits for what it leaves to waitUntil. */
async function runCron(bindings: Env, scheduledTime = Date.now()): Promise<void> {
  const ctx = createExecutionContext();
  try {
    const scheduled: ExportedHandlerScheduledHandler<Env> = worker.scheduled;
    await scheduled(createScheduledController({ scheduledTime, cron: "0 * * * *" }), bindings, ctx);
  } finally {
    await waitOnExecutionContext(ctx);
  }
}

/** The plan SQLite picks for a statement the Worker ran, with its own values. */
async function planOf(statement: { sql: string; params: unknown[] }): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
    .bind(...statement.params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

describe("the batch: places named (DESIGN 6b, 12)", () => {
  it("a batch of 100 upserts naming 200 distinct new places (and a city named alone, looked up among the employer's own) is stored: the owned-place lookup binds its names as one JSON parameter", async () => {
    const employer = await createEmployer();
    // A place of the employer's own, so that a city named alone is found by the lookup.
    await postJob(employer, { locations: [{ description: "Paramhaven, SK" }] });
    const upsert = Array.from({ length: 100 }, (_, i) =>
      jobBody({
        referenceId: `PARAM-${i}`,
        locations: [{ description: `Paramfield ${i} East, SK` }, { description: `Paramfield ${i} West, MB` }, { description: "Paramhaven" }],
      }),
    );
    const capture = capturingD1();

    const res = await requestWith(capture.db, "/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: { upsert } });

    expect(res.status).toBe(200);
    const { results } = await res.json<any>();
    expect(results.map((r: any) => r.status)).toEqual(upsert.map(() => 201));
    expect(results[42].job.locations.map((l: any) => l.description)).toEqual(["Paramfield 42 East, SK", "Paramfield 42 West, MB", "Paramhaven, SK"]);
    expect(await ownedPlaceCount(employer.employerId)).toBe(1 + 200);
    const lookup = capture.ran.find((s) => /name_key IN/i.test(s.sql) && !/^\s*insert/i.test(s.sql))!;
    expect(lookup.params.length).toBeLessThanOrEqual(2);
    expect(await planOf(lookup)).toContainEqual(expect.stringMatching(/^SEARCH \S+ USING INDEX locations_owner_place_unique \(owner_employer_id=\? AND name_key=\?\)$/));
    // The set-based place writes, one statement each for all 100 jobs (the places created, the
    // place-limit guard, the links; issue 38), find each place on an index too, never by reading the table.
    const placeWrites = capture.ran.filter((s) => (/INSERT INTO (locations|job_locations)/.test(s.sql) || s.params.includes("place_limit")) && /json_each/.test(s.sql));
    expect(placeWrites.length).toBe(3);
    for (const write of placeWrites) expect((await planOf(write)).filter((step) => /^SCAN (l|loc|locations)\b/.test(step))).toEqual([]);
  });
});

describe("If-Match with 150 entity tags (DESIGN 6b, 11)", () => {
  it("DELETE: 204 when the last of 150 tags is the job's ETag, 412 with the current ETag when none of 150 is", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer);
    const current = (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).headers.get("ETag")!;

    const refused = await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey, headers: { "If-Match": manyTags('"none"') } });
    expect(refused.status).toBe(412);
    expect(refused.headers.get("ETag")).toBe(current);

    const deleted = await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey, headers: { "If-Match": manyTags(current) } });
    expect(deleted.status).toBe(204);
    expect((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).status).toBe(404);
  });

  it("PUT: 200 when the last of 150 tags is the job's ETag, 412 when none of 150 is", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer);
    const current = (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).headers.get("ETag")!;
    const put = (ifMatch: string) =>
      request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Retitled" }, headers: { "If-Match": ifMatch } });

    expect((await put(manyTags('"none"'))).status).toBe(412);
    const updated = await put(manyTags(current));
    expect(updated.status).toBe(200);
    expect((await updated.json<any>()).title).toBe("Retitled");
  });
});

describe("the cron's lists (DESIGN 6b, 13a, 15)", () => {
  it("a job with 120 applications with résumés is deleted: one cron run deletes all 120 résumés and drains the pending deletions", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@limits.example" });
    const keys = Array.from({ length: 120 }, (_, i) => `resumes/param-limit-${job.id}-${i}`);
    for (const key of keys) await env.RESUMES.put(key, "%PDF-1.7\n");
    await env.DB.prepare(
      `INSERT INTO applications (job_id, employer_id, name, email, received_at, resume_key, resume_filename, resume_type, resume_size, email_status)
       SELECT ?1, ?2, 'Applicant', 'a@example.com', ?3, value, 'cv.pdf', 'application/pdf', 9, 'sent' FROM json_each(?4)`,
    )
      .bind(job.id, employer.employerId, Date.now(), JSON.stringify(keys))
      .run();

    expect((await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey })).status).toBe(204);
    const pending = () => env.DB.prepare("SELECT count(*) AS n FROM resume_deletions WHERE key IN (SELECT value FROM json_each(?))").bind(JSON.stringify(keys)).first<{ n: number }>();
    expect((await pending())!.n).toBe(120);

    const capture = capturingD1();
    await runCron({ ...env, DB: capture.db });

    expect((await pending())!.n).toBe(0);
    const left = await env.RESUMES.list({ prefix: `resumes/param-limit-${job.id}-` });
    expect(left.objects).toEqual([]);
    const forget = capture.ran.find((s) => /^delete from "resume_deletions"/i.test(s.sql))!;
    expect(forget.params).toHaveLength(1);
    expect(await planOf(forget)).toContainEqual(expect.stringMatching(/^SEARCH resume_deletions USING (COVERING )?INDEX sqlite_autoindex_resume_deletions_1 \(key=\?\)$/));
  });

  it("the sweep hands 150 due webhook messages to the queue and records all 150 hand-overs in one statement, the ids bound as one JSON parameter", async () => {
    const employer = await createEmployer();
    const endpoint = await (await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: { url: "https://receiver.example/limits" } })).json<any>();
    const due = Date.now() - 10 * 60_000;
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
       INSERT INTO webhook_messages (id, employer_id, endpoint_id, type, occurred_at, data, status, attempts, next_attempt_at, created_at)
       SELECT 'msg_param_limit_' || i, ?1, ?2, 'job.updated', ?4, '{}', 'pending', 0, ?4, ?4 FROM n`,
    )
      .bind(employer.employerId, endpoint.id, MANY, due)
      .run();
    const sent: string[] = [];
    const queue = { sendBatch: async (messages: { body: { id: string } }[]) => void sent.push(...messages.map((m) => m.body.id)) };
    const capture = capturingD1();

    await runCron({ ...env, DB: capture.db, WEBHOOK_QUEUE: queue as unknown as Queue });

    const ours = sent.filter((id) => id.startsWith("msg_param_limit_"));
    expect(new Set(ours).size).toBe(MANY);
    const unmarked = await env.DB.prepare("SELECT count(*) AS n FROM webhook_messages WHERE endpoint_id = ? AND enqueued_at IS NULL").bind(endpoint.id).first<{ n: number }>();
    expect(unmarked!.n).toBe(0);
    const marks = capture.ran.filter((s) => /^update "webhook_messages" set "enqueued_at"/i.test(s.sql));
    expect(marks).toHaveLength(1);
    expect(marks[0].params.length).toBeLessThanOrEqual(2);
    expect(await planOf(marks[0])).toContainEqual(expect.stringMatching(/^SEARCH webhook_messages USING (COVERING )?INDEX sqlite_autoindex_webhook_messages_1 \(id=\?\)$/));
  });
});

describe("D1 queries per Worker invocation (DESIGN 9, 12)", () => {
  const threePlaces = (tag: string, i: number) => [
    { description: `Querytown ${tag} ${i} A, SK` },
    { description: `Querytown ${tag} ${i} B, MB` },
    { description: `Querytown ${tag} ${i} C, NB` },
  ];
  const categories = [{ id: 1 }, { id: 2 }, { id: 3 }];

  it(`the largest batch, 100 upserts each creating a job with 3 new places and 3 categories (their events and an Idempotency-Key record included), runs at most ${D1_QUERIES_PER_INVOCATION} D1 statements`, async () => {
    const employer = await createEmployer();
    const upsert = Array.from({ length: 100 }, (_, i) => jobBody({ referenceId: `COUNT-${i}`, status: "active", locations: threePlaces("new", i), categories }));
    const counter = countingD1(env.DB);

    const res = await requestWith(counter.db, "/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: { upsert }, headers: { "Idempotency-Key": crypto.randomUUID() } });

    expect(res.status).toBe(200);
    expect((await res.json<any>()).results.map((r: any) => r.status)).toEqual(upsert.map(() => 201));
    expect(await ownedPlaceCount(employer.employerId)).toBe(300);
    console.info(`batch of 100 creating upserts: ${counter.statements()} D1 statements in ${counter.count()} round trips`);
    expect(counter.statements()).toBeLessThanOrEqual(D1_QUERIES_PER_INVOCATION);
  });

  it(`100 upserts each moving an existing job to 3 new places and 3 other categories run at most ${D1_QUERIES_PER_INVOCATION} D1 statements`, async () => {
    const employer = await createEmployer();
    const first = Array.from({ length: 100 }, (_, i) => jobBody({ referenceId: `MOVE-${i}`, status: "active" }));
    expect((await sync(employer, { upsert: first })).status).toBe(200);
    const upsert = Array.from({ length: 100 }, (_, i) => ({ referenceId: `MOVE-${i}`, title: `Moved ${i}`, locations: threePlaces("moved", i), categories }));
    const counter = countingD1(env.DB);

    const res = await requestWith(counter.db, "/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: { upsert }, headers: { "Idempotency-Key": crypto.randomUUID() } });

    expect(res.status).toBe(200);
    const { results } = await res.json<any>();
    expect(results.map((r: any) => r.status)).toEqual(upsert.map(() => 200));
    expect(results[7].job.categories.map((c: any) => c.id)).toEqual([1, 2, 3]);
    expect(results[7].job.locations.map((l: any) => l.description)).toEqual(["Querytown moved 7 A, SK", "Querytown moved 7 B, MB", "Querytown moved 7 C, NB"]);
    console.info(`batch of 100 updating upserts: ${counter.statements()} D1 statements in ${counter.count()} round trips`);
    expect(counter.statements()).toBeLessThanOrEqual(D1_QUERIES_PER_INVOCATION);
  });

  it("a large batch whose jobs another request changed is not written a second time past the limit: 409 edit-conflict, nothing stored", async () => {
    const employer = await createEmployer();
    const first = Array.from({ length: 100 }, (_, i) => jobBody({ referenceId: `RACE-${i}`, status: "active" }));
    expect((await sync(employer, { upsert: first })).status).toBe(200);
    const upsert = Array.from({ length: 100 }, (_, i) => ({ referenceId: `RACE-${i}`, title: `Raced ${i}`, locations: threePlaces("raced", i), categories }));
    // Another client renames job RACE-0 just before the batch's write, every time.
    const meanwhile = () => env.DB.prepare("UPDATE jobs SET title = 'Other', revision = revision + 1 WHERE employer_id = ? AND reference_id = 'RACE-0'").bind(employer.employerId).run();
    const counter = countingD1(interleavedD1(meanwhile, 100));

    const res = await requestWith(counter.db, "/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: { upsert } });

    expect(res.status).toBe(409);
    expect((await res.json<any>()).type).toBe("/problems/edit-conflict");
    expect(counter.statements()).toBeLessThanOrEqual(D1_QUERIES_PER_INVOCATION);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE employer_id = ? AND title LIKE 'Raced %'").bind(employer.employerId).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });
});
