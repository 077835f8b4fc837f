import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request } from "./support/api";
import { jobBody, postJob } from "./support/jobs";

const employer = await createEmployer();
const put = (path: string, json: unknown) => request(path, { method: "PUT", apiKey: employer.apiKey, json });

describe("PUT /api/v1.1/jobs/{id}: partial update (spec 4.3)", () => {
  it("a body of just a title changes only the title", async () => {
    const job = await postJob(employer, { salary: { amount: 10, type: { id: 1 } }, description: "Hello" });
    const res = await put(`/jobs/${job.id}`, { title: "New title" });
    expect(res.status).toBe(200);
    const updated = await res.json<Record<string, unknown>>();
    expect(updated).toEqual({ ...job, title: "New title" });
  });

  it("null clears a member, salary merges member by member, salary: null removes it", async () => {
    const job = await postJob(employer, { salary: { amount: 10, type: { id: 1 } }, positionType: { id: 1 } });
    const raised = await (await put(`/jobs/${job.id}`, { salary: { maxAmount: 20 }, positionType: null })).json<any>();
    expect(raised.salary).toMatchObject({ amount: 10, maxAmount: 20, type: { id: 1 } });
    expect(raised.positionType).toBeNull();
    const removed = await (await put(`/jobs/${job.id}`, { salary: null })).json<any>();
    expect(removed.salary).toBeNull();
  });

  it("a sent list replaces the whole list, in the client's order", async () => {
    const job = await postJob(employer, { categories: [{ id: 1 }, { id: 2 }] });
    const updated = await (await put(`/jobs/${job.id}`, { categories: [{ id: 5 }, { id: 4 }] })).json<any>();
    expect(updated.categories.map((c: any) => c.id)).toEqual([5, 4]);
    expect(updated.locations).toEqual(job.locations);
  });

  it("the merged job must satisfy every rule", async () => {
    const job = await postJob(employer);
    const res = await put(`/jobs/${job.id}`, { applicantRoutingType: { id: 1 }, salary: { amount: 5 }, locations: [] });
    expect(res.status).toBe(400);
    const fields = (await problemOf(res)).errors!.map((e) => e.field).sort();
    expect(fields).toEqual(["applicationEmail", "locations", "salary.type.id"]);
  });

  it("changing referenceId to one already used → 409 naming that job", async () => {
    const first = await postJob(employer, { referenceId: "TAKEN" });
    const second = await postJob(employer);
    const res = await put(`/jobs/${second.id}`, { referenceId: "TAKEN" });
    expect(res.status).toBe(409);
    expect((await problemOf(res)).existingJobId).toBe(first.id);
  });

  it("a Job from GET PUT back to itself changes nothing", async () => {
    const job = await postJob(employer, { salary: { amount: 1234.5678, type: { id: 2 } }, positionType: { id: 4 }, status: "active" });
    const { id, publishDate, ...body } = job;
    const res = await put(`/jobs/${id}`, body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(job);
  });

  it("member types are checked: no coercion, each error at its path", async () => {
    const job = await postJob(employer);
    const res = await put(`/jobs/${job.id}`, { title: 7, salary: { amount: "10" }, status: "open" });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((e) => e.field).sort()).toEqual(["salary.amount", "status", "title"]);
  });

  it("type errors and the merged job's rules are reported together", async () => {
    const job = await postJob(employer);
    const res = await put(`/jobs/${job.id}`, { title: 7, salary: { amount: 5 }, applicantRoutingType: { id: 2 } });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((e) => e.field).sort()).toEqual(["applicationUrl", "salary.type.id", "title"]);
    const create = await put("/jobs", { referenceId: "NEW-WITH-ERRORS", title: 7 });
    expect((await problemOf(create)).errors!.map((e) => e.field).sort()).toEqual(["categories", "locations", "title"]);
  });

  it("a PUT needs a JSON body: 415 for another media type, 400 for none", async () => {
    const job = await postJob(employer);
    const text = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(text.status).toBe(415);
    const empty = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, headers: { "Content-Type": "application/json" } });
    expect(empty.status).toBe(400);
  });

  it("closeDate: a date-time with an offset is stored in UTC; null resets it to publishDate + 60 days", async () => {
    const job = await postJob(employer);
    const set = await (await put(`/jobs/${job.id}`, { closeDate: "2027-03-01T09:30:00-05:00" })).json<any>();
    expect(set.closeDate).toBe("2027-03-01T14:30:00Z");
    const reset = await (await put(`/jobs/${job.id}`, { closeDate: null })).json<any>();
    expect(Date.parse(reset.closeDate) - Date.parse(reset.publishDate)).toBe(60 * 86_400_000);
  });

  it("an unknown id is 404", async () => {
    expect((await put("/jobs/2147483647", { title: "x" })).status).toBe(404);
  });

  it("concurrent partial updates of different members are all kept", async () => {
    const job = await postJob(employer);
    const changes = [
      { title: "Changed title" },
      { description: "Changed description" },
      { confidential: true },
      { positionType: { id: 3 } },
      { salary: { amount: 42, type: { id: 5 } } },
      { categories: [{ id: 7 }] },
      { locations: [{ description: "Halifax, NS" }] },
      { closeDate: "2027-06-30" },
    ];
    const responses = await Promise.all(changes.map((change) => put(`/jobs/${job.id}`, change)));
    expect(responses.map((r) => r.status)).toEqual(changes.map(() => 200));
    const final = await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>();
    expect(final).toMatchObject({
      title: "Changed title",
      description: "Changed description",
      confidential: true,
      positionType: { id: 3 },
      salary: { amount: 42, type: { id: 5 } },
      categories: [{ id: 7 }],
      locations: [{ description: "Halifax, NS" }],
      closeDate: "2027-06-30T23:59:59Z",
    });
  });
});

