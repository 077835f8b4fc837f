import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { accountsCapability } from "../src/accounts/capability";
import { AUDIT_KEPT_MS, runAuditRetention } from "../src/accounts/audit";
import { SHARD_ID_SPAN } from "../src/shards/identity";
import { formatDateTime } from "../src/ui/i18n";
import { createEmployer, createTestKey, shardDb } from "./support/api";
import { call as consoleCall, invite, signedIn } from "./support/console";
import { postJob } from "./support/jobs";
import { expectValidHtml, sentMail, signedInOperator } from "./support/operator";

// DESIGN 26, 26a: the operator's console over HTTP — the reported jobs, employers (search across
// shards, an employer's page, create with its first admin's invitation, plan), and the audit of
// every act (kept 7 years).

const unique = () => crypto.randomUUID().slice(0, 8);

async function report(shard: number, jobId: number, reason: string, count: number, at: number, email: string | null = null) {
  for (let i = 0; i < count; i++) {
    await shardDb(shard).prepare("INSERT INTO job_reports (job_id, reason, details, email, created_at) VALUES (?, ?, ?, ?, ?)").bind(jobId, reason, `Report ${i} of ${jobId}`, email, at + i).run();
  }
}

const auditOf = (operator: string) =>
  env.ACCOUNTS_DB.prepare("SELECT operator, action, target, reason, note, outcome FROM audit WHERE operator = ? ORDER BY id").bind(operator).all().then((result) => result.results);

describe("the reported jobs (DESIGN 26)", () => {
  it("GET /operator: jobs with open reports from every shard, most reported first (then the latest report first), each with its employer and its count; read only", async () => {
    const name = `Queue ${unique()}`;
    const [east, west] = [await createEmployer({ name: `${name} East` }), await createEmployer({ name: `${name} West`, shard: 1 })];
    const [most, fewer, tied, tiedLater] = [await postJob(west, { title: `Most ${name}` }), await postJob(east, { title: `Fewer ${name}` }), await postJob(east, { title: `Tied ${name}` }), await postJob(west, { title: `Tied later ${name}` })];
    const now = Date.now();
    await report(1, most.id, "fraud", 90, now);
    await report(1, most.id, "notAJob", 9, now);
    await report(0, fewer.id, "misleading", 80, now);
    await report(0, tied.id, "other", 70, now);
    await report(1, tiedLater.id, "discrimination", 70, now + 1000);

    const operator = await signedInOperator();
    const res = await operator.call("/operator");
    expect(res.status).toBe(200);
    const html = await expectValidHtml(res);
    expect(html).toContain("<caption>Jobs with open reports, most reported first</caption>");
    const order = [most, fewer, tiedLater, tied].map((job) => html.indexOf(`#${job.id} `));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain(`<a href="/operator/employers/${west.employerId}">${name} West</a>`);
    expect(html).toContain(`<a href="/operator/jobs/${most.id}">#${most.id} Most ${name}</a>`);
    expect(html).toMatch(new RegExp(`#${most.id} Most [^<]*</a></td><td><a [^>]*>[^<]*</a></td><td>[a-z]+</td><td>99</td>`));
    expect(html).not.toContain("<form method=\"post\" action=\"/operator/jobs");

    const french = await operator.call("/operator", { headers: { Cookie: "jpa_operator_lang=fr" } });
    const frenchHtml = await expectValidHtml(french, "fr");
    expect(frenchHtml).toContain("<caption>Offres ayant des signalements ouverts, les plus signalées d&#39;abord</caption>");
  });
});

