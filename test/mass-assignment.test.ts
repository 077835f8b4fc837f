import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createEmployer, request, type TestEmployer } from "./support/api";
import { jobBody, postJob } from "./support/jobs";

// OWASP API3 (broken object property level authorization): members the server owns, sent in
// any write body, are never applied (DESIGN 4: read-only members are ignored).

const FORGED_ID = 2_000_000_000;
const PAST = "2001-02-03T04:05:06Z";
const PAST_SECONDS = Date.parse(PAST) / 1000;

let owner: TestEmployer;
let other: TestEmployer;
beforeAll(async () => {
  owner = await createEmployer({ name: "Owner Ltd." });
  other = await createEmployer({ name: "Other Ltd." });
});

/** Every server-owned member, under its API name and under the names of its column. */
function forged(): Record<string, unknown> {
  return {
    id: FORGED_ID,
    employer: { id: other.employerId, name: "Other Ltd." },
    employerId: other.employerId,
    employer_id: other.employerId,
    employerName: "Forged",
    publishDate: PAST,
    publish_date: PAST_SECONDS,
    createdAt: PAST_SECONDS,
    created_at: PAST_SECONDS,
    updatedAt: PAST_SECONDS,
    updated_at: PAST_SECONDS,
    job_id: FORGED_ID,
    jobId: FORGED_ID,
  };
}

async function row(id: number) {
  return env.DB.prepare("SELECT id, employer_id, publish_date, created_at, updated_at FROM jobs WHERE id = ?")
    .bind(id)
    .first<{ id: number; employer_id: number; publish_date: number; created_at: number; updated_at: number }>();
}

