import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, createEmployer, type TestEmployer } from "./support/api";
import { jobBody, postJob } from "./support/jobs";
import { expectSafeResponse } from "./support/safety";

// OWASP API4 / API8: whatever a client sends, the answer is a deliberate 2xx or 4xx, errors are
// problem+json, and nothing about the implementation leaks. numRuns stay small so the suite
// stays fast; the generators aim at the edges (types, sizes, encodings) rather than volume.
const RUNS = { numRuns: 60 };
const MiB = 1024 * 1024;

const REFERENCE_PATHS = [
  "/api/v1.1/positiontypes",
  "/api/v1.1/jobcategories",
  "/api/v1.1/salarytypes",
  "/api/v1.1/applicantroutingtypes",
  "/api/v1.1/locations",
];
const JOB_PATHS = ["/api/v1.1/jobs", "/api/v1.1/jobs/1"];
const ALL_PATHS = [...REFERENCE_PATHS, "/api/v1.1/locations/1", ...JOB_PATHS];

let employer: TestEmployer;
beforeAll(async () => {
  employer = await createEmployer();
});

function send(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, init));
}

/** Headers the platform itself refuses (CR, LF, NUL in a value) are not the service's concern. */
function headersOrNull(entries: [string, string][]): Headers | null {
  try {
    return new Headers(entries);
  } catch {
    return null;
  }
}

// Strings that tend to break parsers: empty, huge, signs, exponents, unicode, NUL, lone surrogates,
// percent-escapes (valid and not), SQL and path tricks, prototype keys.
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "+1",
    "01",
    "1e3",
    "1.0",
    "0x10",
    "2147483647",
    "2147483648",
    "99999999999999999999999999",
    "NaN",
    "Infinity",
    "null",
    "true",
    "[]",
    "{}",
    "%00",
    "%ff",
    "%",
    "%E2%82",
    "\u0000",
    "\ud800",
    "é",
    "'; DROP TABLE jobs; --",
    "1 OR 1=1",
    "../../etc/passwd",
    "__proto__",
    "constructor",
    "prototype",
    "<script>alert(1)</script>",
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
);

// Header values: workerd sends non-ASCII as UTF-8 with a warning per value; ASCII covers the
// service's concern (control characters, quotes, separators) without the noise.
const asciiNasty = nasty.filter((s) => /^[\x00-\x7f]*$/.test(s));

/** Percent-encodes like encodeURIComponent, lone surrogates too (as U+FFFD would be sent). */
function encode(value: string): string {
  return [...new TextEncoder().encode(value)]
    .map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("");
}

// Path segments: `nasty`, percent-encoded so the URL stays a URL, plus a few raw forms.
const pathSegment = fc.oneof(
  nasty.map(encode),
  fc.constantFrom("%", "%zz", "%ff", "%00", "..", ".", "%2e%2e", "1;drop", "1%2F2", "%F0%9F%92%A9"),
);

