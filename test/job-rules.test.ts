import { describe, expect, it } from "vitest";
import { DEFAULT_OPEN_SECONDS, formatDate, parseCloseDate } from "../src/jobs/dates";
import { eventsOfWrite } from "../src/jobs/events";
import { formatAmount, toTenThousandths } from "../src/jobs/money";
import { changedColumns, isEmail, isHttpUrl, mergeJob, validateJob, type JobState } from "../src/jobs/rules";
import { resolvePlace } from "../src/locations/resolve";
import type { ReferenceData } from "../src/reference/repository";

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0) / 1000;

const gazetteer = [
  { id: 9, name: "Ontario", description: "Ontario", type: "Province", provinceCode: "ON", nameKey: "ontario", populationRank: null, latitude: null, longitude: null },
  { id: 11, name: "Quebec", description: "Quebec", type: "Province", provinceCode: "QC", nameKey: "quebec", populationRank: null, latitude: null, longitude: null },
  { id: 15, name: "Montréal", description: "Montréal, QC", type: "City", provinceCode: "QC", nameKey: "montreal", populationRank: 2, latitude: null, longitude: null },
  { id: 25, name: "Québec", description: "Québec, QC", type: "City", provinceCode: "QC", nameKey: "quebec", populationRank: 12, latitude: null, longitude: null },
  { id: 30, name: "Richmond", description: "Richmond, BC", type: "City", provinceCode: "BC", nameKey: "richmond", populationRank: 26, latitude: null, longitude: null },
  { id: 31, name: "Richmond", description: "Richmond, QC", type: "Town", provinceCode: "QC", nameKey: "richmond", populationRank: 400, latitude: null, longitude: null },
];

const reference: ReferenceData = {
  positionTypes: [{ id: 1, name: "Full Time" }],
  categories: [1, 2, 3, 4].map((id) => ({ id, name: `C${id}` })),
  salaryTypes: [{ id: 1, name: "Yearly", unit: "year" }],
  applicantRoutingTypes: [
    { id: 1, name: "Email" },
    { id: 2, name: "URL" },
  ],
  gazetteer,
};

const place = (id: number) => ({ kind: "known" as const, location: { id, name: "x", description: "x", type: "City", latitude: null, longitude: null } });

function created(patch: Parameters<typeof mergeJob>[1] = {}): JobState {
  return mergeJob(null, { categories: [{ id: 1 }], ...patch }, { now: NOW, places: [place(15)] }).job;
}

describe("money is exact", () => {
  it("converts the number's decimal form to ten-thousandths", () => {
    expect(toTenThousandths(65000)).toBe(650_000_000);
    expect(toTenThousandths(0.1)).toBe(1000);
    expect(toTenThousandths(1234.5678)).toBe(12_345_678);
    expect(toTenThousandths(1e-7)).toBe(0);
    expect(toTenThousandths(1e10)).toBe(1e14);
  });
  it("rounds half to even beyond four decimals", () => {
    expect(toTenThousandths(0.00005)).toBe(0);
    expect(toTenThousandths(0.00015)).toBe(2);
    expect(toTenThousandths(0.00025)).toBe(2);
    expect(toTenThousandths(0.000251)).toBe(3);
  });
  it("formats with exactly four decimals", () => {
    expect(formatAmount(650_000_000)).toBe("65000.0000");
    expect(formatAmount(1)).toBe("0.0001");
    expect(formatAmount(0)).toBe("0.0000");
  });
});

describe("dates", () => {
  it("a date alone means 23:59:59 UTC that day", () => {
    expect(formatDate(parseCloseDate("2026-12-31")!)).toBe("2026-12-31T23:59:59Z");
  });
  it("a date-time with an offset is converted to UTC", () => {
    expect(formatDate(parseCloseDate("2026-12-31T17:00:00-05:00")!)).toBe("2026-12-31T22:00:00Z");
    expect(formatDate(parseCloseDate("2026-12-31T17:00Z")!)).toBe("2026-12-31T17:00:00Z");
  });
  it("impossible or unzoned dates are rejected", () => {
    for (const text of ["2026-02-30", "2026-13-01", "2026-12-31T24:00:00Z", "2026-12-31T10:00:00", "31/12/2026", "tomorrow"]) {
      expect(parseCloseDate(text), text).toBeUndefined();
    }
  });
});