describe("status transitions (spec 3, DESIGN 4)", () => {
  it("draft → active publishes now; active → archived; archived → active re-publishes", async () => {
    const job = await postJob(employer);
    await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - 3600 WHERE id = ?").bind(job.id).run();
    const active = await (await put(`/jobs/${job.id}`, { status: "active" })).json<any>();
    expect(active.status).toBe("active");
    expect(Date.parse(active.publishDate)).toBeGreaterThan(Date.parse(job.publishDate) - 3600_000);
    const archived = await (await put(`/jobs/${job.id}`, { status: "archived" })).json<any>();
    expect(archived).toMatchObject({ status: "archived", publishDate: active.publishDate });
    await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - 86400 * 90, close_date = close_date - 86400 * 90 WHERE id = ?")
      .bind(job.id)
      .run();
    const republished = await (await put(`/jobs/${job.id}`, { status: "active" })).json<any>();
    expect(Date.parse(republished.publishDate)).toBeGreaterThanOrEqual(Date.parse(active.publishDate));
    // The closeDate had passed, so it is renewed to 60 days after the new publishDate.
    expect(Date.parse(republished.closeDate) - Date.parse(republished.publishDate)).toBe(60 * 86_400_000);
  });

  it("draft → archived is allowed", async () => {
    const job = await postJob(employer);
    expect((await (await put(`/jobs/${job.id}`, { status: "archived" })).json<any>()).status).toBe("archived");
  });

  it("moving back to draft → 409", async () => {
    for (const status of ["active", "archived"]) {
      const job = await postJob(employer, { status });
      const res = await put(`/jobs/${job.id}`, { status: "draft" });
      expect(res.status).toBe(409);
      expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    }
  });

  it("sending the status a job already has changes nothing, publishDate included", async () => {
    const job = await postJob(employer, { status: "active" });
    await env.DB.prepare("UPDATE jobs SET publish_date = publish_date - 3600 WHERE id = ?").bind(job.id).run();
    const before = await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>();
    const after = await (await put(`/jobs/${job.id}`, { status: "active" })).json<any>();
    expect(after).toEqual(before);
  });
});

describe("PUT /api/v1.1/jobs with referenceId: create or update (spec 4.3)", () => {
  it("an unknown referenceId creates: 201 + Location; repeating updates: 200, same job", async () => {
    const body = jobBody({ referenceId: "PUT-1", title: "First" });
    const created = await put("/jobs", body);
    expect(created.status).toBe(201);
    const job = await created.json<any>();
    expect(created.headers.get("Location")).toBe(`https://api.test/api/v1.1/jobs/${job.id}`);
    const again = await put("/jobs", { ...body, title: "Second" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: job.id, title: "Second", referenceId: "PUT-1" });
  });

  it("a partial body updates only what it sends", async () => {
    const job = await postJob(employer, { referenceId: "PUT-2", title: "Keep me" });
    const res = await put("/jobs", { referenceId: "PUT-2", status: "active" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: job.id, title: "Keep me", status: "active" });
  });

  it("referenceId is required on this path", async () => {
    const res = await put("/jobs", jobBody());
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((e) => e.field)).toContain("referenceId");
  });

  it("20 concurrent identical PUTs → exactly one job, one 201, the rest 200, no 500", async () => {
    const body = jobBody({ referenceId: "RACE-PUT", title: "Raced" });
    const responses = await Promise.all(Array.from({ length: 20 }, () => put("/jobs", body)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    const ids = new Set(await Promise.all(responses.map(async (r) => (await r.json<any>()).id)));
    expect(ids.size).toBe(1);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE employer_id = ? AND reference_id = 'RACE-PUT'")
      .bind(employer.employerId)
      .first<{ n: number }>())!;
    expect(n).toBe(1);
  });
});

