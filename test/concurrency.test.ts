import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, request } from "./support/api";
import { jobBody, postJob } from "./support/jobs";
import { expectSafeResponse } from "./support/safety";

// Requests in flight together, as clients retrying or racing would send them. Inside workerd
// `Promise.all` of fetches interleaves the handlers at every await (D1 round trips), which is
// exactly where a read-then-write race would show.

async function all(requests: Promise<Response>[]): Promise<{ status: number; body: any }[]> {
  return Promise.all(
    requests.map(async (pending, i) => {
      const res = await pending;
      const text = await expectSafeResponse(res, `request ${i}`);
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }),
  );
}

const countRows = async (employerId: number, referenceId?: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM jobs WHERE employer_id = ?${referenceId ? " AND reference_id = ?" : ""}`)
    .bind(...(referenceId ? [employerId, referenceId] : [employerId]))
    .first<{ n: number }>())!.n;

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

describe("concurrency", () => {
  it("50 simultaneous identical PUTs by a new referenceId create exactly one job (spec 4.3: idempotent)", async () => {
    const employer = await createEmployer();
    const body = jobBody({ referenceId: "RACE-PUT-1" });
    const results = await all(Array.from({ length: 50 }, () => request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: body })));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 200: 49 });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await countRows(employer.employerId, "RACE-PUT-1")).toBe(1);
    expect(await countRows(employer.employerId)).toBe(1);
  });

  it("50 simultaneous POSTs with one referenceId: one 201 and 49 409s naming the job (spec 7.1)", async () => {
    const employer = await createEmployer();
    const body = jobBody({ referenceId: "RACE-POST-1" });
    const results = await all(Array.from({ length: 50 }, () => request("/jobs", { method: "POST", apiKey: employer.apiKey, json: body })));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 409: 49 });
    const created = results.find((r) => r.status === 201)!.body;
    for (const conflict of results.filter((r) => r.status === 409)) expect(conflict.body.existingJobId).toBe(created.id);
    expect(await countRows(employer.employerId)).toBe(1);
  });

  it("simultaneous partial PUTs to one job, each changing a different member: every change is kept (DESIGN 4: merge patch)", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, {
      referenceId: "PARTIAL-1",
      closeDate: "2030-01-01",
      salary: { amount: 50000, maxAmount: 90000, type: { id: 1 }, plusCommission: false },
      applicantRoutingType: { id: 1 },
      applicationEmail: "old@acme.example",
      positionType: { id: 1 },
      description: "Old description",
    });
    // Every writable member the job has, one PUT each; each value is valid whatever the others do.
    const changes: Record<string, unknown>[] = [
      { title: "New title" },
      { referenceId: "PARTIAL-1-RENAMED" },
      { closeDate: "2031-06-30" },
      { confidential: true },
      { autoRefresh: true },
      { status: "active" },
      { locations: [{ description: "Toronto, ON" }] },
      { categories: [{ id: 2 }, { id: 3 }] },
      { positionType: { id: 3 } },
      { salary: { amount: 60000 } },
      { salary: { maxAmount: 80000 } },
      { salary: { type: { id: 2 } } },
      { salary: { plusCommission: true } },
      { description: "New description" },
      { applicationEmail: "new@acme.example" },
    ];
    const results = await all(changes.map((json) => request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json })));
    expect(results.map((r) => r.status)).toEqual(changes.map(() => 200));

    const final = await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<Record<string, any>>();
    expect(final).toMatchObject({
      title: "New title",
      referenceId: "PARTIAL-1-RENAMED",
      closeDate: "2031-06-30T23:59:59Z",
      confidential: true,
      autoRefresh: true,
      status: "active",
      locations: [{ description: "Toronto, ON" }],
      categories: [{ id: 2 }, { id: 3 }],
      positionType: { id: 3 },
      salary: { amount: 60000, maxAmount: 80000, type: { id: 2 }, plusCommission: true },
      description: "New description",
      applicantRoutingType: { id: 1 },
      applicationEmail: "new@acme.example",
    });
  });

  it("50 simultaneous POSTs with distinct bodies: 50 jobs, each response is the job its request sent", async () => {
    const employer = await createEmployer();
    const results = await all(
      Array.from({ length: 50 }, (_, i) =>
        request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ title: `Job ${i}`, referenceId: `DISTINCT-${i}` }) }),
      ),
    );
    results.forEach((r, i) => {
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ title: `Job ${i}`, referenceId: `DISTINCT-${i}`, employer: { id: employer.employerId } });
    });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(50);
    expect(await countRows(employer.employerId)).toBe(50);
  });

  it("two employers creating at once never get each other's jobs, even with the same referenceIds", async () => {
    const [a, b] = [await createEmployer(), await createEmployer()];
    const results = await all(
      Array.from({ length: 40 }, (_, i) => {
        const who = i % 2 ? a : b;
        return request("/jobs", { method: "PUT", apiKey: who.apiKey, json: jobBody({ referenceId: `SHARED-${i >> 1}`, title: `by ${who.employerId}` }) });
      }),
    );
    results.forEach((r, i) => {
      const who = i % 2 ? a : b;
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ employer: { id: who.employerId }, title: `by ${who.employerId}` });
    });
    expect(await countRows(a.employerId)).toBe(20);
    expect(await countRows(b.employerId)).toBe(20);
  });

  it("simultaneous DELETEs and PUTs of one job: exactly one 204, the rest 404 or 200, never a 5xx", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { referenceId: "DOOMED" });
    const results = await all([
      ...Array.from({ length: 10 }, () => request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey })),
      ...Array.from({ length: 10 }, (_, i) => request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: `t${i}` } })),
      ...Array.from({ length: 5 }, () => request("/jobs", { method: "DELETE", apiKey: employer.apiKey, json: { referenceId: "DOOMED" } })),
    ]);
    const deletes = results.filter((_, i) => i < 10 || i >= 20).map((r) => r.status);
    expect(deletes.filter((s) => s === 204)).toHaveLength(1);
    expect(deletes.filter((s) => s !== 204).every((s) => s === 404)).toBe(true);
    expect(results.slice(10, 20).every((r) => r.status === 200 || r.status === 404)).toBe(true);
    expect(await countRows(employer.employerId)).toBe(0);
    expect((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).status).toBe(404);
  });

  it("simultaneous upserts and deletes by one referenceId leave at most one job and never a 5xx", async () => {
    const employer = await createEmployer();
    const body = jobBody({ referenceId: "FLAPPING" });
    await all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 2
          ? request("/jobs", { method: "DELETE", apiKey: employer.apiKey, json: { referenceId: "FLAPPING" } })
          : request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: body }),
      ),
    );
    expect(await countRows(employer.employerId, "FLAPPING")).toBeLessThanOrEqual(1);
  });
});

// DESIGN 4: a PUT's write is conditioned on the revision its merge started from; when another
// write came first, the request is merged and validated again onto the newer job. The other
// write is made to land exactly between the request's read and its write.
describe("rules spanning members hold under concurrent PUTs (DESIGN 4)", () => {
  const putBetween = async (employer: { apiKey: string }, path: string, json: unknown, meanwhile: () => Promise<unknown>) => {
    const { interleavedD1, requestWith } = await import("./support/d1-proxies");
    return requestWith(interleavedD1(meanwhile), path, { method: "PUT", apiKey: employer.apiKey, json });
  };
  const stored = async (employer: { apiKey: string }, id: number) => (await request(`/jobs/${id}`, { apiKey: employer.apiKey })).json<any>();

  it("salary 100–200: {amount: 150} and {maxAmount: 120}, each valid alone, never store amount 150 with max 120", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { salary: { amount: 100, maxAmount: 200, type: { id: 1 } } });
    const other = () => request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { salary: { maxAmount: 120 } } });
    const res = await putBetween(employer, `/jobs/${job.id}`, { salary: { amount: 150 } }, other);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors.map((e: any) => e.field)).toEqual(["salary.maxAmount"]);
    expect((await stored(employer, job.id)).salary).toMatchObject({ amount: 100, maxAmount: 120 });
  });

  it("routing and its address: an email change racing a switch to URL routing does not leave an email on a URL-routed job", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { applicantRoutingType: { id: 1 }, applicationEmail: "hr@acme.example" });
    const toUrl = { applicantRoutingType: { id: 2 }, applicationUrl: "https://acme.example/apply" };
    const other = () => request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: toUrl });
    const res = await putBetween(employer, `/jobs/${job.id}`, { applicationEmail: "jobs@acme.example" }, other);
    // Merged again onto the URL-routed job, the email is ignored and stored as null (DESIGN 4).
    expect(res.status).toBe(200);
    expect(await stored(employer, job.id)).toMatchObject({ ...toUrl, applicantRoutingType: { id: 2, name: "URL" }, applicationEmail: null });
  });

  it("a re-publish racing a closeDate change: closeDate stays after publishDate", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { status: "active" });
    await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "archived" } });
    // Published ten days ago, then archived.
    await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - 10 * 86400 WHERE id = ?").bind(job.id).run();
    const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    // Valid alone: after the job's publishDate ten days ago.
    const other = () => request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { closeDate: fiveDaysAgo } });
    const res = await putBetween(employer, `/jobs/${job.id}`, { status: "active" }, other);
    expect(res.status).toBe(200);
    const after = await stored(employer, job.id);
    // Merged again onto the newer job, the re-publish finds closeDate past and moves it (DESIGN 4).
    expect(Date.parse(after.closeDate)).toBeGreaterThan(Date.parse(after.publishDate));
    expect(Date.parse(after.closeDate) - Date.parse(after.publishDate)).toBe(60 * 86_400_000);
  });

  it("changes of different members made between read and write are both kept", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer);
    const other = () => request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { confidential: true } });
    const res = await putBetween(employer, `/jobs/${job.id}`, { title: "Both kept" }, other);
    expect(res.status).toBe(200);
    expect(await stored(employer, job.id)).toMatchObject({ title: "Both kept", confidential: true });
  });

  it("a PUT by referenceId racing a DELETE creates the job (spec 4.3), and its failed first write left no place behind", async () => {
    const employer = await createEmployer();
    await postJob(employer, { referenceId: "RACE-DEL-1" });
    const other = () => request("/jobs", { method: "DELETE", apiKey: employer.apiKey, json: { referenceId: "RACE-DEL-1" } });
    const body = jobBody({ referenceId: "RACE-DEL-1", locations: [{ description: "Racing Hollow, MB" }] });
    const res = await putBetween(employer, "/jobs", body, other);
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).locations[0].description).toBe("Racing Hollow, MB");
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM locations WHERE name_key = 'racing hollow'").first<{ n: number }>())!;
    expect(n).toBe(1);
    expect(await countRows(employer.employerId, "RACE-DEL-1")).toBe(1);
  });
});
