import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consumeEmailBatch, type QueuedEmail } from "../src/applications/copies";
import worker from "../src/index";
import { countingD1 } from "./support/count-d1";
import { API, BASE, createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";

// DESIGN 20 and 20a: screening questions on jobs, answers on apply, statuses with history and
// ETags, the 45-day decision notice, emails to the applicant and the withdraw link.

const employer = await createEmployer({ name: "Pipeline Works Ltd." });
const QUESTIONS = [
  { key: "permit", text: "Are you legally entitled to work in Canada?", type: "yesNo", required: true, knockout: false },
  { key: "shift", text: "Which shift?", type: "singleChoice", options: ["Day", "Night"] },
  { key: "langs", text: "Languages?", type: "multiChoice", options: ["English", "French", "Other"], knockout: ["Other"] },
  { key: "why", text: "Why us?", type: "text", maxLength: 200 },
  { key: "years", text: "Years of experience?", type: "number", min: 0, max: 50 },
];
const job = await postJob(employer, {
  title: "Warehouse Lead",
  status: "active",
  applicantRoutingType: { id: 1 },
  applicationEmail: "hr@pipeline.example",
  questions: QUESTIONS,
});

let ip = 0;
const apply = (jobId: number, init: { json?: unknown; form?: FormData }) =>
  request(`/board/jobs/${jobId}/applications`, { method: "POST", json: init.json, body: init.form, headers: { "CF-Connecting-IP": `10.9.${Math.floor(++ip / 200)}.${ip % 200}` } });
const applicant = (overrides: Record<string, unknown> = {}) => ({ name: "Grace Hopper", email: "grace@example.com", answers: { permit: true }, ...overrides });
async function applied(overrides: Record<string, unknown> = {}, jobId = job.id): Promise<number> {
  const res = await apply(jobId, { json: applicant(overrides) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json<any>()).id;
}
const read = (id: number, who: TestEmployer = employer) => request(`/applications/${id}`, { apiKey: who.apiKey });
const move = (id: number, json: Record<string, unknown>, headers: Record<string, string> = {}, who: TestEmployer = employer) =>
  request(`/applications/${id}`, { method: "PUT", apiKey: who.apiKey, json, headers });
const history = async (id: number) => (await (await request(`/applications/${id}/history`, { apiKey: employer.apiKey })).json<any>()).data;
const entry = exports.default as typeof exports.default & { scheduled(controller: { scheduledTime: number; cron: string }): Promise<void> };
const DAY = 86_400_000;
/** The withdraw pages: HTML, outside the API and its OpenAPI document. */
const withdrawPage = (path: string, method = "GET") =>
  request(`${BASE}${path}`, { method, undocumented: true, headers: { "CF-Connecting-IP": `10.8.${Math.floor(++ip / 200)}.${ip % 200}` } });

/** A multipart application of these fields (a list: the field repeated). */
function formOf(fields: Record<string, string | string[]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
  return form;
}

/** The email queue's consumer given these applicant emails, sending through a recording binding. */
async function sendApplicantEmails(applicationId: number) {
  const { results } = await env.DB.prepare("SELECT id FROM applicant_emails WHERE application_id = ? AND status = 'pending' ORDER BY id").bind(applicationId).all<{ id: number }>();
  const sent: any[] = [];
  const messages = results.map(({ id }) => ({ id: String(id), body: { applicantEmailId: id } as QueuedEmail, timestamp: new Date(), attempts: 1, ack: () => {}, retry: () => {} }));
  await consumeEmailBatch({ queue: "job-posting-emails", messages, ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<QueuedEmail>, {
    ...env,
    EMAIL: { send: async (mail: unknown) => void sent.push(mail) } as unknown as SendEmail,
  });
  return sent;
}

describe("questions on a job (DESIGN 20)", () => {
  it("the employer's Job shows them with knockout; the board shows them without", async () => {
    expect(job.questions).toHaveLength(5);
    expect(job.questions[0]).toEqual({ ...QUESTIONS[0], options: null, maxLength: null, min: null, max: null });
    await settleBoard();
    const board = await (await request(`/board/jobs/${job.id}?t=${Date.now()}`)).json<any>();
    expect(board.questions[0]).toEqual({ key: "permit", text: QUESTIONS[0].text, type: "yesNo", required: true, options: null, maxLength: null, min: null, max: null });
    expect(JSON.stringify(board.questions)).not.toContain("knockout");
  });

  it("are replaced as a whole; null or [] removes them; a bad one is a 400 naming questions[i].member", async () => {
    const other = await postJob(employer, { questions: QUESTIONS.slice(0, 2) });
    const put = (json: unknown) => request(`/jobs/${other.id}`, { method: "PUT", apiKey: employer.apiKey, json });
    expect((await (await put({ questions: [QUESTIONS[3]] })).json<any>()).questions.map((q: { key: string }) => q.key)).toEqual(["why"]);
    expect((await (await put({ questions: null })).json<any>()).questions).toEqual([]);
    const bad = await put({ questions: [QUESTIONS[0], { key: "pay", text: "What is your current salary?", type: "number" }] });
    expect(bad.status).toBe(400);
    expect((await problemOf(bad)).errors!.map((error) => error.field)).toEqual(["questions[1].text"]);
  });
});

describe("answers on apply (DESIGN 20)", () => {
  it("JSON answers are stored with the application; a knockout answer is accepted and screens out", async () => {
    const kept = await applied({ answers: { permit: true, shift: "Day", langs: ["English"], why: "Close to home", years: 3 } });
    expect(await (await read(kept)).json<any>()).toMatchObject({ answers: { permit: true, shift: "Day", langs: ["English"], why: "Close to home", years: 3 }, screenedOut: false, status: "received" });
    const out = await applied({ answers: { permit: false } });
    expect((await (await read(out)).json<any>()).screenedOut).toBe(true);
  });

  it("every problem in one 400: unknown keys, wrong types, missing required answers; nothing stored", async () => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM applications").first<{ n: number }>();
    const res = await apply(job.id, { json: applicant({ email: "nope", answers: { shift: "Evening", years: 99, bonus: 1 } }) });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((error) => error.field).sort()).toEqual(["answers.bonus", "answers.permit", "answers.shift", "answers.years", "email"]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM applications").first<{ n: number }>()).toEqual(before);
  });

  it("multipart: one answers field holding JSON", async () => {
    const form = formOf({ name: "Katherine Johnson", email: "kj@example.com", answers: JSON.stringify({ permit: true, langs: ["French", "English"] }) });
    const res = await apply(job.id, { form });
    expect(res.status).toBe(201);
    expect((await (await read((await res.json<any>()).id)).json<any>()).answers).toEqual({ permit: true, langs: ["French", "English"] });
  });

  it("multipart: one field per question, answers[key], multiChoice repeated, yesNo true/false, numbers as JSON numbers", async () => {
    const form = formOf({ name: "Dorothy Vaughan", email: "dv@example.com", "answers[permit]": "true", "answers[langs]": ["English", "Other"], "answers[years]": "12" });
    const res = await apply(job.id, { form });
    expect(res.status).toBe(201);
    expect(await (await read((await res.json<any>()).id)).json<any>()).toMatchObject({ answers: { permit: true, langs: ["English", "Other"], years: 12 }, screenedOut: true });
  });

  it("multipart: bad answers are named; both shapes at once is a 400 on answers", async () => {
    const form = formOf({ name: "Mary Jackson", email: "mj@example.com", "answers[permit]": "yes", "answers[years]": "twelve" });
    const res = await apply(job.id, { form });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((error) => error.field)).toEqual(["answers.permit", "answers.years"]);
    form.set("answers", JSON.stringify({ permit: true }));
    const both = await apply(job.id, { form });
    expect((await problemOf(both)).errors!.map((error) => error.field)).toEqual(["answers"]);
    const broken = formOf({ name: "Mary Jackson", email: "mj@example.com", answers: "{not json" });
    expect((await problemOf(await apply(job.id, { form: broken }))).errors!.map((error) => error.field)).toEqual(["answers"]);
  });
});

describe("statuses (DESIGN 20, 20a)", () => {
  it("every allowed move: forward, back, skipping, the same again; each kept in the history, oldest first", async () => {
    const id = await applied();
    for (const status of ["reviewing", "interviewing", "reviewing", "offered", "offered", "hired"]) {
      const res = await move(id, { status, note: `to ${status}` });
      expect(res.status, status).toBe(200);
      expect((await res.json<any>()).status).toBe(status);
    }
    const moves = await history(id);
    expect(moves.map((m: { status: string }) => m.status)).toEqual(["received", "reviewing", "interviewing", "reviewing", "offered", "offered", "hired"]);
    expect(moves[0]).toEqual({ status: "received", at: expect.stringMatching(/Z$/), note: null });
    expect(moves[1].note).toBe("to reviewing");
  });

  it("a move out of a final status is a 409; rejected and withdrawn are reachable from any non-final one", async () => {
    for (const final of ["hired", "rejected", "withdrawn"]) {
      const id = await applied();
      expect((await move(id, { status: final })).status).toBe(200);
      for (const status of ["received", "reviewing", "hired", final]) {
        const res = await move(id, { status });
        expect(res.status, `${final} → ${status}`).toBe(409);
        expect((await problemOf(res)).type).toBe("/problems/invalid-transition");
      }
    }
  });

  it("ETag and If-Match: a stale ETag is a 412 carrying the current one; If-None-Match gives 304", async () => {
    const id = await applied();
    const first = await read(id);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"\d+\.\d+"$/);
    expect((await request(`/applications/${id}`, { apiKey: employer.apiKey, headers: { "If-None-Match": etag } })).status).toBe(304);
    const moved = await move(id, { status: "reviewing" }, { "If-Match": etag });
    expect(moved.status).toBe(200);
    const next = moved.headers.get("ETag")!;
    expect(next).not.toBe(etag);
    const stale = await move(id, { status: "rejected" }, { "If-Match": etag });
    expect(stale.status).toBe(412);
    expect(stale.headers.get("ETag")).toBe(next);
    expect((await (await read(id)).json<any>()).status).toBe("reviewing");
  });

  it("bad bodies are a 400 naming the member; notifyApplicant only with rejected or hired", async () => {
    const id = await applied();
    for (const [json, field] of [
      [{ status: "archived" }, "status"],
      [{}, "status"],
      [{ status: "reviewing", note: "x".repeat(2001) }, "note"],
      [{ status: "reviewing", notifyApplicant: "yes" }, "notifyApplicant"],
      [{ status: "reviewing", notifyApplicant: true }, "notifyApplicant"],
    ] as const) {
      const res = await move(id, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await problemOf(res)).errors!.map((error) => error.field)).toEqual([field]);
    }
  });

  it("another employer's application is a 404 for every operation", async () => {
    const id = await applied();
    const stranger = await createEmployer();
    expect((await read(id, stranger)).status).toBe(404);
    expect((await move(id, { status: "reviewing" }, {}, stranger)).status).toBe(404);
    expect((await request(`/applications/${id}/history`, { apiKey: stranger.apiKey })).status).toBe(404);
  });

  it("the list filters by status and screenedOut", async () => {
    const target = await postJob(employer, { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@pipeline.example", questions: [QUESTIONS[0]] });
    const [a, b, c] = [await applied({}, target.id), await applied({ answers: { permit: false } }, target.id), await applied({}, target.id)];
    await move(c, { status: "reviewing" });
    const list = async (query: string) =>
      ((await (await request(`/jobs/${target.id}/applications?${query}`, { apiKey: employer.apiKey })).json<any>()).data as { id: number }[]).map((x) => x.id);
    expect(await list("status=received")).toEqual([b, a]);
    expect(await list("status=reviewing")).toEqual([c]);
    expect(await list("screenedOut=true")).toEqual([b]);
    expect(await list("screenedOut=false&status=received")).toEqual([a]);
    expect((await request(`/jobs/${target.id}/applications?status=lost`, { apiKey: employer.apiKey })).status).toBe(400);
  });

  it("interviewing records interviewedAt (again each time); decisionDueAt is 45 days later while not final", async () => {
    const id = await applied();
    const first = await (await move(id, { status: "interviewing" })).json<any>();
    expect(Date.parse(first.decisionDueAt) - Date.parse(first.interviewedAt)).toBe(45 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await (await move(id, { status: "interviewing" })).json<any>();
    expect(Date.parse(again.interviewedAt)).toBeGreaterThan(Date.parse(first.interviewedAt));
    const listed = (await (await request(`/jobs/${job.id}/applications?status=interviewing`, { apiKey: employer.apiKey })).json<any>()).data.find((x: { id: number }) => x.id === id);
    expect(listed.decisionDueAt).toBe(again.decisionDueAt);
    const offered = await (await move(id, { status: "offered" })).json<any>();
    expect(offered.decisionDueAt).toBe(again.decisionDueAt);
    const rejected = await (await move(id, { status: "rejected" })).json<any>();
    expect(rejected).toMatchObject({ decisionDueAt: null, interviewedAt: again.interviewedAt });
  });
});

describe("events (DESIGN 20)", () => {
  const eventsOf = async (id: number, type: string) =>
    (await env.DB.prepare("SELECT data FROM events WHERE subject_id = ? AND type = ? ORDER BY rowid").bind(id, type).all<{ data: string }>()).results.map((row) => JSON.parse(row.data));

  it("application.status_changed for every move, with previousStatus and who moved it (DESIGN 25: actor, an API key here)", async () => {
    const id = await applied();
    await move(id, { status: "reviewing" });
    await move(id, { status: "reviewing" });
    const events = await eventsOf(id, "application.status_changed");
    expect(events.map((e) => [e.previousStatus, e.application.status, e.actor])).toEqual([["received", "reviewing", { type: "key" }], ["reviewing", "reviewing", { type: "key" }]]);
    expect(events[0].application).toMatchObject({ id, jobId: job.id, answers: { permit: true } });
    expect((await eventsOf(id, "application.received"))[0].application).toMatchObject({ id, status: "received", screenedOut: false });
  });

  it("application.decision_due once, from the cron, 7 days before decisionDueAt, for an application still open", async () => {
    const open = await applied();
    const closed = await applied();
    const interviewed = Date.parse((await (await move(open, { status: "interviewing" })).json<any>()).interviewedAt);
    await move(closed, { status: "interviewing" });
    await move(closed, { status: "rejected" });
    await entry.scheduled({ cron: "0 * * * *", scheduledTime: interviewed + 38 * DAY - 60_000 });
    expect(await eventsOf(open, "application.decision_due")).toEqual([]);
    await entry.scheduled({ cron: "0 * * * *", scheduledTime: interviewed + 38 * DAY });
    await entry.scheduled({ cron: "0 * * * *", scheduledTime: interviewed + 39 * DAY });
    const notices = await eventsOf(open, "application.decision_due");
    expect(notices).toHaveLength(1);
    expect(notices[0].application).toMatchObject({ id: open, status: "interviewing", decisionDueAt: new Date(interviewed + 45 * DAY).toISOString() });
    expect(await eventsOf(closed, "application.decision_due")).toEqual([]);
    // A new interview is a new notice.
    const again = Date.parse((await (await move(open, { status: "interviewing" })).json<any>()).interviewedAt);
    await entry.scheduled({ cron: "0 * * * *", scheduledTime: again + 38 * DAY });
    expect(await eventsOf(open, "application.decision_due")).toHaveLength(2);
  });
});

describe("emails to the applicant (DESIGN 20)", () => {
  it("a confirmation when received: job title, employer, a withdraw link; text and HTML", async () => {
    const id = await applied({ name: "Ada <script>", email: "ada@example.com" });
    const [mail] = await sendApplicantEmails(id);
    expect(mail).toMatchObject({ to: "ada@example.com", subject: "Application received: Warehouse Lead" });
    expect(mail.text).toContain("Pipeline Works Ltd.");
    expect(mail.text).toMatch(/https:\/\/api\.test\/withdraw\/[A-Za-z0-9_-]{43}/);
    expect(mail.html).toContain("Ada &#60;script&#62;");
    expect(mail.html).not.toContain("<script>");
    expect((await (await read(id)).json<any>()).applicantEmails).toEqual([{ kind: "confirmation", status: "sent", attempts: 1, sentAt: expect.stringMatching(/Z$/) }]);
    const stored = await env.DB.prepare("SELECT withdraw_link FROM applicant_emails WHERE application_id = ?").bind(id).first<{ withdraw_link: string | null }>();
    expect(stored!.withdraw_link).toBeNull();
  });

  it("in French when the applicant used the French page; a confidential employer is not named", async () => {
    const secret = await postJob(employer, { title: "Cariste", status: "active", confidential: true, applicantRoutingType: { id: 1 }, applicationEmail: "hr@pipeline.example" });
    const id = await applied({ language: "fr", answers: undefined }, secret.id);
    const [mail] = await sendApplicantEmails(id);
    expect(mail.subject).toBe("Candidature reçue : Cariste");
    expect(mail.text).toContain("Employeur confidentiel");
    expect(mail.text).not.toContain("Pipeline Works");
    expect(mail.html).toContain('lang="fr"');
  });

  it("rejected or hired with notifyApplicant: true emails the outcome; without it, nothing", async () => {
    const hired = await applied();
    await sendApplicantEmails(hired);
    await move(hired, { status: "hired", notifyApplicant: true });
    const [mail] = await sendApplicantEmails(hired);
    expect(mail.subject).toBe("Good news about your application for Warehouse Lead");
    const rejected = await applied();
    await sendApplicantEmails(rejected);
    await move(rejected, { status: "rejected" });
    expect(await sendApplicantEmails(rejected)).toEqual([]);
    expect((await (await read(rejected)).json<any>()).applicantEmails.map((e: { kind: string }) => e.kind)).toEqual(["confirmation"]);
  });
});

describe("withdraw (DESIGN 20)", () => {
  async function linkOf(id: number) {
    const [mail] = await sendApplicantEmails(id);
    return new URL(/https:\/\/api\.test\/withdraw\/[A-Za-z0-9_-]+/.exec(mail.text)![0]).pathname;
  }

  it("GET shows a confirm page; POST withdraws, deletes the résumé at once; the link works once", async () => {
    const form = new FormData();
    form.set("name", "Annie Easley");
    form.set("email", "ae@example.com");
    form.set("answers", JSON.stringify({ permit: true }));
    form.set("resume", new File([new TextEncoder().encode("%PDF-1.7\n%%EOF\n")], "cv.pdf"));
    const { id } = await (await apply(job.id, { form })).json<any>();
    const key = (await env.DB.prepare("SELECT resume_key FROM applications WHERE id = ?").bind(id).first<{ resume_key: string }>())!.resume_key;
    expect(await env.RESUMES.head(key)).not.toBeNull();
    const path = await linkOf(id);
    const page = await withdrawPage(path);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
    const html = await page.text();
    expect(html).toContain('<form method="post">');
    expect(html).toContain("Annie Easley");
    const done = await withdrawPage(path, "POST");
    expect(done.status).toBe(200);
    expect(await read(id).then((res) => res.json<any>())).toMatchObject({ status: "withdrawn", resume: null });
    expect(await env.RESUMES.head(key)).toBeNull();
    expect((await history(id)).at(-1)).toMatchObject({ status: "withdrawn" });
    expect((await withdrawPage(path)).status).toBe(404);
    expect((await withdrawPage(path, "POST")).status).toBe(404);
  });

  it("an unknown, malformed or expired token is a 404 page; so is one of a closed application", async () => {
    expect((await withdrawPage(`/withdraw/${"A".repeat(43)}`)).status).toBe(404);
    expect((await withdrawPage("/withdraw/short")).status).toBe(404);
    const expired = await applied();
    const path = await linkOf(expired);
    await env.DB.prepare("UPDATE applications SET withdraw_expires_at = ? WHERE id = ?").bind(Date.now() - 1, expired).run();
    expect((await withdrawPage(path)).status).toBe(404);
    const rejected = await applied();
    const rejectedPath = await linkOf(rejected);
    await move(rejected, { status: "rejected" });
    const res = await withdrawPage(rejectedPath, "POST");
    expect(res.status).toBe(404);
    expect((await (await read(rejected)).json<any>()).status).toBe("rejected");
  });

  it("the page is in French for an application made in French", async () => {
    const id = await applied({ language: "fr" });
    const html = await (await withdrawPage(await linkOf(id))).text();
    expect(html).toContain('lang="fr"');
    expect(html).toContain("Retirer ma candidature");
  });
});

describe("round trips (DESIGN 20: speed and cost)", () => {
  const counter = countingD1(env.DB);
  async function counted(path: string, init: { method: string; json: unknown; apiKey?: string; ip?: string }) {
    const headers = new Headers({ "Content-Type": "application/json", "CF-Connecting-IP": init.ip ?? "10.250.0.1" });
    if (init.apiKey) headers.set("API-Key", init.apiKey);
    counter.reset();
    const after: Promise<unknown>[] = [];
    const res = await worker.fetch(new Request(`${API}${path}`, { method: init.method, headers, body: JSON.stringify(init.json) }), { ...env, DB: counter.db }, {
      waitUntil: (work: Promise<unknown>) => void after.push(work),
      passThroughOnException: () => {},
    } as unknown as ExecutionContext);
    const trips = counter.count();
    await Promise.all(after);
    return { res, trips };
  }

  it("an application with 20 answers costs the same round trips as one without; a move is one read and one batch", async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => ({ key: `q${i}`, text: `Question ${i}?`, type: "yesNo" }));
    const target = await postJob(employer, { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@pipeline.example", questions: twenty });
    const body = (answers?: Record<string, boolean>) => ({ name: "Counted", email: "counted@example.com", ...(answers ? { answers } : {}) });
    // Warm: the isolate's reference data.
    await counted(`/board/jobs/${target.id}/applications`, { method: "POST", json: body(), ip: "10.250.0.2" });
    const none = await counted(`/board/jobs/${target.id}/applications`, { method: "POST", json: body(), ip: "10.250.0.3" });
    const all = await counted(`/board/jobs/${target.id}/applications`, { method: "POST", json: body(Object.fromEntries(twenty.map((q) => [q.key, true]))), ip: "10.250.0.4" });
    expect([none.res.status, all.res.status]).toEqual([201, 201]);
    expect(all.trips).toBe(none.trips);
    const id = (await all.res.json<any>()).id;
    const moved = await counted(`/applications/${id}`, { method: "PUT", json: { status: "interviewing", notifyApplicant: false }, apiKey: employer.apiKey });
    expect(moved.res.status).toBe(200);
    expect(moved.trips).toBe(2);
  });
});

describe("withdraw pages are limited like the apply path", () => {
  it("the apply limiter counts them per address: past its limit, a 429 with Retry-After", async () => {
    // The suites run with every limit raised; this uses a low limiter in the apply limiter's place.
    const limited = { ...env, APPLY_RATE_LIMITER: env.TEST_LOW_JOB_RATE_LIMITER };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await worker.fetch(new Request(`${BASE}/withdraw/${"B".repeat(43)}`, { headers: { "CF-Connecting-IP": "192.0.2.78" } }), limited, {
        waitUntil: () => {},
      } as unknown as ExecutionContext);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
  });
});
