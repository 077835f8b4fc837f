import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request } from "./support/api";
import { jobBody, postJob } from "./support/jobs";

const FULL = {
  referenceId: "ACME-1",
  title: "Senior Accountant",
  closeDate: "2027-01-15",
  confidential: true,
  autoRefresh: true,
  status: "active",
  locations: [{ description: "Toronto, ON" }, { description: "Kelowna, BC" }],
  categories: [{ id: 3 }, { id: 1 }],
  positionType: { id: 2 },
  salary: { amount: 65000, maxAmount: 70000.5, type: { id: 1 }, plusCommission: true },
  description: "<p>Join us</p>",
  applicantRoutingType: { id: 2 },
  applicationUrl: "https://acme.example/apply",
  applicationEmail: "ignored@acme.example",
};

describe("POST /api/v1.1/jobs (spec 4.2)", () => {
  it("201 with an absolute Location and the full Job", async () => {
    const employer = await createEmployer({ name: "Acme Ltd." });
    const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: FULL });
    expect(res.status).toBe(201);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const job = await res.json<Record<string, any>>();
    expect(res.headers.get("Location")).toBe(`https://api.test/api/v1.1/jobs/${job.id}`);
    expect(Object.keys(job)).toEqual([
      "id", "referenceId", "employer", "title", "publishDate", "closeDate", "confidential", "autoRefresh", "status",
      "locations", "categories", "positionType", "salary", "description", "applicantRoutingType", "applicationEmail", "applicationUrl",
      "aiUsedInSelection", "existingVacancy", "translations", "questions", "postingRules",
    ]);
    expect(job).toMatchObject({
      referenceId: "ACME-1",
      employer: { id: employer.employerId, name: "Acme Ltd." },
      closeDate: "2027-01-15T23:59:59Z",
      confidential: true,
      autoRefresh: true,
      status: "active",
      locations: [
        { name: "Toronto", description: "Toronto, ON", type: "City" },
        { name: "Kelowna", description: "Kelowna, BC", type: "City" },
      ],
      categories: [{ id: 3 }, { id: 1 }],
      positionType: { id: 2, name: "Part Time" },
      salary: { amount: 65000, maxAmount: 70000.5, type: { id: 1, name: "Yearly", unit: "year" }, plusCommission: true },
      applicantRoutingType: { id: 2, name: "URL" },
      applicationEmail: null,
      applicationUrl: "https://acme.example/apply",
    });
    expect(job.publishDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("money is a JSON number literal with exactly four decimals", async () => {
    const employer = await createEmployer();
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      json: jobBody({ salary: { amount: 65000, maxAmount: 70000.12345, type: { id: 1 } } }),
    });
    const text = await res.text();
    expect(text).toContain('"amount":65000.0000');
    expect(text).toContain('"maxAmount":70000.1234');
  });

  it("defaults: status draft, closeDate publishDate + 60 days, booleans false, absent members null", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, {});
    expect(job.status).toBe("draft");
    expect(Date.parse(job.closeDate) - Date.parse(job.publishDate)).toBe(60 * 86_400_000);
    expect(job).toMatchObject({
      referenceId: null,
      confidential: false,
      autoRefresh: false,
      positionType: null,
      salary: null,
      description: null,
      applicantRoutingType: null,
      applicationEmail: null,
      applicationUrl: null,
    });
  });

  it("a Job returned by GET, minus id and referenceId, POSTs back as an equivalent job", async () => {
    const employer = await createEmployer();
    const original = await postJob(employer, { ...FULL, locations: [...FULL.locations, { description: "Ontario" }] });
    const fetched = await (await request(`/jobs/${original.id}`, { apiKey: employer.apiKey })).json<Record<string, any>>();
    const { id, referenceId, ...body } = fetched;
    const copy = await postJob(employer, body);
    const strip = ({ id, referenceId, publishDate, ...rest }: Record<string, any>) => rest;
    expect(strip(copy)).toEqual(strip(fetched));
  });

  it("read-only members (id, publishDate, employer) are ignored, never applied", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { id: 999_999, publishDate: "2001-01-01T00:00:00Z", employer: { id: 1, name: "Other" } });
    expect(job.id).not.toBe(999_999);
    expect(job.publishDate).not.toBe("2001-01-01T00:00:00Z");
    expect(job.employer).toEqual({ id: employer.employerId, name: employer.name });
  });

  it("description is cleaned before storing: a script never comes back as-is", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { description: "<p>Hi</p><script>alert(1)</script>" });
    expect(job.description).not.toContain("<script>");
  });

  it("POST of a used referenceId → 409 naming the existing job", async () => {
    const employer = await createEmployer();
    const first = await postJob(employer, { referenceId: "DUP-1" });
    const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ referenceId: "DUP-1" }) });
    expect(res.status).toBe(409);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect((await problemOf(res)).existingJobId).toBe(first.id);
  });

  it("an empty referenceId means none, so it never collides", async () => {
    const employer = await createEmployer();
    expect((await postJob(employer, { referenceId: "" })).referenceId).toBeNull();
    expect((await postJob(employer, { referenceId: "" })).referenceId).toBeNull();
  });

  it("20 concurrent POSTs with one referenceId: one 201, the rest 409", async () => {
    const employer = await createEmployer();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ referenceId: "RACE-POST" }) }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const list = await (await request("/jobs?q=RACE-POST", { apiKey: employer.apiKey })).json<any>();
    expect(list.paging.total).toBe(1);
  });
});
