import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, request } from "./support/api";
import { activeAlert } from "./support/alerts";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { expectValidHtml, operatorCall, settingsOf, signedInOperator } from "./support/operator";

// DESIGN 26, 26a: an employer's suspension and reinstatement, and a job seeker's requests (what
// the board holds of an address, its export as a JSON attachment, its erasure once confirmed), in
// the operator's console; each act recorded.

const auditOf = (operator: string) =>
  env.ACCOUNTS_DB.prepare("SELECT operator, action, target, reason, note, outcome FROM audit WHERE operator = ? ORDER BY id").bind(operator).all().then((result) => result.results);

const unique = () => crypto.randomUUID().slice(0, 8);

describe("suspend and reinstate an employer (DESIGN 26, 26a)", () => {
  it("POST /operator/employers/{id}/suspend: its writes answer 403 /problems/employer-suspended, the page says it is suspended, the act is recorded; /reinstate undoes it", async () => {
    const employer = await createEmployer({ name: `Suspect ${unique()}` });
    const operator = await signedInOperator();
    const before = await expectValidHtml(await operator.call(`/operator/employers/${employer.employerId}`));
    expect(before).toContain("<dt>Standing</dt><dd>In good standing.</dd>");
    expect(before).toContain(`action="/operator/employers/${employer.employerId}/suspend"`);

    const suspended = await operator.call(`/operator/employers/${employer.employerId}/suspend`, { form: { reason: "fraud", note: "Many deposit scams." } });
    expect(suspended.status).toBe(303);
    expect(suspended.headers.get("Location")).toBe(`/operator/employers/${employer.employerId}?done=suspend`);
    const refused = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: { title: "Anything", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }] } });
    expect(refused.status).toBe(403);
    expect((await refused.json<any>()).type).toContain("/problems/employer-suspended");

    const page = await expectValidHtml(await operator.call(`/operator/employers/${employer.employerId}?done=suspend`));
    expect(page).toContain('<p role="status" class="notice">The employer was suspended.</p>');
    expect(page).toContain("<dd>Suspended: its jobs are off the board and its writes are refused.</dd>");
    expect(page).toContain(`action="/operator/employers/${employer.employerId}/reinstate"`);

    const reinstated = await operator.call(`/operator/employers/${employer.employerId}/reinstate`, { form: { reason: "other", note: "" } });
    expect(reinstated.status).toBe(303);
    expect((await postJob(employer, { title: "Back in business" })).id).toBeGreaterThan(0);
    expect(await expectValidHtml(await operator.call(`/operator/employers/${employer.employerId}`, { headers: { Cookie: "jpa_operator_lang=fr" } }), "fr")).toContain("<dd>En règle.</dd>");
    expect(await auditOf(operator.email)).toEqual([
      { operator: operator.email, action: "employer.suspend", target: `employer:${employer.employerId}`, reason: "fraud", note: "Many deposit scams.", outcome: "done" },
      { operator: operator.email, action: "employer.reinstate", target: `employer:${employer.employerId}`, reason: "other", note: null, outcome: "done" },
    ]);
  });

  it("no reason or a note too long: 422 with the messages beside their fields, nothing done; no such employer: 404, recorded as failed; a foreign Origin: 403", async () => {
    const employer = await createEmployer({ name: `Careful ${unique()}` });
    const operator = await signedInOperator();
    const res = await operator.call(`/operator/employers/${employer.employerId}/suspend`, { form: { reason: "", note: "y".repeat(2_001) } });
    expect(res.status).toBe(422);
    const html = await expectValidHtml(res);
    expect(html).toMatch(/id="suspend-reason"[^>]*aria-invalid="true"[^>]*aria-describedby="suspend-reason-error"/);
    expect(html).toContain('<strong id="suspend-note-error" class="error">Keep the note to 2000 characters at most.</strong>');
    expect((await postJob(employer)).id).toBeGreaterThan(0);

    expect((await operator.call(`/operator/employers/${employer.employerId}/suspend`, { form: { reason: "fraud", note: "" }, origin: "https://evil.example" })).status).toBe(403);
    expect((await operatorCall(`/operator/employers/${employer.employerId}/suspend`, { form: { reason: "fraud", note: "" }, env: settingsOf(operator.team) })).status).toBe(403);
    expect((await postJob(employer)).id).toBeGreaterThan(0);
    expect(await auditOf(operator.email)).toEqual([]);

    expect((await operator.call("/operator/employers/999999999/suspend", { form: { reason: "fraud", note: "" } })).status).toBe(404);
    expect(await auditOf(operator.email)).toEqual([{ operator: operator.email, action: "employer.suspend", target: "employer:999999999", reason: "fraud", note: null, outcome: "failed" }]);
  });
});