/** What must hold of a job after a write that carried forged members. */
async function expectOwned(job: Record<string, any>, since: number) {
  expect(job.id).not.toBe(FORGED_ID);
  expect(job.employer).toEqual({ id: owner.employerId, name: "Owner Ltd." });
  expect(Date.parse(job.publishDate) / 1000).toBeGreaterThanOrEqual(since - 1);
  const stored = (await row(job.id))!;
  expect(stored.employer_id).toBe(owner.employerId);
  expect(stored.created_at).toBeGreaterThanOrEqual(since - 1);
  expect(stored.updated_at).toBeGreaterThanOrEqual(since - 1);
  expect(await row(FORGED_ID)).toBeNull();
  expect((await request(`/jobs/${job.id}`, { apiKey: other.apiKey })).status).toBe(404);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("mass assignment (OWASP API3)", () => {
  it("POST ignores id, employer, employerId/employer_id, publishDate and the timestamps", async () => {
    const since = nowSeconds();
    const res = await request("/jobs", { method: "POST", apiKey: owner.apiKey, json: jobBody({ ...forged(), status: "active" }) });
    expect(res.status).toBe(201);
    const job = await res.json<Record<string, any>>();
    expect(res.headers.get("Location")).toMatch(new RegExp(`/jobs/${job.id}$`));
    await expectOwned(job, since);
  });

  it("PUT by referenceId that creates ignores every server-owned member", async () => {
    const since = nowSeconds();
    const res = await request("/jobs", { method: "PUT", apiKey: owner.apiKey, json: jobBody({ ...forged(), referenceId: "MA-CREATE" }) });
    expect(res.status).toBe(201);
    await expectOwned(await res.json(), since);
  });

  it("PUT by id ignores every server-owned member and changes nothing it names", async () => {
    const job = await postJob(owner, { status: "active" });
    const before = (await row(job.id))!;
    const res = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: owner.apiKey, json: { ...forged(), title: "Renamed" } });
    expect(res.status).toBe(200);
    const updated = await res.json<Record<string, any>>();
    expect(updated).toMatchObject({ id: job.id, title: "Renamed", publishDate: job.publishDate, employer: job.employer });
    const after = (await row(job.id))!;
    expect(after).toMatchObject({ id: job.id, employer_id: owner.employerId, publish_date: before.publish_date, created_at: before.created_at });
    expect(await row(FORGED_ID)).toBeNull();
  });

  it("PUT by referenceId that updates ignores every server-owned member", async () => {
    const job = await postJob(owner, { referenceId: "MA-UPDATE", status: "active" });
    const res = await request("/jobs", { method: "PUT", apiKey: owner.apiKey, json: { ...forged(), referenceId: "MA-UPDATE", title: "Again" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: job.id, title: "Again", publishDate: job.publishDate, employer: job.employer });
    expect((await row(job.id))!.employer_id).toBe(owner.employerId);
  });

  it("a PUT naming another employer's job id in the body cannot reach it", async () => {
    const theirs = await postJob(other, { title: "Theirs" });
    const mine = await postJob(owner, { title: "Mine" });
    const res = await request(`/jobs/${mine.id}`, { method: "PUT", apiKey: owner.apiKey, json: { id: theirs.id, jobId: theirs.id, title: "Hijacked" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: mine.id, title: "Hijacked" });
    expect(await (await request(`/jobs/${theirs.id}`, { apiKey: other.apiKey })).json()).toMatchObject({ title: "Theirs", employer: { id: other.employerId } });
  });

  it("response-only members of nested objects (names, units, location ids) are ignored, never applied", async () => {
    const res = await request("/jobs", {
      method: "POST",
      apiKey: owner.apiKey,
      json: jobBody({
        locations: [{ id: 1, name: "Forged", type: "Province", description: "Vancouver, BC" }],
        categories: [{ id: 1, name: "Forged" }],
        positionType: { id: 1, name: "Forged" },
        salary: { amount: 1, type: { id: 1, name: "Forged", unit: "forged" } },
        applicantRoutingType: { id: 2, name: "Forged" },
        applicationUrl: "https://acme.example/apply",
      }),
    });
    expect(res.status).toBe(201);
    const job = await res.json<Record<string, any>>();
    expect(JSON.stringify(job)).not.toContain("Forged");
    expect(JSON.stringify(job)).not.toContain("forged");
    expect(job.locations[0]).toMatchObject({ name: "Vancouver", description: "Vancouver, BC" });
    const listed = await request("/jobcategories");
    expect((await listed.json<{ data: { id: number; name: string }[] }>()).data[0].name).toBe(job.categories[0].name);
  });

  it("any subset of server-owned members with any values, in any write, is never applied (property)", async () => {
    // No positive integer below 10^9: a forged id equal to the id the job gets anyway would
    // prove nothing (the test database hands out small ids).
    const integer = fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 1_000_000_000 }));
    const value = fc.oneof(integer, fc.string({ maxLength: 10 }), fc.constant(null), fc.boolean(), fc.constant(PAST), fc.constant({ id: 1, name: "x" }));
    const member = fc.constantFrom("id", "employer", "employerId", "employer_id", "publishDate", "publish_date", "createdAt", "created_at", "updatedAt", "updated_at", "employerName");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.dictionary(member, value, { minKeys: 1 }), fc.constantFrom("POST", "PUT-ref", "PUT-id"), async (extra, mode) => {
        const since = nowSeconds();
        const existing = mode === "PUT-id" ? await postJob(owner) : undefined;
        const reference = `MA-P-${++n}`;
        const res =
          mode === "POST"
            ? await request("/jobs", { method: "POST", apiKey: owner.apiKey, json: { ...jobBody(), ...extra } })
            : mode === "PUT-ref"
              ? await request("/jobs", { method: "PUT", apiKey: owner.apiKey, json: { ...jobBody(), ...extra, referenceId: reference } })
              : await request(`/jobs/${existing!.id}`, { method: "PUT", apiKey: owner.apiKey, json: { ...extra, title: "changed" } });
        expect(res.status, `${mode} ${JSON.stringify(extra)}: ${res.status}`).toBeLessThan(300);
        const job = await res.json<Record<string, any>>();
        expect(job.employer.id).toBe(owner.employerId);
        if (existing) {
          expect(job).toMatchObject({ id: existing.id, publishDate: existing.publishDate });
        } else {
          expect(job.id).not.toBe(extra.id);
          expect(Date.parse(job.publishDate) / 1000).toBeGreaterThanOrEqual(since - 1);
        }
        expect((await row(job.id))!.employer_id).toBe(owner.employerId);
      }),
      { numRuns: 30 },
    );
  });
});
