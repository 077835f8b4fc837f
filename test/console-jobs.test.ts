import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashToken } from "../src/accounts/tokens";
import worker from "../src/index";
import { BASE, createEmployer, request, type TestEmployer } from "./support/api";
import { call, SESSION_COOKIE, signedIn } from "./support/console";
import { settleBoard } from "./support/board";
import { countingD1 } from "./support/count-d1";
import { postJob } from "./support/jobs";

// DESIGN 25 ("One set of rules", "Jobs") and 25a ("Jobs"): the employer's jobs in the console,
// driven over HTTP through the Worker's entry, compared with the same jobs through the API.

let counter = 0;
const address = () => `jobs${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;

/** An employer with a person signed in to its console (a recruiter unless told). */
async function employerWithPerson(options: { role?: "admin" | "recruiter"; lang?: "en" | "fr" } = {}) {
  const employer = await createEmployer({ plan: "unlimited" });
  const email = address();
  const cookie = await signedIn(employer.employerId, email, { role: options.role ?? "recruiter", lang: options.lang });
  const person = await env.ACCOUNTS_DB.prepare("SELECT id FROM people WHERE email = ?").bind(email).first<{ id: number }>();
  return { employer, cookie, personId: person!.id };
}

const apiJob = async (employer: TestEmployer, id: number) => request(`/jobs/${id}`, { apiKey: employer.apiKey });
const jobCount = async (employer: TestEmployer) => (await (await request("/jobs?pageSize=1", { apiKey: employer.apiKey })).json<any>()).paging.total as number;
const eventsOf = async (jobId: number) =>
  (await env.DB.prepare("SELECT type, data FROM events WHERE subject_id = ? ORDER BY seq").bind(jobId).all<{ type: string; data: string }>()).results.map((row) => ({
    type: row.type,
    actor: JSON.parse(row.data).actor,
  }));
const idFrom = (res: Response) => Number(/^\/employer\/jobs\/(\d+)\?saved$/.exec(res.headers.get("Location") ?? "")?.[1]);
/** The opening tag of the element with this id. */
const tagOf = (html: string, id: string) => new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? "";
const ifMatchIn = (html: string) => /name="ifMatch" value="([^"]*)"/.exec(html)![1].replaceAll("&quot;", '"');
const decoded = (html: string) => html.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");

/** A job with every member, as the form sends it and as the same body to the API. */
const FULL_FORM: [string, string][] = [
  ["title", "Senior Accountant"],
  ["status", "active"],
  ["closeDate", "2027-03-31"],
  ["location", "Vancouver, BC"],
  ["location", ""],
  ["location", "Montreal, QC"],
  ["category", "1"],
  ["category", "6"],
  ["positionType", "1"],
  ["salaryAmount", "65 000"],
  ["salaryMaxAmount", "72000.50"],
  ["salaryType", "1"],
  ["plusCommission", "true"],
  ["description", "<p>Join our <strong>finance</strong> team.</p>"],
  ["frTitle", "Comptable principal"],
  ["frDescription", "<p>Joignez-vous à notre équipe.</p>"],
  ["applicantRoutingType", "1"],
  ["applicationEmail", "jobs@acme.example"],
  ["applicationUrl", ""],
  ["confidential", "true"],
  ["aiUsedInSelection", "false"],
  ["existingVacancy", "true"],
  ["questions[0].key", "permit"],
  ["questions[0].text", "Are you entitled to work in Canada?"],
  ["questions[0].type", "yesNo"],
  ["questions[0].required", "true"],
  ["questions[0].knockoutAnswer", "false"],
  ["questions[1].key", ""],
  ["questions[1].text", ""],
  ["questions[1].type", "yesNo"],
  ["questions[2].key", "shift"],
  ["questions[2].text", "Which shift?"],
  ["questions[2].type", "singleChoice"],
  ["questions[2].options", "Day\r\nNight\r\n"],
  ["questions[2].knockout", "Night"],
];
const FULL_BODY = {
  title: "Senior Accountant",
  status: "active",
  closeDate: "2027-03-31",
  locations: [{ description: "Vancouver, BC" }, { description: "Montreal, QC" }],
  categories: [{ id: 1 }, { id: 6 }],
  positionType: { id: 1 },
  salary: { amount: 65000, maxAmount: 72000.5, type: { id: 1 }, plusCommission: true },
  description: "<p>Join our <strong>finance</strong> team.</p>",
  translations: { fr: { title: "Comptable principal", description: "<p>Joignez-vous à notre équipe.</p>" } },
  applicantRoutingType: { id: 1 },
  applicationEmail: "jobs@acme.example",
  confidential: true,
  aiUsedInSelection: false,
  existingVacancy: true,
  questions: [
    { key: "permit", text: "Are you entitled to work in Canada?", type: "yesNo", required: true, knockout: false },
    { key: "shift", text: "Which shift?", type: "singleChoice", options: ["Day", "Night"], knockout: ["Night"] },
  ],
};
/** What two equal jobs may differ in. */
const comparable = ({ id: _id, referenceId: _referenceId, publishDate: _publishDate, ...job }: Record<string, unknown>) => job;

describe("one set of rules (DESIGN 25)", () => {
  it("a job saved in the console is validated, cleaned, checked against the posting rules and stored exactly as the same job sent to the API", async () => {
    const { employer, cookie } = await employerWithPerson();
    const saved = await call("/employer/jobs", { cookie, form: [...FULL_FORM, ["referenceId", "FORM-1"]] });
    expect(saved.status).toBe(303);
    const consoleId = idFrom(saved);
    expect(consoleId).toBeGreaterThan(0);
    const posted = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: { ...FULL_BODY, referenceId: "API-1" } });
    expect(posted.status).toBe(201);
    const fromConsole = await (await apiJob(employer, consoleId)).json<any>();
    const fromApi = await (await apiJob(employer, (await posted.json<any>()).id)).json<any>();
    expect(fromConsole.referenceId).toBe("FORM-1");
    expect(comparable(fromConsole)).toEqual(comparable(fromApi));
    expect(fromConsole.salary).toMatchObject({ amount: 65000, maxAmount: 72000.5, plusCommission: true });
    expect(fromConsole.questions).toHaveLength(2);
    expect(fromConsole.postingRules.map((rule: any) => rule.rule)).toEqual(["bc.pay", "qc.french"]);
  });

  it("its events say who made the change: actor {type: user, id} from the console, {type: key} from the API", async () => {
    const { employer, cookie, personId } = await employerWithPerson();
    const id = idFrom(await call("/employer/jobs", { cookie, form: FULL_FORM }));
    expect(await eventsOf(id)).toEqual([
      { type: "job.created", actor: { type: "user", id: personId } },
      { type: "job.published", actor: { type: "user", id: personId } },
    ]);
    const fromApi = await postJob(employer);
    expect(await eventsOf(fromApi.id)).toEqual([{ type: "job.created", actor: { type: "key" } }]);
    const opened = await (await call(`/employer/jobs/${fromApi.id}`, { cookie })).text();
    const form: [string, string][] = [
      ["ifMatch", ifMatchIn(opened)],
      ["title", "Renamed in the console"],
      ["location", "Vancouver, BC"],
      ["category", "1"],
      ["status", "draft"],
    ];
    expect((await call(`/employer/jobs/${fromApi.id}`, { cookie, form })).status).toBe(303);
    expect((await eventsOf(fromApi.id)).at(-1)).toEqual({ type: "job.updated", actor: { type: "user", id: personId } });
  });

  it("a hostile description is cleaned exactly as the API cleans it, and the form shows the cleaned text after the save", async () => {
    const { employer, cookie } = await employerWithPerson();
    const hostile = `<p onclick="steal()">Hello<script>alert(1)</script> <a href="javascript:alert(2)" target="_blank">x</a><img src=x onerror=alert(3)><a href="https://acme.example/jobs" style="x">jobs</a></p><iframe src="https://evil.example"></iframe>`;
    const form: [string, string][] = [
      ["title", "Clerk"],
      ["location", "Kelowna, BC"],
      ["category", "2"],
      ["description", hostile],
    ];
    const id = idFrom(await call("/employer/jobs", { cookie, form }));
    const viaApi = await postJob(employer, { title: "Clerk", locations: [{ description: "Kelowna, BC" }], categories: [{ id: 2 }], description: hostile });
    const cleaned = (await (await apiJob(employer, id)).json<any>()).description;
    expect(cleaned).toBe(viaApi.description);
    expect(cleaned).not.toMatch(/script|onclick|onerror|javascript|iframe|style=/);
    const page = await (await call(`/employer/jobs/${id}`, { cookie })).text();
    const textarea = /<textarea id="description"[^>]*>([^<]*)<\/textarea>/.exec(page)![1];
    expect(decoded(textarea)).toBe(cleaned);
    expect(page).not.toContain("<script>alert");
    // The preview shows the cleaned HTML as the board page does.
    const preview = await call(`/employer/jobs/${id}/preview`, { cookie });
    expect(preview.status).toBe(200);
    const previewHtml = await preview.text();
    expect(previewHtml).toContain(cleaned);
    expect(previewHtml).toContain("Kelowna, BC");
  });
});

describe("the form (DESIGN 25a)", () => {
  it("GET /employer/jobs/new shows every member's field, named as 25a names them, with the reference data's lists", async () => {
    const { cookie } = await employerWithPerson();
    const res = await call("/employer/jobs/new", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const name of [
      "title", "referenceId", "status", "closeDate", "location", "category", "positionType", "salaryAmount", "salaryMaxAmount", "salaryType",
      "plusCommission", "description", "frTitle", "frDescription", "applicantRoutingType", "applicationEmail", "applicationUrl", "confidential",
      "autoRefresh", "aiUsedInSelection", "existingVacancy", "questions[0].key", "questions[0].text", "questions[0].type", "questions[0].knockoutAnswer",
    ]) {
      expect(html, name).toContain(`name="${name}"`);
    }
    expect(html).not.toContain('name="ifMatch"');
    expect(html.match(/name="location"/g)).toHaveLength(3);
    expect(html).toContain('<option value="Vancouver, BC">');
    expect(html).toMatch(/<input type="checkbox" name="category" value="1"\/> Accounting/);
    expect(html).toContain('<button type="submit" name="check" value="1">');
  });

  it("invalid: 422, the form again with what was typed and each message beside its field (aria-invalid, aria-describedby); nothing saved", async () => {
    const { employer, cookie } = await employerWithPerson();
    const before = await jobCount(employer);
    const form: [string, string][] = [
      ["title", "Typed title"],
      ["referenceId", "TYPED-7"],
      ["location", "Vancouver, BC"],
      ["location", "Atlantis, ZZ"],
      ["salaryAmount", "lots"],
      ["salaryType", "1"],
      ["applicantRoutingType", "2"],
      ["applicationUrl", "not an address"],
      ["frTitle", "Seulement un titre"],
      ["questions[0].key", "Bad Key!"],
      ["questions[0].text", "What is your current salary?"],
      ["questions[0].type", "text"],
    ];
    const res = await call("/employer/jobs", { cookie, form });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(await jobCount(employer)).toBe(before);
    // What was typed is kept.
    expect(tagOf(html, "title")).toContain('value="Typed title"');
    expect(tagOf(html, "referenceId")).toContain('value="TYPED-7"');
    expect(tagOf(html, "location-2")).toContain('value="Atlantis, ZZ"');
    expect(tagOf(html, "salaryAmount")).toContain('value="lots"');
    expect(tagOf(html, "applicationUrl")).toContain('value="not an address"');
    expect(tagOf(html, "question-1-text")).toContain('value="What is your current salary?"');
    // Each broken field: aria-invalid, and described by its message, which is beside it.
    for (const id of ["location-2", "salaryAmount", "applicationUrl", "frDescription", "categories", "question-1-key", "question-1-text"]) {
      const tag = tagOf(html, id);
      expect(tag, id).toContain('aria-invalid="true"');
      expect(tag, id).toMatch(new RegExp(`aria-describedby="[^"]*${id}-error`));
      expect(html, id).toMatch(new RegExp(`id="${id}-error" class="error">[^<]`));
    }
    expect(html).toContain('id="salaryAmount-error" class="error">Enter a number, such as 65000 or 27.50.');
    expect(html).toMatch(/id="question-1-text-error" class="error">text asks for the applicant&#39;s current or past pay/);
    // Fields that were right are not marked.
    expect(tagOf(html, "title")).not.toContain("aria-invalid");
    expect(tagOf(html, "location-1")).not.toContain("aria-invalid");
    expect(html).toContain('<div role="alert" class="error">');
    // The summary links each broken field, in the form's order.
    expect([...html.matchAll(/<li><a href="#([^"]+)">/g)].map((match) => match[1])).toEqual([
      "location-2", "categories", "salaryAmount", "frDescription", "applicationUrl", "question-1-key", "question-1-text",
    ]);
  });

  it("a referenceId already used: 422 with the message beside the field", async () => {
    const { employer, cookie } = await employerWithPerson();
    await postJob(employer, { referenceId: "TAKEN-1" });
    const res = await call("/employer/jobs", { cookie, form: [["referenceId", "TAKEN-1"], ["location", "Vancouver, BC"], ["category", "1"]] });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(tagOf(html, "referenceId")).toContain('aria-invalid="true"');
    expect(html).toContain('id="referenceId-error" class="error">You already have a job with referenceId');
  });

  it("an empty field is left out on create and cleared on save; an untouched close date keeps its time", async () => {
    const { employer, cookie } = await employerWithPerson();
    const created = await postJob(employer, {
      title: "Full",
      positionType: { id: 2 },
      salary: { amount: 20, type: { id: 5 } },
      description: "<p>Text</p>",
      translations: { fr: { title: "Plein", description: "<p>Texte</p>" } },
      aiUsedInSelection: true,
      confidential: true,
      questions: [{ key: "q", text: "Ready?", type: "yesNo" }],
    });
    const opened = await (await call(`/employer/jobs/${created.id}`, { cookie })).text();
    const form: [string, string][] = [
      ["ifMatch", ifMatchIn(opened)],
      ["closesAt", /name="closesAt" value="([^"]*)"/.exec(opened)![1]],
      ["closeDate", created.closeDate.slice(0, 10)],
      ["title", "Full"],
      ["status", "draft"],
      ["location", "Vancouver, BC"],
      ["category", "1"],
    ];
    expect((await call(`/employer/jobs/${created.id}`, { cookie, form })).status).toBe(303);
    const after = await (await apiJob(employer, created.id)).json<any>();
    expect(after).toMatchObject({ positionType: null, salary: null, description: null, translations: null, aiUsedInSelection: null, confidential: false, questions: [] });
    expect(after.closeDate).toBe(created.closeDate);
  });

  it("changed meanwhile: 409, the form with both versions and a new ifMatch, nothing saved; saving again overwrites knowingly", async () => {
    const { employer, cookie } = await employerWithPerson();
    const job = await postJob(employer, { title: "Opened title" });
    const opened = await (await call(`/employer/jobs/${job.id}`, { cookie })).text();
    const staleTag = ifMatchIn(opened);
    const changed = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Changed through the API" } });
    expect(changed.status).toBe(200);
    const currentTag = changed.headers.get("ETag")!;
    const form: [string, string][] = [
      ["ifMatch", staleTag],
      ["title", "Typed in the console"],
      ["status", "draft"],
      ["location", "Vancouver, BC"],
      ["category", "1"],
    ];
    const res = await call(`/employer/jobs/${job.id}`, { cookie, form });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("Typed in the console");
    expect(html).toContain("Changed through the API");
    expect(tagOf(html, "title")).toContain('value="Typed in the console"');
    expect(ifMatchIn(html)).toBe(currentTag);
    expect((await (await apiJob(employer, job.id)).json<any>()).title).toBe("Changed through the API");
    // With the version it was shown, the save goes through.
    const again = await call(`/employer/jobs/${job.id}`, { cookie, form: [["ifMatch", ifMatchIn(html)], ...form.slice(1)] });
    expect(again.status).toBe(303);
    expect((await (await apiJob(employer, job.id)).json<any>()).title).toBe("Typed in the console");
  });
});

describe("the posting rules beside their fields (DESIGN 25)", () => {
  it("the Check button (validateOnly) shows the province rules' warnings next to the fields they concern, saving nothing", async () => {
    const { employer, cookie } = await employerWithPerson();
    const before = await jobCount(employer);
    const form: [string, string][] = [
      ["check", "1"],
      ["title", "Checked only"],
      ["status", "active"],
      ["location", "Vancouver, BC"],
      ["location", "Toronto, ON"],
      ["category", "1"],
    ];
    const res = await call("/employer/jobs", { cookie, form });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(await jobCount(employer)).toBe(before);
    expect(html).toContain('<p role="status">Checked, not saved');
    expect(html).toMatch(/<ul class="warning" id="salary-warning"><li><strong>Expected pay or pay range in every public job posting \(BC\)/);
    expect(tagOf(html, "salary")).toMatch(/aria-describedby="[^"]*salary-warning/);
    expect(html).toMatch(/<ul class="warning" id="aiUsedInSelection-warning"><li><strong>Whether artificial intelligence/);
    expect(html).toMatch(/<ul class="warning" id="existingVacancy-warning">/);
    expect(tagOf(html, "title")).toContain('value="Checked only"');
    expect(html).not.toContain('name="ifMatch"');
  });

  it("once saved, the job's broken rules are warnings beside their fields, and listed", async () => {
    const { cookie } = await employerWithPerson();
    const saved = await call("/employer/jobs", { cookie, form: [["title", "Quebec clerk"], ["location", "Montreal, QC"], ["category", "1"]] });
    const html = await (await call(saved.headers.get("Location")!, { cookie })).text();
    expect(html).toContain('<p role="status">Saved.</p>');
    expect(html).toMatch(/<fieldset id="french"[^>]*aria-describedby="[^"]*french-warning/);
    expect(html).toMatch(/<ul class="warning" id="french-warning"><li><strong>A French version published at the same time \(QC\)/);
    expect(html).toMatch(/<td>A French version published at the same time<\/td><td>QC<\/td><td>Broken<\/td>/);
  });
});

describe("publish, archive, re-publish and delete (DESIGN 25a)", () => {
  it("each goes through the API's service, with its events and the person as their actor; delete without confirm=yes is 422 and deletes nothing", async () => {
    const { employer, cookie, personId } = await employerWithPerson();
    const job = await postJob(employer, { title: "Moving job" });
    const statusOf = async () => (await (await apiJob(employer, job.id)).json<any>()).status;

    const published = await call(`/employer/jobs/${job.id}/publish`, { cookie, form: {} });
    expect(published.status).toBe(303);
    expect(published.headers.get("Location")).toBe(`/employer/jobs/${job.id}?published`);
    expect(await statusOf()).toBe("active");
    const archived = await call(`/employer/jobs/${job.id}/archive`, { cookie, form: {} });
    expect(archived.headers.get("Location")).toBe(`/employer/jobs/${job.id}?archived`);
    expect(await statusOf()).toBe("archived");
    const page = await (await call(archived.headers.get("Location")!, { cookie })).text();
    expect(page).toContain('<p role="status">Archived');
    expect(page).toContain(`<form method="post" action="/employer/jobs/${job.id}/publish"><button type="submit">Publish again</button>`);
    expect((await call(`/employer/jobs/${job.id}/publish`, { cookie, form: {} })).status).toBe(303);
    expect(await statusOf()).toBe("active");

    const unconfirmed = await call(`/employer/jobs/${job.id}/delete`, { cookie, form: {} });
    expect(unconfirmed.status).toBe(422);
    const asked = await unconfirmed.text();
    expect(tagOf(asked, "confirm")).toContain('aria-invalid="true"');
    expect(asked).toContain("Tick the box to confirm");
    expect((await apiJob(employer, job.id)).status).toBe(200);

    const deleted = await call(`/employer/jobs/${job.id}/delete`, { cookie, form: { confirm: "yes" } });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("Location")).toBe("/employer/jobs?deleted");
    expect((await apiJob(employer, job.id)).status).toBe(404);
    expect((await call("/employer/jobs?deleted", { cookie }).then((res) => res.text()))).toContain('<p role="status">The job was deleted.</p>');
    const user = { type: "user", id: personId };
    expect(await eventsOf(job.id)).toEqual([
      { type: "job.created", actor: { type: "key" } },
      { type: "job.updated", actor: user },
      { type: "job.published", actor: user },
      { type: "job.updated", actor: user },
      { type: "job.archived", actor: user },
      { type: "job.updated", actor: user },
      { type: "job.published", actor: user },
      { type: "job.deleted", actor: user },
    ]);
  });
});

describe("refusals of a move (DESIGN 19, 25a)", () => {
  it("publishing a posting that breaks a rule its employer enforces: 422, the job as it is with the rule beside its field", async () => {
    const { employer, cookie } = await employerWithPerson({ role: "admin" });
    expect((await request("/employer", { method: "PUT", apiKey: employer.apiKey, json: { postingRules: "enforce" } })).status).toBe(200);
    const job = await postJob(employer, { title: "Unpaid in BC" });
    const res = await call(`/employer/jobs/${job.id}/publish`, { cookie, form: {} });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(tagOf(html, "salary")).toContain('aria-invalid="true"');
    expect(html).toContain('id="salary-error" class="error">British Columbia requires the expected pay');
    expect((await (await apiJob(employer, job.id)).json<any>()).status).toBe("draft");
  });

  it("a move the API refuses (an active job back to draft): 422 with the reason beside the status", async () => {
    const { employer, cookie } = await employerWithPerson();
    const job = await postJob(employer, { status: "active" });
    const form: [string, string][] = [["status", "draft"], ["location", "Vancouver, BC"], ["category", "1"]];
    const res = await call(`/employer/jobs/${job.id}`, { cookie, form });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('id="status-error" class="error">A job that is active cannot go back to draft.');
    expect((await (await apiJob(employer, job.id)).json<any>()).status).toBe("active");
  });
});

describe("form encodings (DESIGN 25a)", () => {
  it("a save may be multipart/form-data, as a browser sends a form with a file field", async () => {
    const { employer, cookie } = await employerWithPerson();
    const body = new FormData();
    for (const [name, value] of [["title", "Multipart clerk"], ["location", "Vancouver, BC"], ["location", "Kelowna, BC"], ["category", "3"]]) body.append(name, value);
    const res = await request(`${BASE}/employer/jobs`, { method: "POST", body, headers: { Cookie: `${SESSION_COOKIE}=${cookie}`, Origin: BASE }, redirect: "manual", undocumented: true });
    expect(res.status).toBe(303);
    const saved = await (await apiJob(employer, idFrom(res))).json<any>();
    expect(saved).toMatchObject({ title: "Multipart clerk", categories: [{ id: 3 }] });
    expect(saved.locations.map((location: any) => location.description)).toEqual(["Vancouver, BC", "Kelowna, BC"]);
  });
});

describe("the list (DESIGN 25a)", () => {
  it("GET /employer/jobs: a table of title, reference, status, places, close date, views, applications and broken rules; searchable by q and status; paged", async () => {
    const { employer, cookie } = await employerWithPerson();
    const upsert = Array.from({ length: 23 }, (_, i) => ({
      referenceId: `LIST-${String(i + 1).padStart(2, "0")}`,
      title: i < 3 ? `Welder ${i + 1}` : `Clerk ${i + 1}`,
      status: i % 2 ? "active" : "draft",
      locations: [{ description: "Vancouver, BC" }],
      categories: [{ id: 1 }],
    }));
    const batch = await request("/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: { upsert } });
    expect(batch.status).toBe(200);

    const first = await call("/employer/jobs", { cookie });
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain("<caption>Your jobs</caption>");
    for (const header of ["Title", "Reference", "Status", "Places", "Closes", "Views", "Applications", "Posting rules broken"]) expect(html).toContain(`<th scope="col">${header}</th>`);
    expect(html.match(/<tr><td><a href="\/employer\/jobs\/\d+">/g)).toHaveLength(20);
    expect(html).toMatch(/<td>LIST-\d\d<\/td><td>(Active|Draft)<\/td><td>Vancouver, BC<\/td><td><time datetime="[^"]+">[^<]+<\/time><\/td><td>0<\/td><td><a href="\/employer\/jobs\/\d+\/applications">0<\/a><\/td><td>Expected pay or pay range in every public job posting<\/td>/);
    expect(html).toContain("Page 1 of 2 (23 jobs).");
    expect(html).toContain('<a href="/employer/jobs?page=2" rel="next">Next page</a>');
    expect(html).not.toContain('rel="prev"');

    const second = await (await call("/employer/jobs?page=2", { cookie })).text();
    expect(second.match(/<tr><td><a href="\/employer\/jobs\/\d+">/g)).toHaveLength(3);
    expect(second).toContain('<a href="/employer/jobs?page=1" rel="prev">Previous page</a>');

    const welders = await (await call("/employer/jobs?q=welder&status=", { cookie })).text();
    expect(welders.match(/>Welder \d</g)).toHaveLength(3);
    expect(welders).toContain('value="welder"');
    const drafts = await (await call("/employer/jobs?q=welder&status=draft", { cookie })).text();
    expect(drafts.match(/>Welder \d</g)).toEqual([">Welder 3<", ">Welder 1<"]);
    expect(drafts).toContain('<option value="draft" selected="">');
    const none = await (await call("/employer/jobs?q=nothing-like-this", { cookie })).text();
    expect(none).toContain("No job matches this search.");

    const bad = await call("/employer/jobs?status=open&page=0", { cookie });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(tagOf(badHtml, "status")).toContain('aria-invalid="true"');
  });

  it("counts each job's applications (and views) from the stats", async () => {
    const { employer, cookie } = await employerWithPerson();
    const job = await postJob(employer, { title: "Applied job", status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@list.example" });
    for (const name of ["Ada", "Grace"]) {
      const res = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name, email: `${name.toLowerCase()}@example.com` }, headers: { "CF-Connecting-IP": "10.9.9.9" } });
      expect(res.status).toBe(201);
    }
    const html = await (await call("/employer/jobs", { cookie })).text();
    expect(html).toContain(`<td><a href="/employer/jobs/${job.id}/applications">2</a></td>`);
  });

  it("a console page that lists jobs answers within 1.5 × the GET /jobs request it shows (DESIGN 25): one round trip to the shard as GET /jobs, and one read of the session, not marked used again within the minute", async () => {
    const { employer, cookie } = await employerWithPerson();
    for (const title of ["Counted welder", "Counted clerk"]) await postJob(employer, { title, status: "active" });
    const shard = countingD1(env.DB);
    const accounts = countingD1(env.ACCOUNTS_DB);
    const counted = async (path: string, headers: Record<string, string>) => {
      shard.reset();
      accounts.reset();
      const ctx = createExecutionContext();
      const res = await worker.fetch!(new Request(`${BASE}${path}`, { headers }) as never, { ...env, DB: shard.db, ACCOUNTS_DB: accounts.db } as never, ctx);
      const answered = { shard: shard.count(), accounts: accounts.count(), accountStatements: accounts.statements() };
      await waitOnExecutionContext(ctx);
      return { res, answered, accountsAfter: accounts.count() };
    };
    const api = await counted("/api/v1.1/jobs?pageSize=20", { "API-Key": employer.apiKey });
    expect(api.res.status).toBe(200);
    const page = await counted("/employer/jobs", { Cookie: `${SESSION_COOKIE}=${cookie}` });
    expect(page.res.status).toBe(200);
    expect(await page.res.text()).toContain("Counted welder");
    expect(page.answered).toEqual({ shard: api.answered.shard, accounts: 1, accountStatements: 1 });
    expect(api.answered.shard).toBe(1);
    expect(page.accountsAfter).toBe(1);

    // Last used more than a minute ago: marked used now, by a write the answer does not wait for (the 12 hours unused start again).
    const sessionId = await hashToken(cookie);
    const lastUsed = () => env.ACCOUNTS_DB.prepare("SELECT last_used_at AS at FROM sessions WHERE id = ?").bind(sessionId).first<{ at: number }>();
    await env.ACCOUNTS_DB.prepare("UPDATE sessions SET last_used_at = last_used_at - 61000 WHERE id = ?").bind(sessionId).run();
    const before = (await lastUsed())!.at;
    const later = await counted("/employer/jobs", { Cookie: `${SESSION_COOKIE}=${cookie}` });
    expect(later.res.status).toBe(200);
    expect(later.accountsAfter).toBe(2);
    expect((await lastUsed())!.at).toBeGreaterThan(before + 60_000);
  });
});

describe("the preview (DESIGN 25: a preview shows the job as its board page will)", () => {
  /** The parts of a job page that show the job: its title, employer, facts, disclosures and description. */
  const shown = (html: string) => ({
    title: /<h[12]>([^<]*)<\/h[12]>\s*<p>([^<]*)<\/p>/.exec(html.slice(html.indexOf("<article>")))?.slice(1),
    facts: /<dl>[\s\S]*?<\/dl>(\s*<p>[^<]*<\/p>)*/.exec(html.slice(html.indexOf("<article>")))?.[0],
    description: /<section class="description"[\s\S]*?<\/section>/.exec(html)?.[0],
    questions: [...html.matchAll(/<legend>([^<]*)<\/legend>/g)].map((match) => match[1]),
  });
  const boardPage = async (path: string) => (await request(`${BASE}${path}`, { undocumented: true, redirect: "follow" })).text();

  it("renders the board's own job page for the same job, in English and in French, marked as a preview: no JobPosting, the apply form disabled, no report link", async () => {
    const { employer, cookie } = await employerWithPerson({ role: "admin" });
    const job = await postJob(employer, {
      title: "Previewed Accountant",
      status: "active",
      locations: [{ description: "Montréal, QC" }, { description: "Laval, QC" }],
      salary: { amount: 65000, maxAmount: 72000.5, type: { id: 1 } },
      positionType: { id: 1 },
      description: "<p>Join our <strong>finance</strong> team.</p>",
      existingVacancy: true,
      aiUsedInSelection: false,
      translations: { fr: { title: "Comptable prévisualisé", description: "<p>Joignez-vous à <em>l'équipe</em>.</p>" } },
      applicantRoutingType: { id: 1 },
      applicationEmail: "hr@preview.example",
      questions: [{ key: "permit", text: "Do you hold a work permit?", type: "yesNo", required: true, knockoutAnswer: false }],
    });
    await settleBoard();
    for (const [lang, boardPath] of [
      ["en", `/jobs/${job.id}`],
      ["fr", `/fr/emplois/${job.id}`],
    ] as const) {
      const board = await boardPage(boardPath);
      const res = await call(`/employer/jobs/${job.id}/preview?lang=${lang}`, { cookie });
      expect(res.status).toBe(200);
      const preview = await res.text();
      const expected = shown(board);
      expect(expected.title, lang).toEqual([lang === "fr" ? "Comptable prévisualisé" : "Previewed Accountant", employer.name]);
      expect(expected.facts, lang).toContain("Laval, QC");
      expect(expected.questions).toEqual(["Do you hold a work permit? (" + (lang === "fr" ? "obligatoire" : "required") + ")"]);
      expect(shown(preview), lang).toEqual(expected);
      // A preview, not the page: the console's heading over the job's, never indexed, the apply form shown but not sending, nothing to report.
      // (The console speaks the person's language, English here; the job is in the language asked.)
      expect(preview).toContain(`<h1>Preview: ${expected.title![0]}</h1>`);
      expect(preview).not.toContain("application/ld+json");
      expect(board).toContain("application/ld+json");
      expect(res.headers.get("X-Robots-Tag")).toContain("noindex");
      expect(preview).toMatch(/<fieldset disabled="">\s*<section aria-labelledby="apply-title">/);
      expect(board).not.toContain("<fieldset disabled");
      expect(board).toContain("/report");
      expect(preview).not.toContain("/report");
      expect(preview).not.toContain("hr@preview.example");
    }
  });

  it("a draft, which is not on the board, is previewed too; the job's page is not there yet", async () => {
    const { employer, cookie } = await employerWithPerson();
    const job = await postJob(employer, { title: "Draft to preview", status: "draft", salary: { amount: 30, type: { id: 3 } } });
    await settleBoard();
    expect((await request(`${BASE}/jobs/${job.id}`, { undocumented: true, redirect: "manual" })).status).toBe(404);
    const preview = await (await call(`/employer/jobs/${job.id}/preview`, { cookie })).text();
    expect(preview).toContain("<h2>Draft to preview</h2>");
    expect(shown(preview).facts).toContain("$30");
  });
});

describe("whose jobs (DESIGN 25a)", () => {
  it("another employer's job is 404 for GET and for every POST, and stays as it was", async () => {
    const { cookie } = await employerWithPerson({ role: "admin" });
    const other = await createEmployer();
    const job = await postJob(other, { title: "Not yours", status: "active" });
    const before = await (await apiJob(other, job.id)).json<any>();
    for (const path of [`/employer/jobs/${job.id}`, `/employer/jobs/${job.id}/preview`]) {
      const res = await call(path, { cookie });
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("Not yours");
    }
    const form: [string, string][] = [["title", "Taken over"], ["location", "Vancouver, BC"], ["category", "1"]];
    for (const [path, body] of [
      [`/employer/jobs/${job.id}`, form],
      [`/employer/jobs/${job.id}`, [...form, ["check", "1"]]],
      [`/employer/jobs/${job.id}/archive`, []],
      [`/employer/jobs/${job.id}/publish`, []],
      [`/employer/jobs/${job.id}/delete`, []],
      [`/employer/jobs/${job.id}/delete`, [["confirm", "yes"]]],
    ] as [string, [string, string][]][]) {
      expect((await call(path, { cookie, form: body })).status, path).toBe(404);
    }
    expect(await (await apiJob(other, job.id)).json<any>()).toEqual(before);
    expect((await call("/employer/jobs/not-a-job", { cookie })).status).toBe(404);
  });

  it("a POST whose Origin is foreign: 403, and nothing changed", async () => {
    const { employer, cookie } = await employerWithPerson();
    const job = await postJob(employer, { title: "Kept" });
    const before = await jobCount(employer);
    const evil = "https://evil.example";
    const form: [string, string][] = [["title", "Forged"], ["location", "Vancouver, BC"], ["category", "1"]];
    expect((await call("/employer/jobs", { cookie, form, origin: evil })).status).toBe(403);
    expect((await call(`/employer/jobs/${job.id}`, { cookie, form, origin: evil })).status).toBe(403);
    expect((await call(`/employer/jobs/${job.id}/delete`, { cookie, form: { confirm: "yes" }, origin: evil })).status).toBe(403);
    expect((await call(`/employer/jobs/${job.id}/archive`, { cookie, form: {}, origin: evil })).status).toBe(403);
    expect(await jobCount(employer)).toBe(before);
    expect((await (await apiJob(employer, job.id)).json<any>()).title).toBe("Kept");
  });
});

describe("in French (DESIGN 25)", () => {
  it("a French-speaking person gets the list, the form and its messages in French; the service's English is marked as English", async () => {
    const { cookie } = await employerWithPerson({ lang: "fr" });
    const list = await (await call("/employer/jobs", { cookie })).text();
    expect(list).toContain('<html lang="fr">');
    expect(list).toContain("<h1>Offres</h1>");
    expect(list).toContain("Publier une offre");
    const form = await (await call("/employer/jobs/new", { cookie })).text();
    expect(form).toContain("<h1>Nouvelle offre</h1>");
    expect(form).toContain('<label for="title">Titre</label>');
    expect(form).toMatch(/value="9"\/> Éducation/);
    const invalid = await call("/employer/jobs", { cookie, form: [["salaryAmount", "beaucoup"], ["location", "Vancouver, BC"]] });
    expect(invalid.status).toBe(422);
    const html = await invalid.text();
    expect(html).toContain("Entrez un nombre, comme 65000 ou 27,50.");
    expect(html).toMatch(/id="categories-error" class="error"><span lang="en">At least 1 category is required\.<\/span>/);
  });
});