describe("employers (DESIGN 26, 26a)", () => {
  it("GET /operator/employers?q= finds live employers by the start of their name (any case) or by id, in every shard; test spaces and unknown names are not found", async () => {
    const name = `Zephyr ${unique()}`;
    const east = await createEmployer({ name: `${name} Bakery` });
    const west = await createEmployer({ name: `${name.toLowerCase()} garage`, shard: 1, plan: "unlimited" });
    await createTestKey(east);
    const operator = await signedInOperator();

    const res = await operator.call(`/operator/employers?q=${encodeURIComponent(name.toUpperCase())}`);
    expect(res.status).toBe(200);
    const html = await expectValidHtml(res);
    expect(html).toContain(`<td>${east.employerId}</td><td><a href="/operator/employers/${east.employerId}">${name} Bakery</a></td><td>Standard</td><td>0</td>`);
    expect(html).toContain(`<td>${west.employerId}</td><td><a href="/operator/employers/${west.employerId}">${name.toLowerCase()} garage</a></td><td>Unlimited</td><td>1</td>`);
    // The test space is an employer row of the same name: never a result.
    expect(html.match(/<a href="\/operator\/employers\/\d+">/g)).toHaveLength(2);

    const byId = await (await operator.call(`/operator/employers?q=${west.employerId}`)).text();
    expect(byId).toContain(`<a href="/operator/employers/${west.employerId}">`);
    expect(await (await operator.call(`/operator/employers?q=Nothing+starts+like+this+${unique()}`)).text()).toContain("No employer matches.");
    expect(await (await operator.call(`/operator/employers?q=${encodeURIComponent(`${name.slice(2)}`)}`)).text()).toContain("No employer matches.");
  });

  it("the search by name reads employers_name_search_idx (bounded, indexed)", async () => {
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT id, name, plan, created_at AS createdAt FROM employers WHERE name COLLATE NOCASE >= ?1 AND name COLLATE NOCASE < ?2 AND test_of IS NULL AND moved_to IS NULL ORDER BY name COLLATE NOCASE LIMIT 50",
    ).bind("acme", "acme\u{10FFFF}").all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join("\n")).toMatch(/SEARCH employers USING INDEX employers_name_search_idx/);
  });

  it("GET /operator/employers/{id}: plan, shard, jobs by status, people and invitations, its API keys by prefix only, its jobs' reports with the reporter's email; 404 for a test space, a number of none and anything else", async () => {
    const employer = await createEmployer({ name: `Page ${unique()}`, shard: 1 });
    const job = await postJob(employer, { title: "Reported role", status: "active" });
    await postJob(employer, { title: "Draft role" });
    await report(1, job.id, "fraud", 1, Date.UTC(2026, 10, 28, 14, 5), "reporter@seeker.example");
    await invite(employer.employerId, "boss@page.example");
    await consoleCall(`/employer/invitations/${await invite(employer.employerId, "member@page.example", { role: "recruiter" })}`, { form: {} });
    const admin = await signedIn(employer.employerId, `admin-${unique()}@page.example`);
    const madeKey = (await (await consoleCall("/employer/keys", { cookie: admin, form: {} })).text()).match(/jpa_[A-Za-z0-9_-]{20,}/)?.[0];
    expect(madeKey).toBeDefined();
    const operator = await signedInOperator();

    const res = await operator.call(`/operator/employers/${employer.employerId}`);
    expect(res.status).toBe(200);
    const html = await expectValidHtml(res);
    expect(html).toContain(`<h1>${employer.name} (#${employer.employerId})</h1>`);
    expect(html).toContain("<dt>Plan</dt><dd>Standard</dd><dt>Shard</dt><dd>1</dd>");
    expect(html).toContain("<dt>Jobs</dt><dd>1 active, 1 drafts, 0 archived</dd>");
    expect(html).toContain("<td>member@page.example</td><td>recruiter</td><td>member</td>");
    expect(html).toContain("<td>member@page.example</td><td>recruiter</td><td>invitation accepted</td>");
    expect(html).toContain("<td>boss@page.example</td><td>administrator</td><td>invited</td>");
    expect(html).toContain(`<td><code>${madeKey!.slice(0, 12)}</code></td><td>live</td>`);
    expect(html).not.toContain(madeKey!.slice(12));
    expect(html).toContain(`<td>#${job.id} Reported role</td><td>Fraud</td><td>Report 0 of ${job.id}</td><td>reporter@seeker.example</td><td>${formatDateTime("en", "2026-11-28T14:05:00Z")}</td>`);

    const space = await createTestKey(employer);
    for (const id of [String(space.employerId), "999999999", "abc", "0"]) {
      const missing = await operator.call(`/operator/employers/${id}`);
      expect(missing.status, id).toBe(404);
      expect(await missing.text()).toContain("<h1>Not found</h1>");
    }
  });

  it("POST /operator/employers (name, plan, adminEmail): the employer in the shard with the fewest employers, its first admin invited by email (the link works), both acts recorded; 303 back to the employers' page saying so", async () => {
    const operator = await signedInOperator();
    const name = `Created ${unique()}`;
    const live = "SELECT count(*) AS n FROM employers WHERE test_of IS NULL AND moved_to IS NULL";
    const [inZero, inOne] = [(await shardDb(0).prepare(live).first<{ n: number }>())!.n, (await shardDb(1).prepare(live).first<{ n: number }>())!.n];
    const res = await operator.call("/operator/employers", { form: { name: `  ${name} `, plan: "unlimited", adminEmail: "First.Admin@Created.example", language: "fr" } });
    expect(res.status).toBe(303);
    const location = res.headers.get("Location")!;
    const id = Number(new URL(location, "https://x").searchParams.get("created"));
    expect(location).toBe(`/operator/employers?q=${id}&created=${id}`);

    const shard = Math.floor((id - 1) / SHARD_ID_SPAN);
    expect(shard).toBe(inOne < inZero ? 1 : 0);
    expect(await shardDb(shard).prepare("SELECT name, plan, test_of AS testOf FROM employers WHERE id = ?").bind(id).first()).toEqual({ name, plan: "unlimited", testOf: null });
    const invitation = await env.ACCOUNTS_DB.prepare("SELECT email, role, invited_by AS invitedBy FROM invitations WHERE employer_id = ?").bind(id).first();
    expect(invitation).toEqual({ email: "first.admin@created.example", role: "admin", invitedBy: "operator" });
    const mail = sentMail.findLast((m) => m.to === "first.admin@created.example")!;
    expect(mail.subject).toBe(`Invitation à la console employeur de ${name}`);
    const link = mail.text.match(/https:\/\/api\.test\/employer\/invitations\/[A-Za-z0-9_-]{43}\?lang=fr/)![0];
    const opened = await consoleCall(link);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(name);

    expect(await auditOf(operator.email)).toEqual([
      { operator: operator.email, action: "employer.create", target: `employer:${id}`, reason: null, note: `${name} (unlimited)`, outcome: "done" },
      { operator: operator.email, action: "employer.invite", target: `employer:${id}`, reason: null, note: "first.admin@created.example (admin)", outcome: "done" },
    ]);
    const page = await expectValidHtml(await operator.call(location));
    expect(page).toContain(`<p role="status" class="notice">Employer ${id} created; its first administrator&#39;s invitation was emailed.</p>`);
    expect(page).toContain(`<a href="/operator/employers/${id}">${name}</a>`);

    const english = await operator.call("/operator/employers", { form: { name: `${name} Two`, plan: "standard", adminEmail: "two@created.example" } });
    expect(english.status).toBe(303);
    expect(sentMail.findLast((m) => m.to === "two@created.example")!.subject).toBe(`You are invited to ${name} Two's employer console`);
  });

  it("bad input: 422, the form again with what was typed and each message beside its field; nothing created, nothing recorded", async () => {
    const operator = await signedInOperator();
    const typed = { name: " ", plan: "gold", adminEmail: "not-an-address", language: "de" };
    const res = await operator.call("/operator/employers", { form: typed });
    expect(res.status).toBe(422);
    const html = await expectValidHtml(res);
    expect(html).toContain('<input id="name" name="name" value=" " required="" maxlength="128" aria-invalid="true" aria-describedby="name-error"/><strong id="name-error" class="error">Enter a name of 1 to 128 characters.</strong>');
    expect(html).toContain('<strong id="plan-error" class="error">Choose a plan.</strong>');
    expect(html).toContain('value="not-an-address"');
    expect(html).toContain('<strong id="adminEmail-error" class="error">Enter a valid email address.</strong>');
    expect(html).toContain('<strong id="language-error" class="error">Choose English or French.</strong>');
    const long = await operator.call("/operator/employers", { form: { name: "x".repeat(129), plan: "standard", adminEmail: "a@b.example" } });
    expect(long.status).toBe(422);
    expect(await auditOf(operator.email)).toEqual([]);
  });

  it("POST /operator/employers/{id}/plan: the plan changed in the employer's shard, recorded, 303 back to its page; the same plan changes and records nothing; a bad plan 422; no such employer 404 and no record", async () => {
    const employer = await createEmployer({ name: `Plan ${unique()}`, shard: 1 });
    const operator = await signedInOperator();
    const res = await operator.call(`/operator/employers/${employer.employerId}/plan`, { form: { plan: "unlimited" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/operator/employers/${employer.employerId}?saved`);
    expect(await shardDb(1).prepare("SELECT plan FROM employers WHERE id = ?").bind(employer.employerId).first()).toEqual({ plan: "unlimited" });
    expect(await (await operator.call(res.headers.get("Location")!)).text()).toContain('<p role="status" class="notice">Saved.</p>');

    expect((await operator.call(`/operator/employers/${employer.employerId}/plan`, { form: { plan: "unlimited" } })).status).toBe(303);
    const bad = await operator.call(`/operator/employers/${employer.employerId}/plan`, { form: { plan: "platinum" } });
    expect(bad.status).toBe(422);
    expect(await expectValidHtml(bad)).toContain('<strong id="plan-error" class="error">Choose a plan.</strong>');
    expect((await operator.call("/operator/employers/999999999/plan", { form: { plan: "standard" } })).status).toBe(404);
    expect(await auditOf(operator.email)).toEqual([
      { operator: operator.email, action: "employer.plan", target: `employer:${employer.employerId}`, reason: null, note: "standard → unlimited", outcome: "done" },
    ]);
  });
});

describe("the audit (DESIGN 26, 26a)", () => {
  it("a console write without its record does not happen: an act in a shard is recorded before it is done, and a refused one stays recorded as failed, the page saying nothing changed", async () => {
    const employer = await createEmployer({ name: `Refused ${unique()}` });
    const operator = await signedInOperator();
    await env.DB.prepare(`CREATE TRIGGER refuse_plan_${employer.employerId} BEFORE UPDATE OF plan ON employers WHEN NEW.id = ${employer.employerId} BEGIN SELECT RAISE(ABORT, 'plan refused'); END`).run();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await operator.call(`/operator/employers/${employer.employerId}/plan`, { form: { plan: "unlimited" } });
      expect(res.status).toBe(500);
      expect(await res.text()).toContain("If the act was recorded, the audit shows whether it was done.");
    } finally {
      await env.DB.prepare(`DROP TRIGGER refuse_plan_${employer.employerId}`).run();
      vi.restoreAllMocks();
    }
    expect(await env.DB.prepare("SELECT plan FROM employers WHERE id = ?").bind(employer.employerId).first()).toEqual({ plan: "standard" });
    expect(await auditOf(operator.email)).toEqual([{ operator: operator.email, action: "employer.plan", target: `employer:${employer.employerId}`, reason: null, note: "standard → unlimited", outcome: "failed" }]);
  });

  it("GET /operator/audit: every act, newest first, who, what, on what, why, the note, when, and its outcome; a page at a time", async () => {
    const operator = await signedInOperator();
    const employer = await createEmployer({ name: `Audited ${unique()}` });
    await operator.call(`/operator/employers/${employer.employerId}/plan`, { form: { plan: "unlimited" } });
    await operator.call(`/operator/employers/${employer.employerId}/plan`, { form: { plan: "standard" } });
    const res = await operator.call("/operator/audit");
    const html = await expectValidHtml(res);
    expect(html).toContain("<caption>Acts of the operator&#39;s console, newest first</caption>");
    const newest = `<td>${operator.email}</td><td>employer.plan</td><td>employer:${employer.employerId}</td><td></td><td>unlimited → standard</td><td>done</td>`;
    const older = `<td>${operator.email}</td><td>employer.plan</td><td>employer:${employer.employerId}</td><td></td><td>standard → unlimited</td><td>done</td>`;
    expect(html.indexOf(newest)).toBeGreaterThan(0);
    expect(html.indexOf(older)).toBeGreaterThan(html.indexOf(newest));
    await expectValidHtml(await operator.call("/operator/audit", { headers: { Cookie: "jpa_operator_lang=fr" } }), "fr");

    const acts = (await env.ACCOUNTS_DB.prepare("SELECT count(*) AS n FROM audit").first<{ n: number }>())!.n;
    for (let i = acts; i < 51; i++) {
      await env.ACCOUNTS_DB.prepare("INSERT INTO audit (at, operator, action, target, outcome) VALUES (?, 'filler@board.example', 'employer.plan', 'employer:1', 'done')").bind(Date.now()).run();
    }
    const first = await (await operator.call("/operator/audit")).text();
    const next = first.match(/<a href="(\/operator\/audit\?before=\d+)" rel="next">Older acts<\/a>/)![1]!;
    const second = await (await operator.call(next)).text();
    expect(second).toContain("<caption>");
    expect(first.match(/<tr>/g)!.length).toBe(51);
  });

  it("kept 7 years: the cron's accounts stage deletes older records, a bounded number a run", async () => {
    expect(accountsCapability.cron.once.run).toBe(runAuditRetention);
    const now = Date.now();
    const [kept, old] = [now - AUDIT_KEPT_MS + 86_400_000, now - AUDIT_KEPT_MS - 86_400_000];
    const insert = (at: number, target: string) => env.ACCOUNTS_DB.prepare("INSERT INTO audit (at, operator, action, target, outcome) VALUES (?, 'retention@board.example', 'employer.plan', ?, 'done')").bind(at, target).run();
    await insert(old, "employer:old");
    await insert(kept, "employer:kept");
    const run = await runAuditRetention(env, now);
    expect(run.stages.auditRetention).toMatchObject({ outcome: "ok" });
    const left = await env.ACCOUNTS_DB.prepare("SELECT target FROM audit WHERE operator = 'retention@board.example'").all();
    expect(left.results).toEqual([{ target: "employer:kept" }]);
  });
});