describe("defaults and transitions (DESIGN 4)", () => {
  it("a new job is a draft published now, closing 60 days later, booleans false", () => {
    const job = created();
    expect(job).toMatchObject({ status: "draft", publishDate: NOW, closeDate: NOW + DEFAULT_OPEN_SECONDS, confidential: false, autoRefresh: false });
  });
  it("nothing returns to draft", () => {
    const active = created({ status: "active" });
    expect(mergeJob(active, { status: "draft" }, { now: NOW + 10 }).conflict).toMatch(/draft/);
  });
  it("sending the status a job already has is no move", () => {
    const active = created({ status: "active" });
    const { job, conflict } = mergeJob(active, { status: "active" }, { now: NOW + 100 });
    expect(conflict).toBeUndefined();
    expect(job.publishDate).toBe(NOW);
  });
  it("re-publishing sets publishDate to now and renews a past closeDate", () => {
    const archived = { ...created({ status: "archived" }), closeDate: NOW + 50 };
    const later = NOW + 1000;
    const { job } = mergeJob(archived, { status: "active" }, { now: later });
    expect(job.publishDate).toBe(later);
    expect(job.closeDate).toBe(later + DEFAULT_OPEN_SECONDS);
  });
  it("re-publishing keeps a closeDate set in the same request", () => {
    const archived = { ...created({ status: "archived" }), closeDate: NOW + 50 };
    const { job } = mergeJob(archived, { status: "active", closeDate: NOW + 5000 }, { now: NOW + 1000 });
    expect(job.closeDate).toBe(NOW + 5000);
  });
});

describe("merge follows JSON Merge Patch", () => {
  it("salary merges member by member and null removes it", () => {
    const withSalary = created({ salary: { amount: 100, type: { id: 1 } } });
    const raised = mergeJob(withSalary, { salary: { maxAmount: 200 } }, { now: NOW }).job;
    expect(raised.salary).toEqual({ amount: 100, maxAmount: 200, typeId: 1, plusCommission: false });
    expect(mergeJob(withSalary, { salary: null }, { now: NOW }).job.salary).toBeNull();
  });
  it("the address the routing type does not use is stored as null", () => {
    const job = created({ applicantRoutingType: { id: 2 }, applicationUrl: "https://a.example", applicationEmail: "x" });
    expect(job.applicationEmail).toBeNull();
    expect(job.applicationUrl).toBe("https://a.example");
  });
  it("only changed columns are written", () => {
    const before = created({ title: "A" });
    const after = mergeJob(before, { title: "B", confidential: false }, { now: NOW }).job;
    expect(changedColumns(before, after)).toEqual({ title: "B" });
  });
});

describe("validation of the merged job", () => {
  const fields = (job: JobState) => validateJob(job, reference).map((e) => e.field);
  it("a valid job has no errors", () => expect(fields(created())).toEqual([]));
  it("locations and categories: 1 to 3, duplicates counted once", () => {
    expect(fields({ ...created(), places: [] })).toEqual(["locations"]);
    expect(fields({ ...created(), places: [place(1), place(2), place(3), place(4)] })).toEqual(["locations"]);
    expect(fields({ ...created(), places: [place(1), place(2), place(3), place(1)] })).toEqual([]);
    expect(fields({ ...created(), categoryIds: [1, 2, 3, 4] })).toEqual(["categories"]);
    expect(fields({ ...created(), categoryIds: [1, 99] })).toEqual(["categories[1].id"]);
  });
  it("salary: type required with amount, maxAmount ≥ amount, known type", () => {
    expect(fields(created({ salary: { amount: 5 } }))).toEqual(["salary.type.id"]);
    expect(fields(created({ salary: { amount: 5, maxAmount: 4, type: { id: 1 } } }))).toEqual(["salary.maxAmount"]);
    expect(fields(created({ salary: { amount: 5, type: { id: 9 } } }))).toEqual(["salary.type.id"]);
    expect(fields(created({ salary: { type: { id: 1 } } }))).toEqual(["salary.amount"]);
  });
  it("routing needs its address in a valid form", () => {
    expect(fields(created({ applicantRoutingType: { id: 1 } }))).toEqual(["applicationEmail"]);
    expect(fields(created({ applicantRoutingType: { id: 2 }, applicationUrl: "ftp://x.example" }))).toEqual(["applicationUrl"]);
    expect(fields(created({ applicantRoutingType: { id: 3 } }))).toEqual(["applicantRoutingType.id"]);
  });
  it("closeDate must be after publishDate; unknown position type", () => {
    expect(fields(created({ closeDate: NOW }))).toEqual(["closeDate"]);
    expect(fields(created({ positionType: { id: 42 } }))).toEqual(["positionType.id"]);
  });
  it("email and URL formats", () => {
    expect(isEmail("jobs@acme.example")).toBe(true);
    expect(isEmail("jobs@acme")).toBe(false);
    expect(isEmail("a b@acme.example")).toBe(false);
    expect(isHttpUrl("https://acme.example/jobs?id=1")).toBe(true);
    expect(isHttpUrl("javascript:alert(1)")).toBe(false);
    expect(isHttpUrl("acme.example")).toBe(false);
  });
});