describe("hostile input: reference data, authentication and unknown paths (OWASP API4, API8)", () => {
  it("path ids of every shape on /locations/{id} and /jobs/{id} never cause a 5xx, errors are problem+json", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("/api/v1.1/locations/", "/api/v1.1/jobs/"), pathSegment, async (prefix, id) => {
        const res = await send(prefix + id, { headers: { "API-Key": employer.apiKey } });
        const text = await expectSafeResponse(res, `GET ${prefix}${id}`);
        if (res.status === 200) expect(prefix).toBe("/api/v1.1/locations/");
        void text;
      }),
      RUNS,
    );
  });

  it("non-canonical location ids are 400, not a lookup (DESIGN 4: canonical decimal Int32)", async () => {
    for (const id of ["0", "-1", "+1", "01", "1e3", "1.0", "0x10", "2147483648", "99999999999999999999", "abc", "%20%31"]) {
      const res = await send(`/api/v1.1/locations/${id}`);
      expect(res.status, id).toBe(400);
      await expectSafeResponse(res, id);
    }
  });

  it("query strings of every shape on /locations never cause a 5xx", async () => {
    const param = fc.constantFrom("q", "page", "pageSize", "__proto__", "constructor", "q[]", "page[0]", "");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(param, nasty), { maxLength: 6 }), async (pairs) => {
        const query = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
        const res = await send(`/api/v1.1/locations?${query}`);
        await expectSafeResponse(res, `?${query}`);
      }),
      RUNS,
    );
  });

  it("raw, badly escaped query strings never cause a 5xx", async () => {
    for (const query of ["q=%", "q=%zz", "q=%ff%fe", "q=%00", "page=%2", "pageSize=1&pageSize=2", "q&page", "&&&", "q=" + "a".repeat(20_000)]) {
      await expectSafeResponse(await send(`/api/v1.1/locations?${query}`), query);
    }
  });

  it("pageSize > 100, page < 1 and non-integers are 400 naming the parameter", async () => {
    for (const [query, field] of [
      ["pageSize=101", "pageSize"],
      ["pageSize=0", "pageSize"],
      ["page=0", "page"],
      ["page=1.5", "page"],
      ["page=abc", "page"],
      ["pageSize=99999999999999999999", "pageSize"],
    ] as const) {
      const res = await send(`/api/v1.1/locations?${query}`);
      expect(res.status, query).toBe(400);
      const problem = JSON.parse(await expectSafeResponse(res, query));
      expect(problem.errors.map((e: { field: string }) => e.field), query).toContain(field);
    }
  });

  it("page without pageSize uses the numeric defaults (found by the query fuzzer: it was a 500)", async () => {
    const res = await send("/api/v1.1/locations?page=2");
    expect(res.status).toBe(200);
    const { paging } = JSON.parse(await expectSafeResponse(res, "?page=2"));
    expect(paging).toMatchObject({ page: 2, pageSize: 10 });
    expect(paging.next).toMatch(/[?&]page=3$/);
    const first = JSON.parse(await expectSafeResponse(await send("/api/v1.1/locations"), "no query")).paging;
    expect(first).toMatchObject({ page: 1, pageSize: 10 });
    expect(first.next).toMatch(/[?&]page=2$/);
  });

  it("arbitrary request headers on every endpoint never cause a 5xx", async () => {
    const headerName = fc.constantFrom("API-Key", "Content-Type", "X-HTTP-Method-Override", "Accept", "Accept-Encoding", "CF-Connecting-IP", "Origin", "X-Request-Id", "Range", "If-None-Match");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ALL_PATHS),
        fc.constantFrom("GET", "POST", "PUT", "DELETE"),
        fc.array(fc.tuple(headerName, asciiNasty), { maxLength: 5 }),
        async (path, method, entries) => {
          const headers = headersOrNull(entries);
          fc.pre(headers !== null);
          const res = await send(path, { method, headers: headers!, body: method === "GET" ? undefined : "{}" });
          await expectSafeResponse(res, `${method} ${path} ${JSON.stringify(entries)}`);
        },
      ),
      RUNS,
    );
  });

  const SERVED_PAGE = /^\/(|fr|fr\/.*|jobs\/.*|withdraw\/.*|site\.css|robots\.txt|sitemap(-\d+)?\.xml|fraud-policy)$/;

  it("unknown paths and methods are 404 or 405 problem+json, never a 5xx", async () => {
    const method = fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND", "MKCOL");
    await fc.assert(
      fc.asyncProperty(method, fc.array(pathSegment, { minLength: 1, maxLength: 4 }), async (m, segments) => {
        const path = `/${segments.join("/")}`;
        // The board's web pages (DESIGN 18) and the withdraw pages are served paths, answered in HTML.
        fc.pre(!SERVED_PAGE.test(new URL(`https://api.test${path}`).pathname));
        const res = await send(path, { method: m });
        expect([404, 405], `${m} ${path}`).toContain(res.status);
        await expectSafeResponse(res, `${m} ${path}`);
      }),
      RUNS,
    );
  });

  it("the board's pages under any job address and method never cause a 5xx (DESIGN 18)", async () => {
    const method = fc.constantFrom("GET", "POST", "HEAD");
    await fc.assert(
      fc.asyncProperty(method, fc.constantFrom("/jobs/", "/fr/emplois/"), pathSegment, fc.constantFrom("", "/sent", "/report"), async (m, base, segment, tail) => {
        const res = await send(`${base}${segment}${tail}`, { method: m, headers: { "CF-Connecting-IP": `10.5.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } });
        expect(res.status, `${m} ${base}${segment}${tail}`).toBeLessThan(500);
      }),
      RUNS,
    );
  });

  it("a method the path does not serve is 405 with Allow", async () => {
    for (const path of [...REFERENCE_PATHS, "/api/v1.1/locations/1"]) {
      for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
        const res = await send(path, { method, headers: { "Content-Type": "application/json" }, body: "{}" });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get("Allow"), `${method} ${path}`).toContain("GET");
        await expectSafeResponse(res, `${method} ${path}`);
      }
    }
  });

  it("API-Key values of every shape are 401 problem+json with WWW-Authenticate, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...JOB_PATHS), fc.constantFrom("GET", "DELETE"), asciiNasty, async (path, method, key) => {
        const headers = headersOrNull([["API-Key", key]]);
        fc.pre(headers !== null && key.trim() !== employer.apiKey);
        const res = await send(path, { method, headers: headers! });
        expect(res.status).toBe(401);
        expect(res.headers.get("WWW-Authenticate")).toContain("API-Key");
        await expectSafeResponse(res, `API-Key ${JSON.stringify(key)}`);
      }),
      RUNS,
    );
  });

  it("a body of 1 MiB + 1 bytes is 413 on any method, with or without Content-Length", async () => {
    const tooBig = "x".repeat(MiB + 1);
    for (const path of ALL_PATHS) {
      for (const method of ["POST", "PUT", "DELETE"]) {
        for (const streamed of [false, true]) {
          const body = streamed ? new Blob([tooBig]).stream() : tooBig;
          const res = await send(path, { method, body, headers: { "Content-Type": "application/json", "API-Key": employer.apiKey } });
          expect(res.status, `${method} ${path} streamed=${streamed}`).toBe(413);
          await expectSafeResponse(res, `${method} ${path}`);
        }
      }
    }
  });

  it("a body of exactly 1 MiB is not refused for its size", async () => {
    const body = JSON.stringify({ title: "x".repeat(MiB - '{"title":""}'.length) });
    expect(new TextEncoder().encode(body).length).toBe(MiB);
    for (const method of ["POST", "PUT"]) {
      const res = await send("/api/v1.1/jobs", { method, body, headers: { "Content-Type": "application/json", "API-Key": employer.apiKey } });
      expect(res.status, method).not.toBe(413);
      await expectSafeResponse(res, method);
    }
  });

  it("no request pollutes Object.prototype (prototype-pollution keys in bodies and queries)", async () => {
    const bodies = [
      '{"__proto__":{"polluted":"yes","status":"active","employerId":1}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"salary":{"__proto__":{"polluted":"yes"}},"locations":[{"__proto__":{"polluted":"yes"}}]}',
    ];
    for (const body of bodies) {
      for (const [method, path] of [["POST", "/api/v1.1/jobs"], ["PUT", "/api/v1.1/jobs"], ["PUT", "/api/v1.1/jobs/1"], ["DELETE", "/api/v1.1/jobs"]] as const) {
        const res = await send(path, { method, body, headers: { "Content-Type": "application/json", "API-Key": employer.apiKey } });
        await expectSafeResponse(res, `${method} ${path} ${body}`);
      }
    }
    await expectSafeResponse(await send("/api/v1.1/locations?__proto__[polluted]=yes&constructor[prototype][polluted]=yes"), "query");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

// JSON values of every type and shape, with the edges JSON.parse and zod meet: huge and tiny
// numbers, -0, long strings, NUL, lone surrogates, prototype keys.
const jsonLeaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 53 + 1, 1e21, 0.00001, 99999999999.99999),
  fc.string({ maxLength: 30 }),
  fc.constantFrom("", "\u0000", "a\u0000b", "\ud800", "x".repeat(5000), "2026-02-30", "active", "draft", "<script>", "__proto__"),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, jsonLeaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("__proto__", "constructor", "prototype")), tie("value"), { maxKeys: 4 }),
})).value;

const JOB_MEMBERS = [
  "referenceId", "title", "closeDate", "confidential", "autoRefresh", "status", "locations", "categories", "positionType",
  "salary", "description", "applicantRoutingType", "applicationEmail", "applicationUrl", "id", "publishDate", "employer",
];

/** A valid body with some members replaced by hostile values, nested paths included. */
const mutatedJob = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...JOB_MEMBERS, "salary.amount", "salary.maxAmount", "salary.type", "salary.type.id", "locations.0", "locations.0.description", "categories.0.id"), jsonValue), { minLength: 1, maxLength: 4 }),
  )
  .map(([edits]) => {
    const body: any = structuredClone(jobBody({ salary: { amount: 1, type: { id: 1 } } }));
    for (const [path, value] of edits) {
      const parts = path.split(".");
      let target = body;
      for (const part of parts.slice(0, -1)) {
        if (target[part] === null || typeof target[part] !== "object") target[part] = {};
        target = target[part];
      }
      target[parts.at(-1)!] = value;
    }
    return body;
  });

describe("hostile input: job endpoints (OWASP API4, API8)", () => {
  let jobId: number;
  beforeAll(async () => {
    jobId = (await postJob(employer, { referenceId: "HOSTILE-1" })).id;
  });

  const writes = () =>
    [
      ["POST", "/api/v1.1/jobs"],
      ["PUT", "/api/v1.1/jobs"],
      ["PUT", `/api/v1.1/jobs/${jobId}`],
      ["DELETE", "/api/v1.1/jobs"],
    ] as const;

  const write = (method: string, path: string, body: BodyInit, contentType = "application/json") =>
    send(path, { method, body, headers: { "Content-Type": contentType, "API-Key": employer.apiKey } });

  it("any JSON value as the body of any write: never a 5xx, errors are problem+json", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1, 2, 3), jsonValue, async (i, value) => {
        const [method, path] = writes()[i];
        const res = await write(method, path, JSON.stringify(value) ?? "null");
        await expectSafeResponse(res, `${method} ${path} ${JSON.stringify(value)?.slice(0, 200)}`);
        // Only a body that is a JSON object can be a valid job.
        if (value === null || typeof value !== "object" || Array.isArray(value)) expect(res.status, `${method} ${path}`).toBe(400);
      }),
      { numRuns: 80 },
    );
  });

  it("a valid job with hostile member values: never a 5xx, errors are problem+json naming fields", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1, 2), mutatedJob, async (i, body) => {
        const [method, path] = writes()[i];
        if (path === "/api/v1.1/jobs" && method === "PUT") body.referenceId = typeof body.referenceId === "string" && body.referenceId ? body.referenceId : "HOSTILE-PUT";
        const res = await write(method, path, JSON.stringify(body));
        const text = await expectSafeResponse(res, `${method} ${path} ${JSON.stringify(body).slice(0, 300)}`);
        if (res.status === 400) {
          const problem = JSON.parse(text);
          if (problem.errors) for (const e of problem.errors) expect(e).toEqual({ field: expect.any(String), message: expect.any(String) });
        }
      }),
      { numRuns: 120 },
    );
  });

  it("places written every which way (DESIGN 3): the same place in one job counts once, never a 5xx, never a shared place", async () => {
    const placer = await createEmployer();
    const spellings = (city: string, code: string, province: string) =>
      fc.constantFrom(city, `${city}, ${code}`, `  ${city.toUpperCase()} ,${code.toLowerCase()} `, `${city}, ${province}`, `${city.toLowerCase()},${province}`);
    const place = fc.oneof(
      spellings("Smallville", "SK", "Saskatchewan"),
      spellings("Montréal", "QC", "Québec"),
      spellings("Brand Newton", "NB", "New Brunswick"),
      fc.string({ maxLength: 40 }).map((s) => `${s}, ON`),
      fc.string({ maxLength: 310 }),
    );
    // Created first, so that the city alone resolves to the employer's own place.
    await postJob(placer, { locations: [{ description: "Smallville, SK" }] });
    await fc.assert(
      fc.asyncProperty(fc.array(place, { minLength: 1, maxLength: 6 }), async (descriptions) => {
        const res = await send("/api/v1.1/jobs", {
          method: "POST",
          body: JSON.stringify(jobBody({ locations: descriptions.map((description) => ({ description })) })),
          headers: { "Content-Type": "application/json", "API-Key": placer.apiKey },
        });
        const text = await expectSafeResponse(res, JSON.stringify(descriptions));
        if (res.status !== 201) return;
        const ids = JSON.parse(text).locations.map((l: { id: number }) => l.id);
        expect(new Set(ids).size, JSON.stringify(descriptions)).toBe(ids.length);
      }),
      RUNS,
    );
    // None of the places this employer created is public.
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM locations WHERE source = 'employer' AND owner_employer_id IS NULL").first<{ n: number }>())!;
    expect(n).toBe(0);
  });

  it("bodies that are not valid JSON or not UTF-8 (truncated, NUL, invalid bytes, BOM, duplicate keys) are 400, never a 5xx", async () => {
    const raw: (string | Uint8Array)[] = [
      "{",
      '{"title":',
      '{"title":"x"',
      "{'title':'x'}",
      '{"title":"x",}',
      "\u0000",
      '{"title":"a\u0000b"}',
      new Uint8Array([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"t":"<ff fe>"}
      new Uint8Array([0xc3, 0x28]),
      new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // BOM + {}
      new Uint8Array([0x00, 0x00, 0x00]),
      '{"title":"a","title":"b","title":{"x":1}}',
      '{"locations":[{"description":"Vancouver, BC"}],"locations":"x"}',
      "NaN",
      "Infinity",
      "1e999999",
      '{"salary":{"amount":1e999999,"type":{"id":1}}}',
      '{"categories":[{"id":1e400}]}',
      "[".repeat(100_000) + "]".repeat(100_000),
      '{"a":'.repeat(50_000) + "1" + "}".repeat(50_000),
      '{"title":"' + "\\u0000".repeat(10_000) + '"}',
      " ",
      "\n\n",
    ];
    for (const body of raw) {
      for (const [method, path] of writes()) {
        const res = await write(method, path, body);
        const text = await expectSafeResponse(res, `${method} ${path} ${String(body).slice(0, 60)}`);
        expect(res.status, `${method} ${path} ${String(body).slice(0, 60)} → ${text.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  });

  it("POST/PUT/DELETE bodies whose media type is not application/json are 415 (DESIGN 5)", async () => {
    const contentTypes = [
      "text/plain",
      "application/problem+json",
      "application/merge-patch+json",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonp",
      "application/json-seq",
      "json",
      "",
      "application/xml",
      "text/json",
      "application /json",
    ];
    for (const contentType of contentTypes) {
      for (const [method, path] of writes().filter(([m]) => m !== "DELETE")) {
        const res = await write(method, path, JSON.stringify(jobBody()), contentType);
        expect(res.status, `${method} ${path} ${contentType}`).toBe(415);
        await expectSafeResponse(res, contentType);
      }
    }
    for (const contentType of ["application/json", "APPLICATION/JSON", "application/json; charset=utf-8", "Application/Json;charset=UTF-8"]) {
      const res = await write("PUT", `/api/v1.1/jobs/${jobId}`, JSON.stringify({ title: "ok" }), contentType);
      expect(res.status, contentType).toBe(200);
      await res.body?.cancel();
    }
  });

  it("application/json with any parameters, spacing and a trailing `;` is accepted on every write, never a 415 or 5xx (DESIGN 5)", async () => {
    const parameter = fc.constantFrom("", ";", " ;", "; charset=utf-8", " ;charset=utf-8", "; charset=utf-8;", "; foo_bar=1", ";charset=\"utf-8\"", ";\tx=y ;");
    const essence = fc.constantFrom("application/json", "APPLICATION/JSON", "Application/Json", " application/json");
    await fc.assert(
      fc.asyncProperty(essence, parameter, fc.constantFrom(0, 1, 2, 3), async (type, params, i) => {
        const [method, path] = writes()[i];
        const body = method === "DELETE" ? { referenceId: "HOSTILE-NOPE" } : method === "PUT" && path.endsWith("/jobs") ? jobBody({ referenceId: "HOSTILE-CT" }) : jobBody();
        const res = await write(method, path, JSON.stringify(body), `${type}${params}`);
        await expectSafeResponse(res, `${method} ${path} ${type}${params}`);
        expect([200, 201, 404], `${method} ${path} "${type}${params}"`).toContain(res.status);
      }),
      RUNS,
    );
  });

  it("a control character anywhere in q is a 400 naming q, never a 5xx or a match-everything (DESIGN 5)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 10 }), fc.integer({ min: 0, max: 0x1f }).map((n) => String.fromCharCode(n)), fc.string({ maxLength: 10 }), async (before, control, after) => {
        for (const path of ["/api/v1.1/jobs", "/api/v1.1/locations"]) {
          const res = await send(`${path}?q=${encodeURIComponent(before + control + after)}`, { headers: { "API-Key": employer.apiKey } });
          const text = await expectSafeResponse(res, JSON.stringify(before + control + after));
          expect(res.status).toBe(400);
          expect(JSON.parse(text).errors).toEqual([{ field: "q", message: "q must not contain control characters." }]);
        }
      }),
      RUNS,
    );
  });

  it("messages a person can read for bad parameters: never a library's wording such as \"valid regex\" (DESIGN 5)", async () => {
    const cases: [string, string, string][] = [
      ["/api/v1.1/jobs?page=0", "page", "page must be at least 1."],
      ["/api/v1.1/jobs?pageSize=101", "pageSize", "pageSize must be at most 100."],
      ["/api/v1.1/jobs?page=abc", "page", "page must be a whole number from 1 to 2147483647."],
      ["/api/v1.1/jobs/abc", "id", "id must be a whole number from 1 to 2147483647."],
      ["/api/v1.1/jobs/0", "id", "id must be a whole number from 1 to 2147483647."],
      ["/api/v1.1/locations/-1", "id", "id must be a whole number from 1 to 2147483647."],
    ];
    for (const [path, field, message] of cases) {
      const res = await send(path, { headers: { "API-Key": employer.apiKey } });
      const text = await expectSafeResponse(res, path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(text).errors, path).toEqual([{ field, message }]);
      expect(text).not.toMatch(/regex|Invalid string|expected/i);
    }
  });

  it("query strings of every shape on the job list never cause a 5xx", async () => {
    const param = fc.constantFrom("q", "status", "page", "pageSize", "__proto__", "status[]", "");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(param, nasty), { maxLength: 6 }), async (pairs) => {
        const query = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
        const res = await send(`/api/v1.1/jobs?${query}`, { headers: { "API-Key": employer.apiKey } });
        await expectSafeResponse(res, `?${query}`);
      }),
      RUNS,
    );
  });

  it("q of up to 256 characters is a 200 (found by the query fuzzer: D1 refuses LIKE patterns over 50 bytes)", async () => {
    await postJob(employer, { title: "a".repeat(60) });
    for (const q of ["a".repeat(49), "é".repeat(25), "%".repeat(25), "a".repeat(256)]) {
      const res = await send(`/api/v1.1/jobs?q=${encode(q)}`, { headers: { "API-Key": employer.apiKey } });
      expect(res.status, `${q.length} characters`).toBe(200);
      await expectSafeResponse(res, q);
    }
  });

  it("LIKE wildcards and SQL in q are matched literally", async () => {
    // Its own employer: the fuzzing above may leave jobs whose random titles contain these.
    const owner = await createEmployer();
    await postJob(owner, { title: "Plain title" });
    await postJob(owner, { title: "Save 50% now" });
    for (const [q, total] of [["%", 1], ["_", 0], ["\\", 0], ["' OR '1'='1", 0], ["%' --", 0], ["50%", 1]] as const) {
      const res = await send(`/api/v1.1/jobs?q=${encode(q)}`, { headers: { "API-Key": owner.apiKey } });
      const list = JSON.parse(await expectSafeResponse(res, q));
      expect(res.status, q).toBe(200);
      expect(list.paging.total, q).toBe(total);
    }
  });

  it("after all that, the job used as a target is intact and still the employer's", async () => {
    const res = await send(`/api/v1.1/jobs/${jobId}`, { headers: { "API-Key": employer.apiKey } });
    const job = JSON.parse(await expectSafeResponse(res, "final read"));
    expect(job).toMatchObject({ id: jobId, employer: { id: employer.employerId } });
  });
});
