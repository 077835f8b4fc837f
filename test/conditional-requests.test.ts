import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { jobBody, postJob } from "./support/jobs";

// DESIGN 11: ETags from a stored revision, If-None-Match on GET, If-Match on every write.

const employer = await createEmployer({ plan: "unlimited" });

const put = (path: string, json: unknown, headers: Record<string, string> = {}, who: TestEmployer = employer) =>
  request(path, { method: "PUT", apiKey: who.apiKey, json, headers });
const get = (id: number, headers: Record<string, string> = {}) => request(`/jobs/${id}`, { apiKey: employer.apiKey, headers });
const etagOf = async (id: number) => (await get(id)).headers.get("ETag")!;

async function created(overrides: Record<string, unknown> = {}) {
  const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody(overrides) });
  expect(res.status).toBe(201);
  return { job: await res.json<any>(), etag: res.headers.get("ETag")! };
}

describe("ETag", () => {
  it("every response carrying one job has a strong ETag: POST, GET, PUT by id, PUT by referenceId", async () => {
    const { job, etag } = await created({ referenceId: "ETAG-1" });
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(await etagOf(job.id)).toBe(etag);
    const byId = await put(`/jobs/${job.id}`, { title: "Renamed" });
    expect(byId.headers.get("ETag")).toMatch(/^"[^"]+"$/);
    const byReference = await put("/jobs", { referenceId: "ETAG-1", title: "Renamed again" });
    expect(byReference.headers.get("ETag")).toMatch(/^"[^"]+"$/);
    expect(new Set([etag, byId.headers.get("ETag"), byReference.headers.get("ETag")]).size).toBe(3);
  });

  it("the ETag changes with each kind of write: a PUT, a re-publish, a list change", async () => {
    const { job, etag } = await created({ status: "active" });
    const seen = [etag];
    for (const change of [{ title: "New title" }, { status: "archived" }, { status: "active" }, { categories: [{ id: 2 }] }]) {
      const res = await put(`/jobs/${job.id}`, change);
      expect(res.status).toBe(200);
      seen.push(res.headers.get("ETag")!);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(await etagOf(job.id)).toBe(seen.at(-1));
  });

  it("the ETag changes when the cron refreshes or archives the job, and only those jobs", async () => {
    const now = Math.floor(Date.now() / 1000);
    const refreshed = await created({ status: "active", autoRefresh: true });
    const expiring = await created({ status: "active", closeDate: new Date((now + 3600) * 1000).toISOString() });
    const untouched = await created({ status: "active" });
    // Make the refreshable job 8 days old, as the cron sees it a week later.
    await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - 8 * 86400 WHERE id = ?").bind(refreshed.job.id).run();
    await worker.scheduled({ cron: "0 * * * *", scheduledTime: (now + 7200) * 1000 } as ScheduledController, env);
    expect(await etagOf(refreshed.job.id)).not.toBe(refreshed.etag);
    expect(await etagOf(expiring.job.id)).not.toBe(expiring.etag);
    expect((await (await get(expiring.job.id)).json<any>()).status).toBe("archived");
    expect(await etagOf(untouched.job.id)).toBe(untouched.etag);
  });

  it("a PUT that changes nothing writes nothing: the ETag stays", async () => {
    const { job, etag } = await created({ title: "Same", status: "active" });
    const res = await put(`/jobs/${job.id}`, { title: "Same", status: "active", categories: [{ id: 1 }] });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe(etag);
  });
});

describe("If-None-Match on GET /jobs/{id}", () => {
  it("a match answers 304 Not Modified with the ETag and no body", async () => {
    const { job, etag } = await created();
    const res = await get(job.id, { "If-None-Match": etag });
    expect(res.status).toBe(304);
    expect(res.headers.get("ETag")).toBe(etag);
    expect(await res.text()).toBe("");
  });

  it("`*`, a list containing the tag, and the weak form of it match too", async () => {
    const { job, etag } = await created();
    for (const header of ["*", `"nope", ${etag}`, `W/${etag}`]) expect((await get(job.id, { "If-None-Match": header })).status, header).toBe(304);
  });

  it("an old tag answers 200 with the job", async () => {
    const { job, etag } = await created();
    await put(`/jobs/${job.id}`, { title: "Changed" });
    const res = await get(job.id, { "If-None-Match": etag });
    expect(res.status).toBe(200);
    expect((await res.json<any>()).title).toBe("Changed");
  });
});

describe("If-Match on writes", () => {
  it("PUT by id with the current ETag succeeds; with an old one: 412 /problems/precondition-failed with the current ETag, nothing changed", async () => {
    const { job, etag } = await created({ title: "Original" });
    const first = await put(`/jobs/${job.id}`, { title: "First" }, { "If-Match": etag });
    expect(first.status).toBe(200);
    const current = first.headers.get("ETag")!;
    const stale = await put(`/jobs/${job.id}`, { title: "Second" }, { "If-Match": etag });
    expect(stale.status).toBe(412);
    expect(stale.headers.get("ETag")).toBe(current);
    expect((await problemOf(stale)).type).toBe("/problems/precondition-failed");
    expect((await (await get(job.id)).json<any>()).title).toBe("First");
  });

  it("`*` matches any existing job; a list matches when any member does; a weak tag never matches", async () => {
    const { job, etag } = await created();
    expect((await put(`/jobs/${job.id}`, { title: "Star" }, { "If-Match": "*" })).status).toBe(200);
    const now = await etagOf(job.id);
    expect((await put(`/jobs/${job.id}`, { title: "Listed" }, { "If-Match": `${etag}, ${now}` })).status).toBe(200);
    const latest = await etagOf(job.id);
    expect((await put(`/jobs/${job.id}`, { title: "Weak" }, { "If-Match": `W/${latest}` })).status).toBe(412);
  });

  it("PUT by referenceId: a mismatch is 412; with If-Match a new referenceId is 412, never a creation", async () => {
    await created({ referenceId: "IFM-REF-1" });
    expect((await put("/jobs", { referenceId: "IFM-REF-1", title: "x" }, { "If-Match": '"0.0"' })).status).toBe(412);
    const none = await put("/jobs", jobBody({ referenceId: "IFM-REF-NEW" }), { "If-Match": "*" });
    expect(none.status).toBe(412);
    expect(none.headers.get("ETag")).toBeNull();
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE reference_id = 'IFM-REF-NEW'").first<{ n: number }>())!;
    expect(n).toBe(0);
  });

  it("DELETE by id and by referenceId: a mismatch is 412 with the current ETag and the job stays; a match deletes", async () => {
    const { job, etag } = await created({ referenceId: "IFM-DEL-1" });
    await put(`/jobs/${job.id}`, { title: "Moved on" });
    const current = await etagOf(job.id);
    const stale = await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey, headers: { "If-Match": etag } });
    expect(stale.status).toBe(412);
    expect(stale.headers.get("ETag")).toBe(current);
    const staleByReference = await request("/jobs", {
      method: "DELETE",
      apiKey: employer.apiKey,
      json: { referenceId: "IFM-DEL-1" },
      headers: { "If-Match": etag },
    });
    expect(staleByReference.status).toBe(412);
    expect((await get(job.id)).status).toBe(200);
    const deleted = await request("/jobs", {
      method: "DELETE",
      apiKey: employer.apiKey,
      json: { referenceId: "IFM-DEL-1" },
      headers: { "If-Match": current },
    });
    expect(deleted.status).toBe(204);
    expect((await get(job.id)).status).toBe(404);
  });

  it("a job that does not exist, or is another employer's, answers as without the header: 404, no ETag", async () => {
    const { job, etag } = await created();
    const other = await createEmployer();
    for (const res of [
      await put(`/jobs/${job.id}`, { title: "x" }, { "If-Match": etag }, other),
      await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: other.apiKey, headers: { "If-Match": etag } }),
      await put("/jobs/2147483000", { title: "x" }, { "If-Match": "*" }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.headers.get("ETag")).toBeNull();
    }
  });

  it("10 simultaneous PUTs with the same If-Match: exactly one 200, the others 412 (repeated over rounds)", async () => {
    const job = await postJob(employer);
    for (let round = 0; round < 5; round++) {
      const etag = await etagOf(job.id);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => put(`/jobs/${job.id}`, { title: `Round ${round} writer ${i}` }, { "If-Match": etag })),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(412)]);
      const winner = answers.find((res) => res.status === 200)!;
      expect(await etagOf(job.id)).toBe(winner.headers.get("ETag"));
    }
  });
});