describe("a description sent again as it was (issue 27, DESIGN 13a)", () => {
  const DIRTY = '<p onclick="steal()">Join <b>us</b></p><script>alert(1)</script>';
  // What the cleaner makes of DIRTY is replaced in storage by a marker it could never make, so
  // an answer showing the marker proves the description was not cleaned again.
  const MARKER = "<p>stored, not cleaned again</p>";
  const storedDescription = async (id: number, description: string, digest?: string) => {
    await env.DB.prepare(`UPDATE jobs SET description = ?1, description_digest = coalesce(?2, description_digest) WHERE id = ?3`).bind(description, digest ?? null, id).run();
  };
  const revisionOf = async (id: number) => (await env.DB.prepare("SELECT revision FROM jobs WHERE id = ?").bind(id).first<{ revision: number }>())!.revision;

  it("the same input is not cleaned again: the stored text stays, nothing is written, the ETag stays", async () => {
    const job = await postJob(employer, { description: DIRTY });
    expect(job.description).toBe("<p>Join <b>us</b></p>");
    const etag = (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).headers.get("ETag");
    await storedDescription(job.id, MARKER);
    const res = await put(`/jobs/${job.id}`, { description: DIRTY });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe(etag);
    expect((await res.json<any>()).description).toBe(MARKER);
    expect(await revisionOf(job.id)).toBe(1);
  });

  it("another input is cleaned, even one that differs by a space, and replaces the stored text", async () => {
    const job = await postJob(employer, { description: DIRTY });
    await storedDescription(job.id, MARKER);
    const updated = await (await put(`/jobs/${job.id}`, { description: `${DIRTY} ` })).json<any>();
    expect(updated.description).toBe("<p>Join <b>us</b></p> ");
    // The new input's digest was stored with its text: sent again, it is not a change.
    const again = await put(`/jobs/${job.id}`, { description: `${DIRTY} ` });
    expect(again.headers.get("ETag")).toBe((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).headers.get("ETag"));
    expect(await revisionOf(job.id)).toBe(2);
  });

  it("a stored digest that does not match (another cleaner version) means the input is cleaned again", async () => {
    const job = await postJob(employer, { description: DIRTY });
    await storedDescription(job.id, MARKER, "0".repeat(64));
    expect((await (await put(`/jobs/${job.id}`, { description: DIRTY })).json<any>()).description).toBe("<p>Join <b>us</b></p>");
  });

  it("input that differs but cleans to the stored text is not a change: the ETag stays", async () => {
    const job = await postJob(employer, { description: DIRTY });
    const res = await put(`/jobs/${job.id}`, { description: "<p onclick=x>Join <b>us</b></p>" });
    expect((await res.json<any>()).description).toBe(job.description);
    expect(await revisionOf(job.id)).toBe(1);
  });

  it("the French description likewise, by PUT by referenceId; digests are never shown", async () => {
    const body = { ...jobBody(), referenceId: "DIGEST-FR", description: DIRTY, translations: { fr: { title: "Comptable", description: DIRTY } } };
    const created = await put("/jobs", body);
    expect(created.status).toBe(201);
    const job = await created.json<any>();
    expect(job.translations.fr.description).toBe("<p>Join <b>us</b></p>");
    expect(Object.keys(job).filter((key) => /digest/i.test(key))).toEqual([]);
    await env.DB.prepare("UPDATE jobs SET translations = json_set(translations, '$.fr.description', ?1) WHERE id = ?2").bind(MARKER, job.id).run();
    const again = await (await put("/jobs", body)).json<any>();
    expect(again.translations.fr.description).toBe(MARKER);
    expect(await revisionOf(job.id)).toBe(1);
  });

  it("an empty description clears the text and its digest; sent again, the input is cleaned", async () => {
    const job = await postJob(employer, { description: DIRTY });
    expect((await (await put(`/jobs/${job.id}`, { description: "" })).json<any>()).description).toBeNull();
    const digest = await env.DB.prepare("SELECT description_digest AS digest FROM jobs WHERE id = ?").bind(job.id).first<{ digest: string | null }>();
    expect(digest!.digest).toBeNull();
    expect((await (await put(`/jobs/${job.id}`, { description: DIRTY })).json<any>()).description).toBe("<p>Join <b>us</b></p>");
  });
});
