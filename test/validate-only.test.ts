import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request } from "./support/api";
import { jobBody, postJob } from "./support/jobs";

// DESIGN 11: `?validateOnly=true` checks everything the real request would, writes nothing.

const employer = await createEmployer({ name: "Preview Ltd." });

/** Rows of every table a job write touches, to prove nothing was written. */
async function footprint() {
  const row = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM jobs) AS jobs, (SELECT count(*) FROM locations) AS locations,
       (SELECT count(*) FROM job_locations) AS links, (SELECT count(*) FROM job_categories) AS categories,
       (SELECT count(*) FROM idempotency_keys) AS keys, (SELECT sum(revision) FROM jobs) AS revisions`,
  ).first();
  return row;
}

const send = (method: string, path: string, json: unknown, headers: Record<string, string> = {}) =>
  request(path, { method, apiKey: employer.apiKey, json, headers });

describe("validateOnly=true", () => {
  it("POST: 200 with the job as it would be stored (id null, a new place's id null), nothing written, no ETag", async () => {
    const before = await footprint();
    const res = await send("POST", "/jobs?validateOnly=true", jobBody({
      referenceId: "PREVIEW-1",
      status: "active",
      locations: [{ description: "Vancouver, BC" }, { description: "Preview Creek, BC" }],
      salary: { amount: 52000.5, type: { id: 1 } },
    }), { "Idempotency-Key": "preview-key" });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBeNull();
    expect(res.headers.get("Location")).toBeNull();
    const job = await res.json<any>();
    expect(job).toMatchObject({
      id: null,
      referenceId: "PREVIEW-1",
      employer: { id: employer.employerId, name: "Preview Ltd." },
      status: "active",
      salary: { amount: 52000.5, type: { id: 1, name: "Yearly", unit: "year" }, plusCommission: false },
      categories: [{ id: 1, name: expect.any(String) }],
    });
    expect(job.locations[0]).toMatchObject({ name: "Vancouver", description: "Vancouver, BC", type: "City" });
    expect(job.locations[1]).toEqual({
      id: null,
      name: "Preview Creek",
      description: "Preview Creek, BC",
      type: "City",
      latitude: null,
      longitude: null,
    });
    expect(await footprint()).toEqual(before);
  });

  it("the preview equals what the real request then stores (ids and times aside)", async () => {
    const body = jobBody({ referenceId: "PREVIEW-SAME", title: "Same Either Way", positionType: { id: 2 } });
    const preview = await (await send("POST", "/jobs?validateOnly=true", body)).json<any>();
    const stored = await (await send("POST", "/jobs", body)).json<any>();
    const strip = ({ id, publishDate, closeDate, ...rest }: any) => rest;
    expect(strip(preview)).toEqual(strip(stored));
  });

  it("PUT by id and by referenceId: the merged job, nothing written; a referenceId with no job previews a creation", async () => {
    const job = await postJob(employer, { referenceId: "PREVIEW-PUT", title: "Before" });
    const before = await footprint();
    const byId = await send("PUT", `/jobs/${job.id}?validateOnly=true`, { title: "After" });
    expect(byId.status).toBe(200);
    expect(await byId.json<any>()).toMatchObject({ id: job.id, title: "After", referenceId: "PREVIEW-PUT" });
    const byReference = await send("PUT", "/jobs?validateOnly=true", { referenceId: "PREVIEW-PUT", status: "active" });
    expect(await byReference.json<any>()).toMatchObject({ id: job.id, title: "Before", status: "active" });
    const creating = await send("PUT", "/jobs?validateOnly=true", jobBody({ referenceId: "PREVIEW-NEW" }));
    expect(creating.status).toBe(200);
    expect((await creating.json<any>()).id).toBeNull();
    expect(await footprint()).toEqual(before);
  });

  it("the same 4xx as the real request: 400 naming the members, 409 for a used referenceId or a move to draft, 404, 412", async () => {
    const job = await postJob(employer, { referenceId: "PREVIEW-TAKEN", status: "active" });
    const etag = (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).headers.get("ETag")!;
    const cases: [string, string, unknown, Record<string, string>?][] = [
      ["POST", "/jobs", jobBody({ categories: [], salary: { amount: "x" } })],
      ["POST", "/jobs", jobBody({ referenceId: "PREVIEW-TAKEN" })],
      ["PUT", `/jobs/${job.id}`, { status: "draft" }],
      ["PUT", "/jobs/2147483000", { title: "x" }],
      ["PUT", `/jobs/${job.id}`, { title: "x" }, { "If-Match": '"0.0"' }],
    ];
    await send("PUT", `/jobs/${job.id}`, { title: "moved on" }, { "If-Match": etag });
    for (const [method, path, body, headers] of cases) {
      const real = await send(method, path, body, headers);
      const checked = await send(method, `${path}?validateOnly=true`, body, headers);
      expect(checked.status, `${method} ${path}`).toBe(real.status);
      const [a, b] = [await problemOf(real), await problemOf(checked)];
      expect(b.type).toBe(a.type);
      expect(b.errors).toEqual(a.errors);
    }
  });

  it("batch: 'a dry run answers exactly what the write would': each upsert entry's job, a creation and an update, equals the real write's (ids and times aside)", async () => {
    await postJob(employer, { referenceId: "PREVIEW-B-OLD", title: "Old" });
    const body = {
      upsert: [
        jobBody({ referenceId: "PREVIEW-B-NEW", title: "Made in a batch", positionType: { id: 2 }, salary: { amount: 40000, type: { id: 1 } } }),
        { referenceId: "PREVIEW-B-OLD", title: "Renamed in a batch" },
      ],
    };
    const dry = await send("POST", "/jobs/batch?validateOnly=true", body);
    expect(dry.status).toBe(200);
    const dryResults = (await dry.json<any>()).results;
    const realResults = (await (await send("POST", "/jobs/batch", body)).json<any>()).results;
    const strip = ({ id, publishDate, closeDate, ...rest }: any) => rest;
    expect(dryResults.map((r: any) => r.status)).toEqual(realResults.map((r: any) => r.status));
    for (const [i, real] of realResults.entries()) {
      expect(dryResults[i].job.employer, `upsert[${i}]`).toEqual({ id: employer.employerId, name: "Preview Ltd." });
      expect(strip(dryResults[i].job), `upsert[${i}]`).toEqual(strip(real.job));
    }
  });

  it("validateOnly=false is an ordinary request; any other value is a 400 naming validateOnly", async () => {
    expect((await send("POST", "/jobs?validateOnly=false", jobBody())).status).toBe(201);
    const res = await send("POST", "/jobs?validateOnly=yes", jobBody());
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors?.map((e) => e.field)).toEqual(["validateOnly"]);
  });
});
