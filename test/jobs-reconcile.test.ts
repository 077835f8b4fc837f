import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { countingD1 } from "./support/count-d1";
import { requestWith } from "./support/d1-proxies";
import { postJob } from "./support/jobs";
import { seedJobs } from "./support/seed-jobs";

// DESIGN 21, 21a: POST /api/v1.1/jobs/reconcile.

const reconcile = (who: TestEmployer, json: unknown, query = "", headers: Record<string, string> = {}) =>
  request(`/jobs/reconcile${query}`, { method: "POST", apiKey: who.apiKey, json, headers });

const statusesOf = async (employerId: number) =>
  Object.fromEntries(
    (await env.DB.prepare("SELECT coalesce(reference_id, 'id:' || id) AS ref, status FROM jobs WHERE employer_id = ? ORDER BY id").bind(employerId).all<{ ref: string; status: string }>()).results.map(
      (row) => [row.ref, row.status],
    ),
  );

const eventsOf = async (jobId: number) =>
  (await env.DB.prepare("SELECT type, data FROM events WHERE subject_id = ? AND type LIKE 'job.%' ORDER BY rowid").bind(jobId).all<{ type: string; data: string }>()).results.map((row) => ({
    type: row.type,
    data: JSON.parse(row.data),
  }));

/** One employer with: two listed active jobs, one unlisted active, one unlisted draft, one active without referenceId, one archived. */
async function employerWithJobs() {
  const employer = await createEmployer();
  const keep = await postJob(employer, { referenceId: "KEEP-1", status: "active" });
  await postJob(employer, { referenceId: "KEEP-2", status: "active" });
  const stale = await postJob(employer, { referenceId: "STALE-1", status: "active" });
  await postJob(employer, { referenceId: "DRAFT-1", status: "draft" });
  const unnamed = await postJob(employer, { status: "active" });
  await postJob(employer, { referenceId: "OLD-1", status: "archived" });
  return { employer, keep, stale, unnamed };
}

