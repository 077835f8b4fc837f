import { describe, expect, it } from "vitest";
import { MAX_AMOUNT } from "../src/jobs/money";
import { createEmployer, problemOf, request } from "./support/api";
import { documentAdmits } from "./support/contract";
import { jobBody, postJob } from "./support/jobs";

const employer = await createEmployer();

async function rejected(body: unknown, expectedFields: string[], init: { method?: string; path?: string } = {}) {
  const res = await request(init.path ?? "/jobs", { method: init.method ?? "POST", apiKey: employer.apiKey, json: body });
  expect(res.status).toBe(400);
  expect(res.headers.get("Content-Type")).toBe("application/problem+json");
  const problem = await problemOf(res);
  expect(problem.type).toBe("/problems/validation-error");
  expect(problem.errors!.map((e) => e.field).sort()).toEqual([...expectedFields].sort());
  for (const error of problem.errors!) expect(error.message.length).toBeGreaterThan(5);
  return problem;
}

describe("required members (spec 7.2)", () => {
  it("locations and categories are required on create", async () => {
    await rejected({ title: "x" }, ["locations", "categories"]);
  });
  it("salary.type.id is required with salary.amount", async () => {
    await rejected(jobBody({ salary: { amount: 50000 } }), ["salary.type.id"]);
  });
  it("applicationEmail is required for routing type 1, applicationUrl for 2", async () => {
    await rejected(jobBody({ applicantRoutingType: { id: 1 } }), ["applicationEmail"]);
    await rejected(jobBody({ applicantRoutingType: { id: 2 } }), ["applicationUrl"]);
  });
});

describe("lengths count characters (code points)", () => {
  it("title at most 256, referenceId at most 50", async () => {
    await rejected(jobBody({ title: "a".repeat(257), referenceId: "r".repeat(51) }), ["title", "referenceId"]);
  });
  it("256 astral characters are a valid title", async () => {
    const job = await postJob(employer, { title: "😀".repeat(256) });
    expect([...job.title].length).toBe(256);
  });
  it("applicationEmail at most 50, applicationUrl at most 200", async () => {
    await rejected(jobBody({ applicantRoutingType: { id: 1 }, applicationEmail: `${"a".repeat(40)}@example.com` }), ["applicationEmail"]);
    await rejected(jobBody({ applicantRoutingType: { id: 2 }, applicationUrl: `https://a.example/${"p".repeat(190)}` }), ["applicationUrl"]);
  });
});

describe("locations and categories: 1 to 3", () => {
  it("four distinct locations or categories are too many", async () => {
    await rejected(
      jobBody({
        locations: ["Toronto, ON", "Ottawa, ON", "Calgary, AB", "Halifax, NS"].map((description) => ({ description })),
        categories: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }],
      }),
      ["locations", "categories"],
    );
  });
  it("empty lists are too few", async () => {
    await rejected(jobBody({ locations: [], categories: [] }), ["locations", "categories"]);
  });
  it("duplicates collapse, so four mentions of three places are fine", async () => {
    const job = await postJob(employer, {
      locations: ["Toronto, ON", "toronto,on", "Ottawa, ON", "Calgary, AB"].map((description) => ({ description })),
      categories: [{ id: 2 }, { id: 2 }],
    });
    expect(job.locations.map((l: any) => l.description)).toEqual(["Toronto, ON", "Ottawa, ON", "Calgary, AB"]);
    expect(job.categories).toEqual([{ id: 2, name: expect.any(String) }]);
  });
  it("a location without description is reported at its path", async () => {
    await rejected(jobBody({ locations: [{ description: "Toronto, ON" }, { id: 3 }] }), ["locations[1].description"]);
  });
});

describe("salary", () => {
  it("maxAmount ≥ amount ≥ 0", async () => {
    await rejected(jobBody({ salary: { amount: 100, maxAmount: 99.9999, type: { id: 1 } } }), ["salary.maxAmount"]);
    await rejected(jobBody({ salary: { amount: -1, type: { id: 1 } } }), ["salary.amount"]);
  });
  it("an absurd amount is rejected", async () => {
    await rejected(jobBody({ salary: { amount: 1e20, type: { id: 1 } } }), ["salary.amount"]);
  });
  it("salary.type.id must be 1 to 5", async () => {
    await rejected(jobBody({ salary: { amount: 1, type: { id: 6 } } }), ["salary.type.id"]);
  });
});

