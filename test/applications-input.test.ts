import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { composeCopy } from "../src/email/copy";
import worker from "../src/index";
import { API, createEmployer, problemOf, request } from "./support/api";
import { documentAdmits } from "./support/contract";
import { postJob } from "./support/jobs";

// DESIGN 6b and 15: what an applicant sends is hostile until checked; nothing of it may reach
// an email header, and no shape of it is a 500.

const employer = await createEmployer({ name: "Careful Hiring Ltd." });
const job = await postJob(employer, { title: "Clerk", status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@careful.example" });
let addresses = 0;
const apply = (init: { json?: unknown; form?: FormData; headers?: Record<string, string>; body?: BodyInit }) =>
  request(`/board/jobs/${job.id}/applications`, {
    method: "POST",
    json: init.json,
    body: init.form ?? init.body,
    headers: { "CF-Connecting-IP": `10.7.${Math.floor(++addresses / 250)}.${addresses % 250}`, ...init.headers },
  });
const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const fieldsOf = async (res: Response) => (await problemOf(res)).errors!.map((e) => e.field).sort();

describe("name and phone are single lines (DESIGN 6b)", () => {
  for (const [label, value] of [["CR LF", "Ada\r\nBcc: everyone@example.com"], ["LF", "Ada\nX-Injected: 1"], ["tab", "Ada\tLovelace"], ["NUL", "Ada\u0000"], ["C1", "Ada\u0085Lovelace"]]) {
    it(`a control character (${label}) in name or phone is a 400 naming each, in JSON and in multipart`, async () => {
      const json = await apply({ json: { name: value, email: "ada@example.com", phone: value } });
      expect(json.status).toBe(400);
      expect(await fieldsOf(json)).toEqual(["name", "phone"]);
      const form = new FormData();
      form.set("name", value);
      form.set("email", "ada@example.com");
      form.set("phone", value);
      const multipart = await apply({ form });
      expect(multipart.status).toBe(400);
      expect(await fieldsOf(multipart)).toEqual(["name", "phone"]);
    });
  }
});

describe("no value reaches an email header unstripped", () => {
  const copy = composeCopy(
    {
      job: { id: 7, title: "Clerk\r\nBcc: victim@example.com" },
      application: { id: 9, name: "Ada\r\nX-Injected: 1", email: "ada@example.com\r\nCc: x@example.com", phone: "1\n2", coverLetter: "Dear team,\r\nSubject: forged\n\nRegards", receivedAt: 0 },
      resume: { filename: "cv\r\n.pdf", contentType: "application/pdf", content: new ArrayBuffer(1) },
    },
    "applications@jobs.example",
    "hr@careful.example\nBcc: y@example.com",
  );

  it("subject, from, to, reply-to and the attachment's name hold no control character", () => {
    for (const value of [copy.subject, copy.from, copy.to, copy.replyTo, copy.attachments![0].filename, copy.attachments![0].type]) {
      expect(value).not.toMatch(/\p{Cc}/u);
    }
    expect(copy.subject).toBe("New application: Clerk Bcc: victim@example.com (job 7) from Ada X-Injected: 1");
  });

  it("the cover letter's lines stay inside the body, each quoted, so none reads as a header or as ours", () => {
    const lines = copy.text.split("\n");
    expect(lines).toContain("> Dear team,");
    expect(lines).toContain("> Subject: forged");
    expect(lines).toContain("> ");
    expect(lines).not.toContain("Subject: forged");
    expect(copy.text).not.toContain("\r");
    expect(lines.filter((line) => /^(X-Injected|Bcc|Cc):/.test(line))).toEqual([]);
  });
});

describe("any shape of resume is a 400 naming it, never a 500", () => {
  for (const resume of [{}, 5, true, [], "a string", [1, 2]]) {
    it(`JSON resume ${JSON.stringify(resume)}: a 400 naming resume (a JSON application carries no résumé)`, async () => {
      const res = await apply({ json: { name: "Ada", email: "ada@example.com", resume } });
      expect(res.status).toBe(400);
      expect(await fieldsOf(res)).toEqual(["resume"]);
    });
  }

  it("JSON resume null is no résumé: 201", async () => {
    expect((await apply({ json: { name: "Ada", email: "ada@example.com", resume: null } })).status).toBe(201);
  });

  it("multipart with two résumé files, or a résumé that is a text field, is a 400 naming resume; a field sent twice is a 400 naming it", async () => {
    const twoFiles = new FormData();
    twoFiles.set("name", "Ada");
    twoFiles.set("email", "ada@example.com");
    twoFiles.append("resume", new File([PDF], "a.pdf"));
    twoFiles.append("resume", new File([PDF], "b.pdf"));
    const res = await apply({ form: twoFiles });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toEqual(["resume"]);

    const text = new FormData();
    text.set("name", "Ada");
    text.set("email", "ada@example.com");
    text.set("resume", "not a file");
    expect(await fieldsOf(await apply({ form: text }))).toEqual(["resume"]);

    const twice = new FormData();
    twice.append("name", "Ada");
    twice.append("name", "Bob");
    twice.set("email", "ada@example.com");
    const repeated = await apply({ form: twice });
    expect(repeated.status).toBe(400);
    expect(await fieldsOf(repeated)).toEqual(["name"]);
  });
});

describe("the document's ApplicationInput says what the API does (issue 34)", () => {
  it("JSON answers: null answers nothing, as leaving it out does (a required question is then named); the document's ApplicationInput admits it (issue 34)", async () => {
    const body = { name: "Ada", email: "ada@example.com", answers: null };
    expect(await documentAdmits("ApplicationInput", body)).toBe(true);
    expect((await apply({ json: body })).status).toBe(201);
    const asking = await postJob(employer, {
      title: "Clerk",
      status: "active",
      applicantRoutingType: { id: 1 },
      applicationEmail: "hr@careful.example",
      questions: [{ key: "work_permit", text: "Are you entitled to work in Canada?", type: "yesNo", required: true }],
    });
    const res = await request(`/board/jobs/${asking.id}/applications`, { method: "POST", json: body, headers: { "CF-Connecting-IP": "10.34.0.1" } });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toEqual(["answers.work_permit"]);
    expect(await documentAdmits("ApplicationInput", { ...body, answers: [] })).toBe(false);
  });
});

describe("an application's JSON body has the bounds of every JSON body (DESIGN 6b)", () => {
  it("nested deeper than 64 levels, or a lone surrogate in name: a 400 naming the member", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 70; i++) deep = { a: deep };
    const nested = await apply({ json: { name: "Ada", email: "ada@example.com", extra: deep } });
    expect(nested.status).toBe(400);
    const surrogate = await apply({ body: '{"name":"Ada \\ud800","email":"ada@example.com"}', headers: { "Content-Type": "application/json" } });
    expect(surrogate.status).toBe(400);
    expect(await fieldsOf(surrogate)).toEqual(["name"]);
  });
});

