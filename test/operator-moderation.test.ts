import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, createEmployer, request } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { accessToken, expectValidHtml, operatorCall, sentMail, settingsOf, signedInOperator } from "./support/operator";

// DESIGN 26, 26a: the moderation queue and a job's page in the operator's console, end to end —
// a report through the board's form, the queue, the acts (remove, restore, dismiss) with a reason
// and a note, each recorded in the audit and answered 303 back to the job's page.

let unique = 0;
/** A board address no earlier request cached (the board caches its answers up to a minute). */
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;
const boardPage = (path: string) => exports.default.fetch(new Request(`${BASE}${path}`, { redirect: "manual" }));

/** A report as a job seeker files it: the board's report form. */
async function reportThroughBoard(jobId: number, slug: string, reason: string, email = "reporter@seeker.example") {
  const form = new FormData();
  form.set("reason", reason);
  form.set("details", "Asks for a deposit before the interview.");
  form.set("email", email);
  const res = await exports.default.fetch(new Request(`${BASE}/jobs/${jobId}-${slug}/report`, { method: "POST", body: form, redirect: "manual" }));
  expect(res.status).toBe(303);
}

const auditOf = (operator: string) =>
  env.ACCOUNTS_DB.prepare("SELECT operator, action, target, reason, note, outcome FROM audit WHERE operator = ? ORDER BY id").bind(operator).all().then((result) => result.results);

