import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listApplications } from "../src/applications/repository";
import { createDatabase } from "../src/db/client";
import { createEmployer, request, type TestEmployer } from "./support/api";
import { call, signedIn } from "./support/console";
import { capturingD1 } from "./support/d1-proxies";
import { postJob } from "./support/jobs";

// DESIGN 25, 25a: the employer console's applications — all of them and one job's, one
// application with its answers, knockout results and history, its moves (DESIGN 20a) and its
// résumé — driven over HTTP through the Worker's entry; the API agrees with what the console did.

const QUESTIONS = [
  { key: "permit", text: "Are you legally entitled to work in Canada?", type: "yesNo", required: true, knockout: false },
  { key: "shift", text: "Which shift?", type: "singleChoice", options: ["Day", "Night"] },
  { key: "langs", text: "Languages?", type: "multiChoice", options: ["English", "French", "Other"], knockout: ["Other"] },
];
const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

let counter = 0;
const address = () => `person${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;
let ip = 0;

const routedByEmail = (title: string, extra: Record<string, unknown> = {}) => ({ title, status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@console.example", ...extra });

/** An application through the board's apply path, as a job seeker sends it (multipart when it carries a résumé). */
async function apply(jobId: number, fields: { name: string; email?: string; phone?: string; coverLetter?: string; answers?: Record<string, unknown> }, resume?: { bytes: Uint8Array; name: string }) {
  const body = { email: "applicant@example.com", ...fields };
  let init: { json?: unknown; body?: FormData };
  if (resume) {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) form.set(name, typeof value === "string" ? value : JSON.stringify(value));
    form.set("resume", new File([resume.bytes], resume.name, { type: "application/octet-stream" }));
    init = { body: form };
  } else init = { json: body };
  const res = await request(`/board/jobs/${jobId}/applications`, { method: "POST", ...init, headers: { "CF-Connecting-IP": `10.77.${Math.floor(++ip / 200)}.${ip % 200}` } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json<{ id: number }>()).id;
}

const apiRead = async (id: number, who: TestEmployer) => (await request(`/applications/${id}`, { apiKey: who.apiKey })).json<any>();
const apiMove = (id: number, who: TestEmployer, json: Record<string, unknown>) => request(`/applications/${id}`, { method: "PUT", apiKey: who.apiKey, json });
const apiHistory = async (id: number, who: TestEmployer) => (await (await request(`/applications/${id}/history`, { apiKey: who.apiKey })).json<any>()).data;

/** The rows of the page's first table (its body), each a list of cells' text. */
function tableRows(html: string): string[][] {
  const body = html.match(/<tbody>([\s\S]*?)<\/tbody>/)?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => [...row.matchAll(/<td>([\s\S]*?)<\/td>/g)].map(([, cell]) => cell.replace(/<[^>]+>/g, "").trim()));
}

const employer = await createEmployer({ name: "Console Hiring Ltd." });
const screened = await postJob(employer, routedByEmail("Warehouse Lead", { questions: QUESTIONS }));
const plain = await postJob(employer, routedByEmail("Payroll Clerk"));
const other = await createEmployer({ name: "Someone Else Inc." });
const theirJob = await postJob(other, routedByEmail("Their Job"));

// Oldest first: the lists show them newest first.
const grace = await apply(screened.id, { name: "Grace Hopper", phone: "+1 604 555 0100", coverLetter: "I ran the Mark I.\n\nI can lead a team.", answers: { permit: true, shift: "Night", langs: ["English", "Other"] } }, { bytes: PDF, name: "grace cv.pdf" });
const ada = await apply(screened.id, { name: "Ada Lovelace", answers: { permit: true, shift: "Day", langs: ["French"] } });
const alan = await apply(plain.id, { name: "Alan Turing" });
const theirs = await apply(theirJob.id, { name: "Not Yours" }, { bytes: PDF, name: "theirs.pdf" });

const recruiter = await signedIn(employer.employerId, address(), { role: "recruiter" });
const admin = await signedIn(employer.employerId, address(), { role: "admin" });

describe("lists (DESIGN 25: applications for one job and for all)", () => {
  it("GET /employer/applications: every application of the employer, newest first — applicant, job (link), received, status, knockout result; none of another employer's", async () => {
    const res = await call("/employer/applications", { cookie: recruiter });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(tableRows(html)).toEqual([
      ["Alan Turing", "Payroll Clerk", expect.any(String), "Received", "Passed"],
      ["Ada Lovelace", "Warehouse Lead", expect.any(String), "Received", "Passed"],
      ["Grace Hopper", "Warehouse Lead", expect.any(String), "Received", "Screened out"],
    ]);
    expect(html).toContain(`<a href="/employer/applications/${grace}">Grace Hopper</a>`);
    expect(html).toContain(`<a href="/employer/jobs/${plain.id}">Payroll Clerk</a>`);
    expect(html).toContain("<caption>3 applications, newest first</caption>");
    expect(html).not.toContain("Not Yours");
    expect(html).toMatch(/<a href="\/employer\/applications" aria-current="page">Applications<\/a>/);
  });

  it("GET /employer/jobs/{id}/applications: that job's only; another employer's job is 404 (never 403), as is an id that is none", async () => {
    const res = await call(`/employer/jobs/${screened.id}/applications`, { cookie: admin });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>Applications · Warehouse Lead");
    expect(tableRows(html).map((row) => row[0])).toEqual(["Ada Lovelace", "Grace Hopper"]);
    for (const path of [`/employer/jobs/${theirJob.id}/applications`, "/employer/jobs/0/applications", "/employer/jobs/abc/applications"]) {
      const refused = await call(path, { cookie: recruiter });
      expect(refused.status, path).toBe(404);
      expect(await refused.text()).not.toContain("Their Job");
    }
  });

  it("filter by status (a select) and by knockout result; an unknown status is 422 with the message beside the select", async () => {
    const offered = await apply(plain.id, { name: "Katherine Johnson" });
    expect((await apiMove(offered, employer, { status: "offered" })).status).toBe(200);
    const res = await call("/employer/applications?status=offered", { cookie: recruiter });
    expect(tableRows(await res.text()).map((row) => [row[0], row[3]])).toEqual([["Katherine Johnson", "Offered"]]);
    const perJob = await call(`/employer/jobs/${screened.id}/applications?status=received&screenedOut=true`, { cookie: recruiter });
    const perJobHtml = await perJob.text();
    expect(tableRows(perJobHtml).map((row) => row[0])).toEqual(["Grace Hopper"]);
    expect(perJobHtml).toContain('<option value="received" selected="">Received</option>');
    const none = await call(`/employer/jobs/${plain.id}/applications?status=hired`, { cookie: recruiter });
    expect(await none.text()).toContain("No application matches.");

    const bad = await call("/employer/applications?status=archived", { cookie: recruiter });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(badHtml).toMatch(/<select id="status" name="status" aria-invalid="true" aria-describedby="status-error">/);
    expect(badHtml).toContain('<strong id="status-error" class="error">Choose one of the statuses in the list.</strong>');
    expect(badHtml).not.toContain("<table>");
    expect((await call("/employer/applications?page=0", { cookie: recruiter })).status).toBe(400);
  });

  it("paged as the API's list (page, pageSize ≤ 100): page n of m with the next page's link, the filters kept", async () => {
    const first = await (await call("/employer/applications?status=received&pageSize=2", { cookie: recruiter })).text();
    expect(tableRows(first).map((row) => row[0])).toEqual(["Alan Turing", "Ada Lovelace"]);
    expect(first).toContain("Page 1 of 2");
    expect(first).toContain('<a href="/employer/applications?status=received&amp;pageSize=2&amp;page=2" rel="next">Next page</a>');
    const second = await (await call("/employer/applications?status=received&pageSize=2&page=2", { cookie: recruiter })).text();
    expect(tableRows(second).map((row) => row[0])).toEqual(["Grace Hopper"]);
    expect(second).toContain('rel="prev">Previous page</a>');
    expect((await call("/employer/applications?pageSize=101", { cookie: recruiter })).status).toBe(400);
  });

  it("the list of all is found on its own indexes in its own order, as a job's is on the job's (drizzle/0026; EXPLAIN QUERY PLAN)", async () => {
    const plans = async (jobId: number | undefined, status?: "received") => {
      const { db, ran } = capturingD1();
      await listApplications(createDatabase(db), employer.employerId, jobId, { status }, 1, 10);
      return Promise.all(ran.map(async ({ sql, params }) => (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>()).results.map((step) => step.detail).join(" | ")));
    };
    // The page's statement (first) walks the index in the list's order; the count searches the same one's leading columns.
    const cases = [
      [undefined, undefined, "applications_employer_idx", /INDEX applications_employer_idx \(employer_id=\?\)/],
      [undefined, "received", "applications_employer_status_idx", /INDEX applications_employer_status_idx \(employer_id=\? AND status=\?\)/],
      [screened.id, undefined, "applications_job_idx", /INDEX applications_job(_status)?_idx \(job_id=\?\)/],
      [screened.id, "received", "applications_job_status_idx", /INDEX applications_job_status_idx \(job_id=\? AND status=\?\)/],
    ] as const;
    for (const [jobId, status, pageIndex, countIndex] of cases) {
      const [page, count] = await plans(jobId, status);
      expect(page).toMatch(new RegExp(`^SEARCH applications USING INDEX ${pageIndex} `));
      expect(page).not.toContain("TEMP B-TREE");
      expect(count).toMatch(countIndex);
    }
  });
});

describe("one application (DESIGN 25: its status, answers and knockout results, the résumé)", () => {
  it("GET /employer/applications/{id}: name, email, phone, cover letter, each answer with its knockout result, status, history, the résumé's link", async () => {
    const res = await call(`/employer/applications/${grace}`, { cookie: recruiter });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>Application from Grace Hopper</h1>");
    expect(html).toContain('<a href="mailto:applicant@example.com">applicant@example.com</a>');
    expect(html).toContain("+1 604 555 0100");
    expect(html).toContain("<p>I ran the Mark I.</p><p>I can lead a team.</p>");
    expect(html).toContain(`<a href="/employer/applications/${grace}/resume">Download grace cv.pdf (${PDF.length} bytes)</a>`);
    expect(html).toContain("an answer matched a knockout: the application is screened out.");
    const answers = html.slice(html.indexOf("<h2>Screening answers</h2>"), html.indexOf("<h2>History</h2>"));
    expect(tableRows(answers)).toEqual([
      ["Are you legally entitled to work in Canada?", "Yes", "Passes"],
      ["Which shift?", "Night", "No knockout"],
      ["Languages?", "English, Other", "Screens out"],
    ]);
    const history = html.slice(html.indexOf("<h2>History</h2>"));
    expect(tableRows(history)).toEqual([["Received", expect.stringMatching(/UTC$/), ""]]);
    expect(html).toContain(`<form method="post" action="/employer/applications/${grace}/status">`);

    const without = await (await call(`/employer/applications/${alan}`, { cookie: recruiter })).text();
    expect(without).toContain("No screening answers.");
    expect(without).not.toContain("/resume");
  });

  it("the résumé downloads through the console only: attachment with a safe filename, its stored type, no-store, nosniff, the very bytes; none is 404", async () => {
    const res = await call(`/employer/applications/${grace}/resume`, { cookie: recruiter });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="grace cv.pdf"; filename*=UTF-8''grace%20cv.pdf`);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PDF);
    expect((await call(`/employer/applications/${alan}/resume`, { cookie: recruiter })).status).toBe(404);
    expect((await call(`/employer/applications/${grace}/resume`)).status).toBe(303);
  });

  it("a file name beyond ASCII: the plain filename falls back to ASCII, filename* keeps it whole (UTF-8)", async () => {
    const id = await apply(plain.id, { name: "Wu Jianxiong" }, { bytes: PDF, name: "简历 été.pdf" });
    const res = await call(`/employer/applications/${id}/resume`, { cookie: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="__ _t_.pdf"; filename*=UTF-8''${encodeURIComponent("简历 été.pdf")}`);
    const api = await request(`/applications/${id}/resume`, { apiKey: employer.apiKey, undocumented: true });
    expect(api.headers.get("Content-Disposition")).toBe(res.headers.get("Content-Disposition"));
  });
});

describe("moves (DESIGN 20a, through the console)", () => {
  it("a legal move changes the status, kept in the history with its note, 303 back to the application; the API's GET agrees; its event names the person", async () => {
    const id = await apply(plain.id, { name: "Dorothy Vaughan" });
    const res = await call(`/employer/applications/${id}/status`, { cookie: recruiter, form: { status: "interviewing", note: "Phone screen booked." } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/employer/applications/${id}`);
    const api = await apiRead(id, employer);
    expect(api).toMatchObject({ status: "interviewing", interviewedAt: expect.any(String), decisionDueAt: expect.any(String) });
    expect((await apiHistory(id, employer)).map((move: { status: string; note: string | null }) => [move.status, move.note])).toEqual([
      ["received", null],
      ["interviewing", "Phone screen booked."],
    ]);
    const page = await (await call(`/employer/applications/${id}`, { cookie: recruiter })).text();
    expect(page).toContain("Phone screen booked.");
    expect(page).toContain("Decision due");
    const { results } = await env.DB.prepare("SELECT data FROM events WHERE subject_id = ? AND type = 'application.status_changed'").bind(id).all<{ data: string }>();
    const person = await env.ACCOUNTS_DB.prepare("SELECT id FROM people WHERE employer_id = ? AND role = 'recruiter' ORDER BY id LIMIT 1").bind(employer.employerId).first<{ id: number }>();
    expect(results.map((row) => JSON.parse(row.data))).toEqual([expect.objectContaining({ previousStatus: "received", actor: { type: "user", id: person!.id } })]);
  });

  it("rejected with the notice asked: the applicant's email is queued as the API's move queues it", async () => {
    const id = await apply(plain.id, { name: "Mary Jackson" });
    const res = await call(`/employer/applications/${id}/status`, { cookie: admin, form: { status: "rejected", notifyApplicant: "yes" } });
    expect(res.status).toBe(303);
    const api = await apiRead(id, employer);
    expect(api.status).toBe("rejected");
    expect(api.applicantEmails.map((email: { kind: string }) => email.kind)).toEqual(["confirmation", "rejected"]);
  });

  it("an illegal move (out of a final status) is 422 with the message beside the field (aria-invalid), and nothing changes", async () => {
    const id = await apply(plain.id, { name: "Annie Easley" });
    expect((await apiMove(id, employer, { status: "hired" })).status).toBe(200);
    const before = await apiRead(id, employer);
    const final = await (await call(`/employer/applications/${id}`, { cookie: recruiter })).text();
    expect(final).toContain("Hired is a final status: the application moves no more.");
    expect(final).not.toContain(`action="/employer/applications/${id}/status"`);

    const res = await call(`/employer/applications/${id}/status`, { cookie: recruiter, form: { status: "reviewing", note: "Try again" } });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toMatch(/<select id="status" name="status" aria-invalid="true" aria-describedby="status-hint status-error">/);
    expect(html).toContain('<strong id="status-error" class="error">The application is Hired, a final status: it cannot move to Reviewing.</strong>');
    expect(html).toContain('<option value="reviewing" selected="">Reviewing</option>');
    expect(html).toMatch(/<textarea id="note" name="note" rows="3"[^>]*>Try again<\/textarea>/);
    expect(await apiRead(id, employer)).toEqual(before);
    expect((await apiHistory(id, employer)).map((move: { status: string }) => move.status)).toEqual(["received", "hired"]);
  });

  it("bad fields: 422, each message beside its field — a status not in the list, a notice with a move that is no outcome, a note over 2 000 characters; nothing changes", async () => {
    const id = await apply(plain.id, { name: "Christine Darden" });
    for (const [form, field, message] of [
      [{ status: "archived" }, "status", "Choose one of the statuses in the list."],
      [{ status: "reviewing", notifyApplicant: "yes" }, "notifyApplicant", "Only a move to Rejected or Hired can be emailed to the applicant."],
      [{ status: "reviewing", note: "x".repeat(2_001) }, "note", "Write at most 2 000 characters."],
    ] as const) {
      const res = await call(`/employer/applications/${id}/status`, { cookie: recruiter, form });
      expect(res.status, field).toBe(422);
      const html = await res.text();
      expect(html).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
      expect(html).toContain(`<strong id="${field}-error" class="error">${message}</strong>`);
    }
    expect((await apiHistory(id, employer)).map((move: { status: string }) => move.status)).toEqual(["received"]);
  });

  it("withdrawn through the console: the résumé is gone (404) and the page says so", async () => {
    const id = await apply(plain.id, { name: "Evelyn Boyd" }, { bytes: PDF, name: "cv.pdf" });
    expect((await call(`/employer/applications/${id}/status`, { cookie: recruiter, form: { status: "withdrawn" } })).status).toBe(303);
    expect((await call(`/employer/applications/${id}/resume`, { cookie: recruiter })).status).toBe(404);
    const html = await (await call(`/employer/applications/${id}`, { cookie: recruiter })).text();
    expect(html).toContain("This application is withdrawn: its résumé was deleted and it moves no more.");
    expect(html).toContain("Deleted when the application was withdrawn.");
  });
});