describe("the apply path's 415 names what was received", () => {
  it("a type that is neither JSON nor multipart: 415 whose detail quotes it", async () => {
    const res = await apply({ body: "name=Ada", headers: { "Content-Type": "text/plain" } });
    expect(res.status).toBe(415);
    const { detail } = await problemOf(res);
    expect(detail).toContain('"text/plain"');
    expect(detail).not.toContain("no Content-Type");
  });
});

describe("the per-address limit comes before the body is read (DESIGN 15)", () => {
  it("once an address is limited, even a body that could never be valid is a 429 (not judged), and refused attempts count", async () => {
    let counted = 0;
    const limiter: RateLimit = { limit: async () => ({ success: ++counted <= 2 }) };
    const call = (body: BodyInit, contentType: string) =>
      worker.fetch(
        new Request(`${API}/board/jobs/${job.id}/applications`, { method: "POST", body, headers: { "Content-Type": contentType, "CF-Connecting-IP": "10.9.9.9" } }),
        { ...env, APPLY_RATE_LIMITER: limiter },
        { waitUntil: () => {}, passThroughOnException: () => {} } as unknown as ExecutionContext,
      );
    // Two refused attempts (a bad body, a bad media type) use up the address's allowance.
    expect((await call("{", "application/json")).status).toBe(400);
    expect((await call("x", "text/plain")).status).toBe(415);
    const limited = await call("{ not json at all", "application/json");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("60");
    expect(counted).toBe(3);
  });

  it("past the limit, a body of unknown length (a stream) is never read", async () => {
    let pulled = false;
    const body = new ReadableStream({ pull(controller) { pulled = true; controller.enqueue(new TextEncoder().encode("{}")); controller.close(); } }, { highWaterMark: 0 });
    const res = await worker.fetch(
      new Request(`${API}/board/jobs/${job.id}/applications`, { method: "POST", body, headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.9.8" }, duplex: "half" } as RequestInit),
      { ...env, APPLY_RATE_LIMITER: { limit: async () => ({ success: false }) } },
      { waitUntil: () => {}, passThroughOnException: () => {} } as unknown as ExecutionContext,
    );
    expect(res.status).toBe(429);
    expect(pulled).toBe(false);
  });
});

describe("the media types of an application, as browsers and clients write them", () => {
  it("JSON with parameters and spacing (DESIGN 5's rule), and multipart with a charset beside its boundary, are taken", async () => {
    const json = await apply({ body: JSON.stringify({ name: "Ada", email: "ada@example.com" }), headers: { "Content-Type": "application/json ;charset=utf-8;" } });
    expect(json.status).toBe(201);
    const form = new FormData();
    form.set("name", "Ada");
    form.set("email", "ada@example.com");
    const encoded = new Request("https://x.test", { method: "POST", body: form });
    const type = encoded.headers.get("Content-Type")!;
    const multipart = await apply({ body: await encoded.arrayBuffer(), headers: { "Content-Type": `${type}; charset=utf-8` } });
    expect(multipart.status).toBe(201);
  });

  it("a file input left empty (no file name, no bytes, as a browser sends it) is no résumé", async () => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("email", "ada@example.com");
    form.set("resume", new File([], ""));
    expect((await apply({ form })).status).toBe(201);
  });
});

describe("a key sent to /locations/{id} is authenticated like everywhere (DESIGN 6b)", () => {
  it("an unknown API-Key on an employer's own place counts as a failed authentication: past the limit, 429", async () => {
    const owner = await createEmployer();
    const created = await postJob(owner, { locations: [{ description: "Keylookupville, SK" }] });
    const placeId: number = created.locations[0].id;
    const lowLimits = { ...env, AUTH_FAILURE_RATE_LIMITER: env.TEST_LOW_AUTH_FAILURE_RATE_LIMITER };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await worker.fetch(
        new Request(`${API}/locations/${placeId}`, { headers: { "API-Key": `unknown-${i}`, "CF-Connecting-IP": "10.8.8.8" } }),
        lowLimits,
        {} as ExecutionContext,
      );
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 404 && s !== 429)).toEqual([]);
    // The owner's own key still reads it.
    const own = await worker.fetch(new Request(`${API}/locations/${placeId}`, { headers: { "API-Key": owner.apiKey, "CF-Connecting-IP": "10.8.8.8" } }), lowLimits, {} as ExecutionContext);
    expect(own.status).toBe(200);
  });
});