describe("job seekers' requests (DESIGN 26, 26a)", () => {
  async function seeker() {
    const address = `seeker.${unique()}@example.com`;
    const employer = await createEmployer({ name: `Hiring ${unique()}` });
    const job = await postJob(employer, { title: "Records Clerk", status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@hiring.example" });
    await settleBoard();
    const applied = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name: "Ada Lovelace", email: address, coverLetter: "I keep records." }, headers: { "CF-Connecting-IP": "10.26.9.1" } });
    expect(applied.status).toBe(201);
    const alert = await activeAlert({ email: address, search: { q: "clerk" } });
    return { address, employer, job, application: await applied.json<any>(), alert };
  }

  it("GET /operator/people?email=: the applications and the alerts' consent records of the address; a bad address 422 beside its field", async () => {
    const { address, job, application, alert } = await seeker();
    const operator = await signedInOperator();
    const html = await expectValidHtml(await operator.call(`/operator/people?email=${encodeURIComponent(address)}`));
    expect(html).toContain(`<td>${application.id}</td><td>#${job.id} Records Clerk</td>`);
    expect(html).toContain("<td>Ada Lovelace</td>");
    expect(html).toContain(`<td>${alert.id}</td><td>active</td>`);
    expect(html).toContain('action="/operator/people/export"');
    expect(html).toContain('action="/operator/people/erase"');
    const bad = await operator.call("/operator/people?email=not-an-address");
    expect(bad.status).toBe(422);
    expect(await expectValidHtml(bad)).toContain('<strong id="email-error" class="error">Enter a valid email address.</strong>');
    // Looking is not an act.
    expect(await auditOf(operator.email)).toEqual([]);
  });

  it("POST /operator/people/export answers application/json as an attachment job-seeker-<date>.json holding { email, exportedAt, applications, alerts }, and is recorded", async () => {
    const { address, application, alert } = await seeker();
    const operator = await signedInOperator();
    const res = await operator.call("/operator/people/export", { form: { email: address, note: "Access request by email of 27 Nov." } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="job-seeker-${today}.json"`);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const body = await res.json<any>();
    expect(Object.keys(body)).toEqual(["email", "exportedAt", "applications", "alerts"]);
    expect(body.email).toBe(address);
    expect(body.applications.map((row: any) => [row.id, row.name, row.coverLetter])).toEqual([[application.id, "Ada Lovelace", "I keep records."]]);
    expect(body.alerts.map((row: any) => row.alertId)).toEqual([alert.id]);
    expect(await auditOf(operator.email)).toEqual([
      { operator: operator.email, action: "job-seeker.export", target: `email:${address}`, reason: null, note: "Access request by email of 27 Nov.", outcome: "done" },
    ]);
  });

  it("POST /operator/people/erase without confirm=yes: 422 beside the checkbox, nothing erased; with it: the personal data erased, the alerts ended, recorded, 303 back", async () => {
    const { address, employer, application } = await seeker();
    const operator = await signedInOperator();
    const unconfirmed = await operator.call("/operator/people/erase", { form: { email: address, note: "Erasure asked by phone." } });
    expect(unconfirmed.status).toBe(422);
    const html = await expectValidHtml(unconfirmed);
    expect(html).toMatch(/id="erase-confirm"[^>]*aria-invalid="true"[^>]*aria-describedby="erase-confirm-error"/);
    expect(html).toContain(">Erasure asked by phone.</textarea>");
    expect((await (await request(`/applications/${application.id}`, { apiKey: employer.apiKey })).json<any>()).name).toBe("Ada Lovelace");
    expect(await auditOf(operator.email)).toEqual([]);

    const erased = await operator.call("/operator/people/erase", { form: { email: address, note: "Erasure asked by phone.", confirm: "yes" } });
    expect(erased.status).toBe(303);
    expect(erased.headers.get("Location")).toBe(`/operator/people?email=${encodeURIComponent(address)}&erased=1&alerts=1&remaining=0`);
    const stored = await (await request(`/applications/${application.id}`, { apiKey: employer.apiKey })).json<any>();
    expect([stored.name, stored.email, stored.coverLetter]).toEqual([null, null, null]);
    const after = await expectValidHtml(await operator.call(erased.headers.get("Location")!));
    expect(after).toContain('<p role="status" class="notice">Done. Applications erased: 1. Alerts ended: 1.</p>');
    expect(after).toContain("No application from this address.");
    expect(await auditOf(operator.email)).toEqual([
      { operator: operator.email, action: "job-seeker.erase", target: `email:${address}`, reason: null, note: "Erasure asked by phone.", outcome: "done" },
    ]);
  });
});