describe("locations (DESIGN 3)", () => {
  it("city and code match a known place, ignoring case and accents", () => {
    expect(resolvePlace("  montreal ,  qc ", gazetteer)).toMatchObject({ kind: "known", location: { id: 15 } });
  });
  it("a city alone picks the most populous place of that name", () => {
    expect(resolvePlace("RICHMOND", gazetteer)).toMatchObject({ kind: "known", location: { id: 30 } });
  });
  it("a province alone is the province; 'Quebec, QC' is the city", () => {
    expect(resolvePlace("Ontario", gazetteer)).toMatchObject({ kind: "known", location: { id: 9 } });
    expect(resolvePlace("Quebec, QC", gazetteer)).toMatchObject({ kind: "known", location: { id: 25 } });
  });
  it("an unknown city with a valid code (or province name) is created", () => {
    expect(resolvePlace("Tiny Creek, Colombie-Britannique", gazetteer)).toEqual({
      kind: "create",
      place: { name: "Tiny Creek", description: "Tiny Creek, BC", provinceCode: "BC", nameKey: "tiny creek" },
    });
  });
  it("an unknown city alone needs a lookup; a bad code or name is invalid", () => {
    expect(resolvePlace("Tiny Creek", gazetteer)).toMatchObject({ kind: "lookup", nameKey: "tiny creek" });
    expect(resolvePlace("Springfield, XX", gazetteer).kind).toBe("invalid");
    expect(resolvePlace("<b>x</b>, ON", gazetteer).kind).toBe("invalid");
    expect(resolvePlace("123, ON", gazetteer).kind).toBe("invalid");
    expect(resolvePlace(", ON", gazetteer).kind).toBe("invalid");
  });
});

describe("events a write emits (DESIGN 13, 13a)", () => {
  const draft = mergeJob(null, { title: "x" }, { now: NOW, places: [], description: undefined }).job;
  const active = { ...draft, status: "active" as const };
  const archived = { ...draft, status: "archived" as const };

  it("a job created draft is job.created; created active is job.created and job.published", () => {
    expect(eventsOfWrite(null, draft, true)).toEqual(["job.created"]);
    expect(eventsOfWrite(null, active, true)).toEqual(["job.created", "job.published"]);
  });

  it("a PUT that archives is job.updated and job.archived; a re-publish is job.updated and job.published", () => {
    expect(eventsOfWrite(active, archived, true)).toEqual(["job.updated", "job.archived"]);
    expect(eventsOfWrite(archived, active, true)).toEqual(["job.updated", "job.published"]);
    expect(eventsOfWrite(draft, active, true)).toEqual(["job.updated", "job.published"]);
  });

  it("a change that keeps the status is job.updated alone; a write that changes nothing emits nothing", () => {
    expect(eventsOfWrite(active, { ...active, title: "y" }, true)).toEqual(["job.updated"]);
    expect(eventsOfWrite(active, active, false)).toEqual([]);
  });
});