describe("the tenant wall and the console's rules (DESIGN 25, 25a)", () => {
  it("another employer's application, its résumé and its move are 404 (never 403), and nothing changes", async () => {
    for (const path of [`/employer/applications/${theirs}`, `/employer/applications/${theirs}/resume`, "/employer/applications/2147483648"]) {
      const res = await call(path, { cookie: admin });
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("Not Yours");
    }
    expect((await call(`/employer/applications/${theirs}/status`, { cookie: admin, form: { status: "rejected" } })).status).toBe(404);
    expect((await apiRead(theirs, other)).status).toBe("received");
  });

  it("a POST with a foreign Origin is 403 and changes nothing", async () => {
    const res = await call(`/employer/applications/${ada}/status`, { cookie: recruiter, form: { status: "reviewing" }, origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await apiRead(ada, employer)).status).toBe("received");
  });

  it("in French for a person whose language is French: the same addresses, French words", async () => {
    const french = await signedIn(employer.employerId, address(), { role: "recruiter", lang: "fr" });
    const list = await (await call("/employer/applications", { cookie: french })).text();
    expect(list).toContain('<html lang="fr"');
    expect(list).toContain("<h1>Candidatures</h1>");
    expect(list).toContain("Tous les statuts");
    expect(list).toContain("Résultat éliminatoire");
    const one = await (await call(`/employer/applications/${grace}`, { cookie: french })).text();
    expect(one).toContain("<h1>Candidature de Grace Hopper</h1>");
    expect(one).toContain("Lettre de présentation");
    expect(one).toContain("Éliminatoire");
    expect(one).toContain("Changer le statut");
    const refused = await call(`/employer/applications/${grace}/status`, { cookie: french, form: { status: "nope" } });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("Choisissez un des statuts de la liste.");
  });
});
