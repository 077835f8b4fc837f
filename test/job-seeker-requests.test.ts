import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eraseJobSeeker, exportJobSeeker } from "../src/applications/job-seekers";
import { createAlertsDatabase } from "../src/alerts/database/client";
import { alertById } from "../src/alerts/repository";
import { linksOf } from "../src/alerts/service";
import { createEmployer, request, shardDb } from "./support/api";
import { activeAlert, alertBody, deliverPending, linkIn, page, postAlert } from "./support/alerts";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";

// DESIGN 26, 26a: a job seeker's requests, answered by the operator by email address: the export
// (every application of the address in every shard, with its job's title and employer, and the
// alerts' consent records of DESIGN 23a) and the erasure (the applications keep id, job, status
// and dates, lose the personal data and résumé; the emails still pending are not sent; the alerts
// end and their tokens answer "unsubscribed").

const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;
let address = 0;

function apply(jobId: number, init: { json?: unknown; form?: FormData }) {
  return request(`/board/jobs/${jobId}/applications`, { method: "POST", json: init.json, body: init.form, headers: { "CF-Connecting-IP": `10.26.1.${++address}` } });
}

/** Applications and alerts of `ADDRESS` (written in another case here and there), and one application of another address. */
async function seeker(ADDRESS: string) {
  const routing = { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@hiring.example" };
  const [zero, one] = [await createEmployer({ shard: 0, name: "Shard Zero Hiring" }), await createEmployer({ shard: 1, name: "Shard One Hiring" })];
  const first = await postJob(zero, { title: "Records Clerk", ...routing });
  const second = await postJob(one, { title: "Data Steward", confidential: true, ...routing });
  await settleBoard();

  const form = new FormData();
  form.set("name", "Ada Lovelace");
  form.set("email", ADDRESS);
  form.set("phone", "+1 604 555 0100");
  form.set("resume", new File([PDF], "ada.pdf", { type: "application/pdf" }));
  const withResume = await apply(first.id, { form });
  expect(withResume.status).toBe(201);
  const plain = await apply(second.id, { json: { name: "Ada L.", email: ADDRESS.toLowerCase(), coverLetter: "I keep data tidy." } });
  expect(plain.status).toBe(201);
  const someoneElse = await apply(first.id, { json: { name: "Grace Hopper", email: "grace@example.com" } });
  const applications = { withResume: await withResume.json<any>(), plain: await plain.json<any>(), someoneElse: await someoneElse.json<any>() };

  const active = await activeAlert({ email: ADDRESS, search: { q: "steward" } });
  const pendingBody = alertBody({ email: ADDRESS, search: { q: "clerk" } });
  expect((await postAlert(pendingBody)).status).toBe(202);
  const pendingMail = (await deliverPending()).find((mail) => mail.to === ADDRESS)!;
  return { zero, one, first, second, applications, active, pendingMail };
}

describe("a job seeker's requests (DESIGN 26, 26a)", () => {
  it("the export holds `{ email, exportedAt, applications: [...], alerts: [consent records] }`: every application of the address in every shard (any case), with its job's title and employer, and nothing of another address", async () => {
    const ADDRESS = "Seeker.Export@Example.com";
    const { first, second, applications, active } = await seeker(ADDRESS);
    const exported = await exportJobSeeker(env, ADDRESS.toLowerCase(), Date.parse("2026-11-27T10:00:00Z"));
    expect(Object.keys(exported)).toEqual(["email", "exportedAt", "applications", "alerts"]);
    expect(exported.email).toBe(ADDRESS.toLowerCase());
    expect(exported.exportedAt).toBe("2026-11-27T10:00:00.000Z");
    expect(exported.applications).toEqual([
      {
        id: applications.withResume.id,
        jobId: first.id,
        jobTitle: "Records Clerk",
        employer: "Shard Zero Hiring",
        name: "Ada Lovelace",
        email: ADDRESS,
        phone: "+1 604 555 0100",
        coverLetter: null,
        receivedAt: applications.withResume.receivedAt,
        status: "received",
        resume: { filename: "ada.pdf", contentType: "application/pdf", size: PDF.length },
      },
      {
        id: applications.plain.id,
        jobId: second.id,
        jobTitle: "Data Steward",
        employer: "Shard One Hiring",
        name: "Ada L.",
        email: ADDRESS.toLowerCase(),
        phone: null,
        coverLetter: "I keep data tidy.",
        receivedAt: applications.plain.receivedAt,
        status: "received",
        resume: null,
      },
    ]);
    expect(exported.alerts).toEqual([
      {
        alertId: active.id,
        status: "active",
        language: "en",
        consentTextVersion: expect.any(String),
        consentTextSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        source: "api",
        createdAt: expect.stringMatching(ISO),
        clientAddress: null,
        userAgent: null,
        confirmedAt: expect.stringMatching(ISO),
        history: [{ at: expect.stringMatching(ISO), change: "confirmed" }],
      },
      expect.objectContaining({ status: "pending", confirmedAt: null, history: [] }),
    ]);
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
  });

  it("the erasure, across both shards: the applications keep id, job, status and dates, their personal data answers null, the résumé's address 404 and its object is gone from the bucket, no pending email is sent; the alerts end and their tokens answer as unsubscribed", async () => {
    const ADDRESS = "Seeker.Erase@Example.com";
    const { zero, one, first, applications, active, pendingMail } = await seeker(ADDRESS);
    const resumeKey = (await shardDb(0).prepare("SELECT resume_key AS key FROM applications WHERE id = ?").bind(applications.withResume.id).first<{ key: string }>())!.key;
    expect(await env.RESUMES.head(resumeKey)).not.toBeNull();
    // The emails about these applications, as if still waiting for their sending.
    for (const [shard, id] of [[0, applications.withResume.id], [1, applications.plain.id]]) {
      await shardDb(shard).prepare("UPDATE applications SET email_status = 'pending' WHERE id = ?").bind(id).run();
      await shardDb(shard).prepare("UPDATE applicant_emails SET status = 'pending' WHERE application_id = ?").bind(id).run();
    }

    expect(await eraseJobSeeker(env, ` ${ADDRESS.toUpperCase()} `)).toEqual({ applications: 2, remaining: 0, resumes: 1, alerts: 2 });

    for (const [employer, application, jobId] of [[zero, applications.withResume, first.id], [one, applications.plain, undefined]] as const) {
      const res = await request(`/applications/${application.id}`, { apiKey: employer.apiKey });
      expect(res.status).toBe(200);
      const erased = await res.json<any>();
      expect(erased).toMatchObject({ id: application.id, receivedAt: application.receivedAt, status: "received", name: null, email: null, phone: null, coverLetter: null, resume: null, answers: {} });
      if (jobId) expect(erased.jobId).toBe(jobId);
      expect(erased.emailCopy.status).toBe("skipped");
      expect(erased.applicantEmails.map((email: any) => email.status)).toEqual(["skipped"]);
      expect(res.headers.get("ETag")).not.toBe(`"${application.id}.1"`);
    }
    expect((await request(`/applications/${applications.withResume.id}/resume`, { apiKey: zero.apiKey })).status).toBe(404);
    expect(await env.RESUMES.head(resumeKey)).toBeNull();
    const other = await (await request(`/applications/${applications.someoneElse.id}`, { apiKey: zero.apiKey })).json<any>();
    expect(other).toMatchObject({ name: "Grace Hopper", email: "grace@example.com" });
    // The employer's counts are kept.
    expect((await (await request(`/jobs/${first.id}/applications`, { apiKey: zero.apiKey })).json<any>()).paging.total).toBe(2);

    // Every token of the address's alerts answers "unsubscribed"; nothing more is built for them.
    const row = (await alertById(createAlertsDatabase(env.ALERTS_DB), active.id))!;
    expect(row.status).toBe("ended");
    const links = await linksOf(env, row);
    for (const link of [links.unsubscribe, linkIn(active.confirmation, "confirm"), linkIn(pendingMail, "confirm")]) {
      const res = await page(link);
      expect(res.status, link).toBe(200);
      expect(await res.text()).toContain("You are unsubscribed");
    }
    const records = (await exportJobSeeker(env, ADDRESS)).alerts;
    expect(records.map((record) => [record.status, record.history.at(-1)?.change])).toEqual([
      ["ended", "erased"],
      ["ended", "erased"],
    ]);

    // Nothing of the address is left to export, and a second erasure changes nothing.
    expect((await exportJobSeeker(env, ADDRESS)).applications).toEqual([]);
    expect(await eraseJobSeeker(env, ADDRESS)).toEqual({ applications: 0, remaining: 0, resumes: 0, alerts: 0 });
  });

  it("an application of an employer being moved is held back (remaining), and erased by the same request once the move is done", async () => {
    const employer = await createEmployer({ shard: 1 });
    const job = await postJob(employer, { title: "Moving Clerk", status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@moving.example" });
    await settleBoard();
    const email = "held.back@example.com";
    const applied = await (await apply(job.id, { json: { name: "Held Back", email } })).json<any>();
    await shardDb(1).prepare("UPDATE employers SET frozen_at = ? WHERE id = ?").bind(Date.now(), employer.employerId).run();
    expect(await eraseJobSeeker(env, email)).toEqual({ applications: 0, remaining: 1, resumes: 0, alerts: 0 });
    await shardDb(1).prepare("UPDATE employers SET frozen_at = NULL WHERE id = ?").bind(employer.employerId).run();
    expect(await eraseJobSeeker(env, email)).toEqual({ applications: 1, remaining: 0, resumes: 0, alerts: 0 });
    expect((await (await request(`/applications/${applied.id}`, { apiKey: employer.apiKey })).json<any>()).name).toBeNull();
  });
});