describe("the moderation queue and a job's acts (DESIGN 26, 26a)", () => {
  it("a report from the board is in the queue; remove takes the job off the board (410), the API shows `moderation`, the act is recorded; restore; the job's page shows its reports and its employer's removals", async () => {
    const employer = await createEmployer({ shard: 1, name: `Quokka ${crypto.randomUUID().slice(0, 6)}` });
    const job = await postJob(employer, { title: "Quokka Keeper", status: "active", description: "<p>Feed the <strong>quokkas</strong>.</p>" });
    await settleBoard();
    await reportThroughBoard(job.id, "quokka-keeper", "fraud");
    await reportThroughBoard(job.id, "quokka-keeper", "misleading", "second@seeker.example");

    const operator = await signedInOperator();
    const queue = await expectValidHtml(await operator.call("/operator"));
    expect(queue).toMatch(new RegExp(`<a href="/operator/jobs/${job.id}">#${job.id} Quokka Keeper</a></td><td><a href="/operator/employers/${employer.employerId}">[^<]+</a></td><td>active</td><td>2</td>`));

    const before = await operator.call(`/operator/jobs/${job.id}`);
    expect(before.status).toBe(200);
    const html = await expectValidHtml(before);
    expect(html).toContain("<dd>Quokka Keeper</dd>");
    expect(html).toContain("<dd>Vancouver, BC</dd>");
    // The description as the board shows it: cleaned when saved, inserted as HTML.
    expect(html).toContain("<p>Feed the <strong>quokkas</strong>.</p>");
    expect(html).toContain("<td>Fraud</td><td>Asks for a deposit before the interview.</td><td>reporter@seeker.example</td>");
    expect(html).toContain("<td>second@seeker.example</td>");
    expect(html).toContain(`action="/operator/jobs/${job.id}/remove"`);
    expect(html).toContain(`action="/operator/jobs/${job.id}/dismiss"`);
    expect(html).not.toContain(`action="/operator/jobs/${job.id}/restore"`);
    expect(html).toContain("No job of this employer was removed after reports.");

    const removed = await operator.call(`/operator/jobs/${job.id}/remove`, { form: { reason: "fraud", note: "Deposit scam, reported twice." } });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("Location")).toBe(`/operator/jobs/${job.id}?done=remove`);
    await settleBoard();

    const api = await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>();
    expect(api.moderation).toMatchObject({ status: "removed", reason: "fraud" });
    expect((await boardPage(fresh(`/jobs/${job.id}-quokka-keeper`))).status).toBe(410);
    expect(await auditOf(operator.email)).toEqual([
      { operator: operator.email, action: "job.remove", target: `job:${job.id}`, reason: "fraud", note: "Deposit scam, reported twice.", outcome: "done" },
    ]);
    expect(await expectValidHtml(await operator.call("/operator"))).not.toContain(`/operator/jobs/${job.id}"`);

    const after = await expectValidHtml(await operator.call(`/operator/jobs/${job.id}?done=remove`));
    expect(after).toContain('<p role="status" class="notice">The job was removed from the board.</p>');
    expect(after).toMatch(/<dt>Moderation<\/dt><dd>removed \(Fraud\) on /);
    expect(after).toContain("<td>job removed</td>");
    expect(after).toContain(`<a href="/operator/jobs/${job.id}">#${job.id} Quokka Keeper</a>`);
    expect(after).toContain(`action="/operator/jobs/${job.id}/restore"`);
    expect(after).not.toContain(`action="/operator/jobs/${job.id}/remove"`);
    expect(after).not.toContain(`action="/operator/jobs/${job.id}/dismiss"`);

    const restored = await operator.call(`/operator/jobs/${job.id}/restore`, { form: { reason: "other", note: "" } });
    expect(restored.status).toBe(303);
    expect(restored.headers.get("Location")).toBe(`/operator/jobs/${job.id}?done=restore`);
    expect("moderation" in (await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>())).toBe(false);
    expect((await auditOf(operator.email)).at(-1)).toEqual({ operator: operator.email, action: "job.restore", target: `job:${job.id}`, reason: "other", note: null, outcome: "done" });

    const french = await expectValidHtml(await operator.call(`/operator/jobs/${job.id}?done=restore`, { headers: { Cookie: "jpa_operator_lang=fr" } }), "fr");
    expect(french).toContain("L&#39;offre a été rétablie");
    expect(french).toContain("Retraits antérieurs chez cet employeur");
  });

  it("dismiss closes the job's open reports: the queue no longer lists it, the job stays on the board", async () => {
    const employer = await createEmployer({ name: `Dismissal ${crypto.randomUUID().slice(0, 6)}` });
    const job = await postJob(employer, { title: "Harmless Baker", status: "active" });
    await settleBoard();
    await reportThroughBoard(job.id, "harmless-baker", "other");
    const operator = await signedInOperator();
    expect(await (await operator.call("/operator")).text()).toContain(`/operator/jobs/${job.id}"`);

    const dismissed = await operator.call(`/operator/jobs/${job.id}/dismiss`, { form: { reason: "other", note: "A real bakery." } });
    expect(dismissed.status).toBe(303);
    expect(dismissed.headers.get("Location")).toBe(`/operator/jobs/${job.id}?done=dismiss`);
    expect(await (await operator.call("/operator")).text()).not.toContain(`/operator/jobs/${job.id}"`);
    expect(await auditOf(operator.email)).toEqual([{ operator: operator.email, action: "job.dismiss", target: `job:${job.id}`, reason: "other", note: "A real bakery.", outcome: "done" }]);
    const html = await (await operator.call(`/operator/jobs/${job.id}`)).text();
    expect(html).toContain("<td>dismissed</td>");
    expect(html).not.toContain(`action="/operator/jobs/${job.id}/dismiss"`);
    expect((await boardPage(fresh(`/jobs/${job.id}-harmless-baker`))).status).toBe(200);
  });

  it("a missing or unknown reason, or a note over 2 000 characters: 422, the form again with each message beside its field, nothing done or recorded", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { title: "Valid Role", status: "active" });
    await settleBoard();
    await reportThroughBoard(job.id, "valid-role", "fraud");
    const operator = await signedInOperator();

    const missing = await operator.call(`/operator/jobs/${job.id}/remove`, { form: { note: "kept note" } });
    expect(missing.status).toBe(422);
    const html = await expectValidHtml(missing);
    expect(html).toMatch(/id="remove-reason"[^>]*aria-invalid="true"[^>]*aria-describedby="remove-reason-error"/);
    expect(html).toContain('<strong id="remove-reason-error" class="error">Choose a reason from the list.</strong>');
    expect(html).toContain(">kept note</textarea>");

    const unknown = await operator.call(`/operator/jobs/${job.id}/dismiss`, { form: { reason: "spam", note: "x".repeat(2_001) }, headers: { Cookie: "jpa_operator_lang=fr" } });
    expect(unknown.status).toBe(422);
    const french = await expectValidHtml(unknown, "fr");
    expect(french).toContain('id="dismiss-reason-error"');
    expect(french).toContain('<strong id="dismiss-note-error" class="error">Limitez la note à 2000 caractères.</strong>');

    expect(await auditOf(operator.email)).toEqual([]);
    expect("moderation" in (await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>())).toBe(false);
  });

  it("a job no shard has and no report names: 404; an act on it is recorded as failed", async () => {
    const operator = await signedInOperator();
    expect((await operator.call("/operator/jobs/999999999")).status).toBe(404);
    expect((await operator.call("/operator/jobs/abc")).status).toBe(404);
    const res = await operator.call("/operator/jobs/999999999/remove", { form: { reason: "fraud", note: "" } });
    expect(res.status).toBe(404);
    expect(await auditOf(operator.email)).toEqual([{ operator: operator.email, action: "job.remove", target: "job:999999999", reason: "fraud", note: null, outcome: "failed" }]);
  });

  it("every POST needs the console's own Origin (403 otherwise) and Access's token (403 without): nothing is done", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { title: "Guarded Role", status: "active" });
    const operator = await signedInOperator();
    const foreign = await operator.call(`/operator/jobs/${job.id}/remove`, { form: { reason: "fraud", note: "" }, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const anonymous = await operatorCall(`/operator/jobs/${job.id}/remove`, { form: { reason: "fraud", note: "" }, env: settingsOf(operator.team) });
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).not.toContain("Remove");
    const otherTeam = await signedInOperator();
    const wrongToken = await operatorCall(`/operator/jobs/${job.id}/remove`, { form: { reason: "fraud", note: "" }, token: await accessToken(otherTeam.team), env: settingsOf(operator.team) });
    expect(wrongToken.status).toBe(403);
    expect("moderation" in (await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>())).toBe(false);
    expect(await auditOf(operator.email)).toEqual([]);
    expect(sentMail.filter((mail) => mail.subject.includes("Guarded Role"))).toEqual([]);
  });
});