describe("POST /api/v1.1/jobs/reconcile (DESIGN 21)", () => {
  it("every active job whose referenceId is not listed is archived; drafts and jobs without a referenceId are untouched", async () => {
    const { employer, stale, unnamed } = await employerWithJobs();
    const res = await reconcile(employer, { referenceIds: ["KEEP-1", "KEEP-2"] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ affected: [{ id: stale.id, referenceId: "STALE-1" }], count: 1 });
    expect(await statusesOf(employer.employerId)).toEqual({
      "KEEP-1": "active",
      "KEEP-2": "active",
      "STALE-1": "archived",
      "DRAFT-1": "draft",
      [`id:${unnamed.id}`]: "active",
      "OLD-1": "archived",
    });
    const read = await request(`/jobs/${stale.id}`, { apiKey: employer.apiKey });
    expect(await read.json()).toMatchObject({ status: "archived", referenceId: "STALE-1" });
  });

  it("each archived job emits job.updated and job.archived, as the single PUT does, with the job as it is now", async () => {
    const { employer, stale } = await employerWithJobs();
    const before = await eventsOf(stale.id);
    await reconcile(employer, { referenceIds: ["KEEP-1", "KEEP-2"], action: "archive" });
    const after = (await eventsOf(stale.id)).slice(before.length);
    expect(after.map((e) => e.type)).toEqual(["job.updated", "job.archived"]);
    // The ETag is "id.revision.employerRevision": the events carry the job at its new revision.
    const revision = Number((await request(`/jobs/${stale.id}`, { apiKey: employer.apiKey })).headers.get("ETag")!.split(".")[1]);
    expect(revision).toBe(2);
    for (const event of after) expect(event.data.job).toMatchObject({ id: stale.id, status: "archived", revision });
  });

  it('action "delete" deletes them instead, each with its job.deleted', async () => {
    const { employer, stale } = await employerWithJobs();
    const res = await reconcile(employer, { referenceIds: ["KEEP-1", "KEEP-2"], action: "delete" });
    expect(await res.json()).toEqual({ affected: [{ id: stale.id, referenceId: "STALE-1" }], count: 1 });
    expect((await request(`/jobs/${stale.id}`, { apiKey: employer.apiKey })).status).toBe(404);
    expect((await eventsOf(stale.id)).at(-1)).toEqual({ type: "job.deleted", data: { job: { id: stale.id, referenceId: "STALE-1" }, actor: { type: "key" } } });
  });

  it("validateOnly=true answers what would change and changes nothing", async () => {
    const { employer, stale } = await employerWithJobs();
    const before = await statusesOf(employer.employerId);
    const res = await reconcile(employer, { referenceIds: ["KEEP-1"], action: "delete" }, "?validateOnly=true");
    expect(await res.json()).toEqual({
      affected: [
        { id: expect.any(Number), referenceId: "KEEP-2" },
        { id: stale.id, referenceId: "STALE-1" },
      ],
      count: 2,
    });
    expect(await statusesOf(employer.employerId)).toEqual(before);
  });

  it("duplicates in the list are allowed and count once; a list naming every active job changes nothing", async () => {
    const { employer } = await employerWithJobs();
    const res = await reconcile(employer, { referenceIds: ["KEEP-1", "KEEP-1", "KEEP-2", "STALE-1", "NEVER-SEEN"] });
    expect(await res.json()).toEqual({ affected: [], count: 0 });
  });

  it("Idempotency-Key: a repeat replays the first answer (Idempotent-Replayed) and changes nothing more; another body is a 422", async () => {
    const { employer, stale } = await employerWithJobs();
    const headers = { "Idempotency-Key": `reconcile-${crypto.randomUUID()}` };
    const first = await reconcile(employer, { referenceIds: ["KEEP-1", "KEEP-2"] }, "", headers);
    expect(await first.json()).toEqual({ affected: [{ id: stale.id, referenceId: "STALE-1" }], count: 1 });
    // Meanwhile another job appears that the list does not name: a replay does not touch it.
    await postJob(employer, { referenceId: "LATE-1", status: "active" });
    const replay = await reconcile(employer, { referenceIds: ["KEEP-1", "KEEP-2"] }, "", headers);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replay.json()).toEqual({ affected: [{ id: stale.id, referenceId: "STALE-1" }], count: 1 });
    expect((await statusesOf(employer.employerId))["LATE-1"]).toBe("active");
    const other = await reconcile(employer, { referenceIds: ["KEEP-1"] }, "", headers);
    expect(other.status).toBe(422);
  });

  it("another employer's jobs are never touched, whatever the list", async () => {
    const { employer: other } = await employerWithJobs();
    const before = await statusesOf(other.employerId);
    const caller = await createEmployer();
    const res = await reconcile(caller, { referenceIds: ["NOTHING"] });
    expect(await res.json()).toEqual({ affected: [], count: 0 });
    expect(await statusesOf(other.employerId)).toEqual(before);
  });

  it("bad input is a 400 naming the member: empty, over 10 000, non-strings, empty or long strings, unknown action", async () => {
    const employer = await createEmployer();
    const cases: [unknown, string[]][] = [
      [{}, ["referenceIds"]],
      [{ referenceIds: [] }, ["referenceIds"]],
      [{ referenceIds: Array.from({ length: 10_001 }, (_, i) => `R-${i}`) }, ["referenceIds"]],
      [{ referenceIds: ["OK", 7, null] }, ["referenceIds[1]", "referenceIds[2]"]],
      [{ referenceIds: ["", "x".repeat(51)] }, ["referenceIds[0]", "referenceIds[1]"]],
      [{ referenceIds: "KEEP-1" }, ["referenceIds"]],
      [{ referenceIds: ["A"], action: "purge" }, ["action"]],
    ];
    for (const [json, fields] of cases) {
      const res = await reconcile(employer, json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect((await problemOf(res)).errors!.map((e: any) => e.field).sort()).toEqual(fields);
    }
  });

  it("set-based: 10 000 referenceIds against 2 000 active jobs is one round trip, and the dry run one", async () => {
    const employer = await createEmployer();
    const ids = await seedJobs(env.DB, employer.employerId, 2_000, { referenceId: undefined });
    await env.DB.prepare("UPDATE jobs SET reference_id = 'SEED-' || id WHERE employer_id = ?").bind(employer.employerId).run();
    const listed = [...ids.slice(0, 1_500).map((id) => `SEED-${id}`), ...Array.from({ length: 8_500 }, (_, i) => `ELSEWHERE-${i}`)];
    const counter = countingD1(env.DB);
    const dry = await requestWith(counter.db, "/jobs/reconcile?validateOnly=true", { method: "POST", apiKey: employer.apiKey, json: { referenceIds: listed } });
    expect((await dry.json<any>()).count).toBe(500);
    expect(counter.count()).toBe(1);
    counter.reset();
    const res = await requestWith(counter.db, "/jobs/reconcile", { method: "POST", apiKey: employer.apiKey, json: { referenceIds: listed } });
    const answer = await res.json<any>();
    expect(answer.count).toBe(500);
    expect(answer.affected[0]).toEqual({ id: ids[1_500], referenceId: `SEED-${ids[1_500]}` });
    expect(counter.count()).toBe(1);
    const archived = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE employer_id = ? AND status = 'archived'").bind(employer.employerId).first<{ n: number }>();
    expect(archived!.n).toBe(500);
  });
});