describe("formats", () => {
  it("applicationEmail must be an address; applicationUrl absolute http(s)", async () => {
    await rejected(jobBody({ applicantRoutingType: { id: 1 }, applicationEmail: "not-an-email" }), ["applicationEmail"]);
    await rejected(jobBody({ applicantRoutingType: { id: 2 }, applicationUrl: "www.acme.example" }), ["applicationUrl"]);
    await rejected(jobBody({ applicantRoutingType: { id: 2 }, applicationUrl: "javascript:alert(1)" }), ["applicationUrl"]);
  });
  it("the address the routing type does not use is not checked for its form and comes back null", async () => {
    const job = await postJob(employer, { applicantRoutingType: { id: 1 }, applicationEmail: "hr@acme.example", applicationUrl: "nonsense" });
    expect(job.applicationUrl).toBeNull();
    expect(job.applicationEmail).toBe("hr@acme.example");
  });
  it("closeDate must be a real date after publishDate", async () => {
    await rejected(jobBody({ closeDate: "2027-02-30" }), ["closeDate"]);
    await rejected(jobBody({ closeDate: "2020-01-01" }), ["closeDate"]);
    await rejected(jobBody({ closeDate: "next friday" }), ["closeDate"]);
  });
  it("status must be active, archived or draft", async () => {
    await rejected(jobBody({ status: "published" }), ["status"]);
  });
});

describe("unknown reference ids", () => {
  it("category, position type, salary type and routing type", async () => {
    await rejected(
      jobBody({
        categories: [{ id: 1 }, { id: 999 }],
        positionType: { id: 77 },
        salary: { amount: 1, type: { id: 9 } },
        applicantRoutingType: { id: 3 },
      }),
      ["categories[1].id", "positionType.id", "salary.type.id", "applicantRoutingType.id"],
    );
  });
});

describe("no type coercion", () => {
  it('"1" where a number belongs, "true" where a boolean belongs', async () => {
    await rejected(
      jobBody({ positionType: { id: "1" }, confidential: "true", salary: { amount: "50000", type: { id: 1 } } }),
      ["positionType.id", "confidential", "salary.amount"],
    );
  });
});

describe("every broken rule at once", () => {
  it("type errors and whole-job rules are reported together", async () => {
    const problem = await rejected({ title: 5, salary: { amount: 10 }, applicantRoutingType: { id: 1 } }, [
      "title",
      "locations",
      "categories",
      "salary.type.id",
      "applicationEmail",
    ]);
    expect(problem.errors!.find((e) => e.field === "locations")!.message).toMatch(/location/i);
  });
});

describe("request format", () => {
  it("malformed JSON is a 400 problem", async () => {
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
  });
  it("a non-JSON media type is 415; an empty body 400", async () => {
    const text = await request("/jobs", { method: "POST", apiKey: employer.apiKey, headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(text.status).toBe(415);
    const empty = await request("/jobs", { method: "POST", apiKey: employer.apiKey, headers: { "Content-Type": "application/json" } });
    expect(empty.status).toBe(400);
  });
  it("Content-Type with a charset parameter is accepted", async () => {
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify(jobBody()),
    });
    expect(res.status).toBe(201);
  });
  it("a non-canonical path id is a 400", async () => {
    for (const id of ["01", "-1", "1e3", "abc", "2147483648"]) {
      const res = await request(`/jobs/${id}`, { apiKey: employer.apiKey });
      expect(res.status, id).toBe(400);
    }
  });
});

describe("every broken rule in one answer (DESIGN 5)", () => {
  it("a member whose part has the wrong type still has its other parts checked: salary.amount and salary.type.id both named", async () => {
    await rejected(jobBody({ salary: { amount: "x", type: { id: 99 } } }), ["salary.amount", "salary.type.id"]);
  });

  it("wrong types, a rule on the merged job and an unknown place together, each named once", async () => {
    const problem = await rejected(
      {
        title: 42,
        locations: [{ description: "Nowheresville" }],
        categories: [{ id: 1 }, { id: 999 }],
        applicantRoutingType: { id: 2 },
        confidential: "yes",
      },
      ["title", "locations[0].description", "categories[1].id", "applicationUrl", "confidential"],
    );
    expect(problem.errors!.filter((e) => e.field === "title")).toHaveLength(1);
  });

  it("a PUT's wrong type and the merged job's broken rule come in one answer", async () => {
    const job = await postJob(employer, { salary: { amount: 100, maxAmount: 200, type: { id: 1 } } });
    await rejected({ title: 7, salary: { amount: 300 } }, ["title", "salary.maxAmount"], { method: "PUT", path: `/jobs/${job.id}` });
  });
});

describe("a description that cleans to nothing (DESIGN 4)", () => {
  it("is stored as null, like \"\"", async () => {
    for (const description of ["<script>alert(1)</script>", "<!-- only a comment -->", "", "<style>p{}</style>  "]) {
      expect((await postJob(employer, { description })).description, description).toBeNull();
    }
  });
});

describe("addresses written in full (DESIGN 4)", () => {
  it("applicationUrl must be written with http:// or https://: http:example.com, https:\\\\evil.com and https:/x are refused", async () => {
    for (const applicationUrl of ["http:example.com", "https:\\\\evil.com", "https:/x.example", "https:\\\\\\\\evil.com", "//evil.com", "ftp://x.example", "https://exa\u0001mple.com"]) {
      await rejected(jobBody({ applicantRoutingType: { id: 2 }, applicationUrl }), ["applicationUrl"]);
    }
    expect((await postJob(employer, { applicantRoutingType: { id: 2 }, applicationUrl: "HTTPS://careers.example.com/apply?x=1" })).applicationUrl).toBe(
      "HTTPS://careers.example.com/apply?x=1",
    );
  });

  it("applicationEmail refuses control characters", async () => {
    for (const applicationEmail of ["jobs\u0000@acme.example", "jobs@acme\u0007.example", "jobs@acme.example\u007f", "jo\u0085bs@acme.example"]) {
      await rejected(jobBody({ applicantRoutingType: { id: 1 }, applicationEmail }), ["applicationEmail"]);
    }
  });
});

// Issue 34: a contract fuzzer found the OpenAPI document and the API disagreeing. What a client
// generated from the document sends, the API takes; what the API refuses, the document refuses.
describe("the document's JobInput says what the API does (issue 34)", () => {
  const DAY = 86_400_000;

  it("closeDate: null means the default, 60 days after publishDate (spec 8), on POST and PUT; the document's JobInput admits it", async () => {
    const body = jobBody({ closeDate: null });
    expect(await documentAdmits("JobInput", body)).toBe(true);
    const job = await postJob(employer, { closeDate: null });
    expect(Date.parse(job.closeDate) - Date.parse(job.publishDate)).toBe(60 * DAY);

    const dated = await postJob(employer, { closeDate: "2099-01-15" });
    const res = await request(`/jobs/${dated.id}`, { method: "PUT", apiKey: employer.apiKey, json: { closeDate: null } });
    expect(res.status).toBe(200);
    const reset = await res.json<any>();
    expect(Date.parse(reset.closeDate) - Date.parse(reset.publishDate)).toBe(60 * DAY);
  });

  it("closeDate in a form the document's pattern refuses is a 400 on closeDate, and every form the API takes the pattern admits", async () => {
    for (const closeDate of ["next friday", "2027-1-15", "2027-01-15 17:00", "2027-01-15T17:00:00", "15/01/2027"]) {
      expect(await documentAdmits("JobInput", jobBody({ closeDate })), closeDate).toBe(false);
      await rejected(jobBody({ closeDate }), ["closeDate"]);
    }
    for (const closeDate of ["2099-01-15", "2099-01-15T17:00Z", "2099-01-15t17:00:30.123456789z", "2099-01-15T17:00:00-05:00"]) {
      expect(await documentAdmits("JobInput", jobBody({ closeDate })), closeDate).toBe(true);
      expect((await postJob(employer, { closeDate })).closeDate, closeDate).toMatch(/^2099-01-1[56]T/);
    }
  });

  it("salary.amount and salary.maxAmount are at least 0 and at most the service's maximum, and maxAmount may be null: the document says each", async () => {
    const salary = (amount: unknown, maxAmount: unknown) => jobBody({ salary: { amount, maxAmount, type: { id: 1 } } });
    for (const [amount, maxAmount] of [[-0.01, null], [MAX_AMOUNT + 1, null], [0, -1], [0, MAX_AMOUNT + 1]]) {
      expect(await documentAdmits("JobInput", salary(amount, maxAmount)), `${amount}–${maxAmount}`).toBe(false);
      await rejected(salary(amount, maxAmount), [amount === 0 ? "salary.maxAmount" : "salary.amount"]);
    }
    expect(await documentAdmits("JobInput", salary(0, null))).toBe(true);
    expect(await documentAdmits("JobInput", salary(50_000, MAX_AMOUNT))).toBe(true);
    const job = await postJob(employer, { salary: { amount: 50_000, maxAmount: null, type: { id: 1 } } });
    expect(job.salary).toMatchObject({ amount: 50_000, maxAmount: null });
    expect((await postJob(employer, { salary: { amount: 0, maxAmount: MAX_AMOUNT, type: { id: 1 } } })).salary).toMatchObject({ amount: 0, maxAmount: MAX_AMOUNT });
  });

  it("applicationUrl over 200 characters and applicationEmail over 50 are a 400 whatever the routing type, as the document's maxLength says (spec 8)", async () => {
    const longUrl = `https://a.example/${"p".repeat(183)}`;
    const longEmail = `${"a".repeat(39)}@example.com`;
    expect([...longUrl].length).toBe(201);
    expect([...longEmail].length).toBe(51);
    for (const [routing, member, value] of [[1, "applicationUrl", longUrl], [2, "applicationEmail", longEmail]] as const) {
      const used = routing === 1 ? { applicationEmail: "hr@acme.example" } : { applicationUrl: "https://acme.example/apply" };
      const body = jobBody({ applicantRoutingType: { id: routing }, ...used, [member]: value });
      expect(await documentAdmits("JobInput", body), member).toBe(false);
      const problem = await rejected(body, [member]);
      expect(problem.errors![0].message).toBe(`${member} must be at most ${member === "applicationUrl" ? 200 : 50} characters.`);
    }
    // At the limit, the unused address is still ignored, whatever its form.
    const job = await postJob(employer, { applicantRoutingType: { id: 1 }, applicationEmail: "hr@acme.example", applicationUrl: "x".repeat(200) });
    expect(job.applicationUrl).toBeNull();
  });
});
