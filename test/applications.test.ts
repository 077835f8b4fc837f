import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consumeEmailBatch } from "../src/applications/copies";
import worker from "../src/index";
import { RETRY_DELAYS_SECONDS } from "../src/events/retry-schedule";
import { BASE, createEmployer, problemOf, request } from "./support/api";
import { postJob } from "./support/jobs";
import { fanOut } from "./support/webhook-queue";

// DESIGN 15: applications, résumés in R2, the copy emailed through the Email Service binding.

const employer = await createEmployer({ name: "Hiring Co." });
const emailJob = await postJob(employer, {
  title: "Payroll Clerk",
  status: "active",
  applicantRoutingType: { id: 1 },
  applicationEmail: "hr@hiring.example",
});
const apply = (jobId: number, init: { json?: unknown; form?: FormData; ip?: string }) =>
  request(`/board/jobs/${jobId}/applications`, {
    method: "POST",
    json: init.json,
    body: init.form,
    headers: { "CF-Connecting-IP": init.ip ?? `10.0.0.${Math.floor(Math.random() * 250)}` },
  });

const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

/** A minimal zip (stored entries) with these names: enough for the central directory to be read. */
function zipOf(names: string[]): Uint8Array {
  const encoder = new TextEncoder();
  const locals: number[] = [];
  const central: number[] = [];
  const u16 = (n: number) => [n & 255, (n >> 8) & 255];
  const u32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];
  for (const name of names) {
    const bytes = [...encoder.encode(name)];
    const offset = locals.length;
    locals.push(...u32(0x04034b50), ...u16(20), ...u16(0), ...u16(0), ...u16(0), ...u16(0), ...u32(0), ...u32(0), ...u32(0), ...u16(bytes.length), ...u16(0), ...bytes);
    central.push(...u32(0x02014b50), ...u16(20), ...u16(20), ...u16(0), ...u16(0), ...u16(0), ...u16(0), ...u32(0), ...u32(0), ...u32(0), ...u16(bytes.length), ...u16(0), ...u16(0), ...u16(0), ...u16(0), ...u32(0), ...u32(offset), ...bytes);
  }
  const eocd = [...u32(0x06054b50), ...u16(0), ...u16(0), ...u16(names.length), ...u16(names.length), ...u32(central.length), ...u32(locals.length), ...u16(0)];
  return new Uint8Array([...locals, ...central, ...eocd]);
}

function formWith(fields: Record<string, string>, resume?: { bytes: Uint8Array; name: string; type?: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (resume) form.set("resume", new File([resume.bytes], resume.name, { type: resume.type ?? "application/octet-stream" }));
  return form;
}

function batchOf(applicationIds: number[]) {
  const outcomes: { ack?: true; retryDelay?: number }[] = [];
  const messages = applicationIds.map((applicationId) => ({
    id: String(applicationId),
    body: { applicationId },
    timestamp: new Date(),
    attempts: 1,
    ack: () => void outcomes.push({ ack: true }),
    retry: (o?: { delaySeconds?: number }) => void outcomes.push({ retryDelay: o?.delaySeconds }),
  }));
  return { batch: { queue: "job-posting-emails", messages, ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<{ applicationId: number }>, outcomes };
}

const read = async (id: number, who = employer) => request(`/applications/${id}`, { apiKey: who.apiKey });

describe("applications (DESIGN 15)", () => {
  it("JSON: 201 {id, jobId, receivedAt}; the employer reads it, its emailed copy pending", async () => {
    const res = await apply(emailJob.id, { json: { name: "Ada Lovelace", email: "ada@example.com", coverLetter: "Hello." } });
    expect(res.status).toBe(201);
    const receipt = await res.json<any>();
    expect(receipt).toEqual({ id: expect.any(Number), jobId: emailJob.id, receivedAt: expect.stringMatching(/Z$/) });
    const application = await (await read(receipt.id)).json<any>();
    expect(application).toEqual({
      id: receipt.id,
      jobId: emailJob.id,
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: null,
      coverLetter: "Hello.",
      receivedAt: receipt.receivedAt,
      resume: null,
      emailCopy: { status: "pending", attempts: 0, sentAt: null },
      answers: {},
      screenedOut: false,
      status: "received",
      updatedAt: receipt.receivedAt,
      interviewedAt: null,
      decisionDueAt: null,
      applicantEmails: [{ kind: "confirmation", status: "pending", attempts: 0, sentAt: null }],
    });
  });

  it("multipart with a PDF résumé: stored in R2 under a random key, downloaded byte for byte as an attachment of its recognised type", async () => {
    const res = await apply(emailJob.id, { form: formWith({ name: "Grace Hopper", email: "grace@example.com" }, { bytes: PDF, name: "cv.doc", type: "image/png" }) });
    expect(res.status).toBe(201);
    const { id } = await res.json<any>();
    const application = await (await read(id)).json<any>();
    expect(application.resume).toEqual({ filename: "cv.pdf", contentType: "application/pdf", size: PDF.length });
    const file = await request(`/applications/${id}/resume`, { apiKey: employer.apiKey, undocumented: true });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("application/pdf");
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment; filename="cv\.pdf"/);
    expect(file.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);
    const { resume_key: key } = (await env.DB.prepare("SELECT resume_key FROM applications WHERE id = ?").bind(id).first<{ resume_key: string }>())!;
    expect(key).toMatch(/^resumes\/[0-9a-f-]{36}$/);
  });

  it("résumés are recognised by their bytes: a DOCX and plain text pass; markup, a zip that is no Word file and other bytes are a 400 on resume", async () => {
    const docx = zipOf(["[Content_Types].xml", "_rels/.rels", "word/document.xml"]);
    const accepted: [Uint8Array, string][] = [[docx, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"], [new TextEncoder().encode("Ada Lovelace\nMathematician\n"), "text/plain; charset=utf-8"]];
    for (const [bytes, type] of accepted) {
      const res = await apply(emailJob.id, { form: formWith({ name: "A", email: "a@example.com" }, { bytes, name: "resume" }) });
      expect(res.status).toBe(201);
      expect((await (await read((await res.json<any>()).id)).json<any>()).resume.contentType).toBe(type);
    }
    const refused = [
      new TextEncoder().encode("<html><script>alert(1)</script></html>"),
      new TextEncoder().encode("  <!DOCTYPE html>"),
      zipOf(["[Content_Types].xml", "xl/workbook.xml"]),
      new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03]),
      new Uint8Array([0xff, 0xfe, 0x00, 0x41]),
    ];
    for (const bytes of refused) {
      const res = await apply(emailJob.id, { form: formWith({ name: "A", email: "a@example.com" }, { bytes, name: "resume.pdf", type: "application/pdf" }) });
      expect(res.status).toBe(400);
      expect((await problemOf(res)).errors!.map((e) => e.field)).toEqual(["resume"]);
    }
  });

  it("one 400 naming each bad field; a résumé over 5 MiB is a 400, a body over 6 MiB a 413", async () => {
    const res = await apply(emailJob.id, { json: { name: "", email: "not-an-email", phone: "1".repeat(31), coverLetter: "x".repeat(10_001) } });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((e) => e.field).sort()).toEqual(["coverLetter", "email", "name", "phone"]);
    const big = new Uint8Array(5 * 1024 * 1024 + 1).fill(0x41);
    const oversize = await apply(emailJob.id, { form: formWith({ name: "A", email: "a@example.com" }, { bytes: big, name: "cv.txt" }) });
    expect(oversize.status).toBe(400);
    expect((await problemOf(oversize)).errors!.map((e) => e.field)).toEqual(["resume"]);
    const huge = await apply(emailJob.id, { form: formWith({ name: "A", email: "a@example.com" }, { bytes: new Uint8Array(6 * 1024 * 1024 + 1), name: "cv.txt" }) });
    expect(huge.status).toBe(413);
  });

  it("a job not on the board is 404; one routed to a URL is 409 naming its applicationUrl", async () => {
    const draft = await postJob(employer, { applicantRoutingType: { id: 1 }, applicationEmail: "hr@hiring.example" });
    expect((await apply(draft.id, { json: { name: "A", email: "a@example.com" } })).status).toBe(404);
    const byUrl = await postJob(employer, { status: "active", applicantRoutingType: { id: 2 }, applicationUrl: "https://hiring.example/apply" });
    const res = await apply(byUrl.id, { json: { name: "A", email: "a@example.com" } });
    expect(res.status).toBe(409);
    expect(await problemOf(res)).toMatchObject({ type: "/problems/applications-not-collected", applicationUrl: "https://hiring.example/apply" });
  });

  it("the copy is emailed through the binding: to the job's applicationEmail, a subject naming the job, the résumé attached; status sent", async () => {
    const res = await apply(emailJob.id, { form: formWith({ name: "Alan Turing", email: "alan@example.com", coverLetter: "I compute." }, { bytes: PDF, name: "alan.pdf" }) });
    const { id } = await res.json<any>();
    const sent: any[] = [];
    const { batch, outcomes } = batchOf([id]);
    await consumeEmailBatch(batch, { ...env, EMAIL: { send: async (mail: unknown) => void sent.push(mail) } as unknown as SendEmail });
    expect(outcomes).toEqual([{ ack: true }]);
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail.to).toBe("hr@hiring.example");
    expect(mail.replyTo).toBe("alan@example.com");
    expect(mail.subject).toBe(`New application: Payroll Clerk (job ${emailJob.id}) from Alan Turing`);
    expect(mail.text).toContain("I compute.");
    expect(mail.text).toContain("alan@example.com");
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ disposition: "attachment", filename: "alan.pdf", type: "application/pdf" });
    expect(new Uint8Array(mail.attachments[0].content)).toEqual(PDF);
    expect((await (await read(id)).json<any>()).emailCopy).toEqual({ status: "sent", attempts: 1, sentAt: expect.stringMatching(/Z$/) });
  });

  it("a failed send is retried on the schedule, then the copy is failed; the application stays", async () => {
    const { id } = await (await apply(emailJob.id, { json: { name: "B", email: "b@example.com" } })).json<any>();
    const failing = { ...env, EMAIL: { send: async () => { throw new Error("mail service down"); } } as unknown as SendEmail };
    const delays: (number | undefined)[] = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      const { batch, outcomes } = batchOf([id]);
      await consumeEmailBatch(batch, failing);
      delays.push(outcomes[0].retryDelay);
    }
    expect(delays).toEqual([...RETRY_DELAYS_SECONDS, undefined]);
    expect((await (await read(id)).json<any>()).emailCopy).toMatchObject({ status: "failed", attempts: 8 });
  });

  it("another employer's applications are 404: the list, one, and its résumé", async () => {
    const other = await createEmployer();
    const { id } = await (await apply(emailJob.id, { form: formWith({ name: "C", email: "c@example.com" }, { bytes: PDF, name: "c.pdf" }) })).json<any>();
    expect((await read(id, other)).status).toBe(404);
    expect((await request(`/applications/${id}/resume`, { apiKey: other.apiKey })).status).toBe(404);
    expect((await request(`/jobs/${emailJob.id}/applications`, { apiKey: other.apiKey })).status).toBe(404);
    const mine = await (await request(`/jobs/${emailJob.id}/applications?pageSize=100`, { apiKey: employer.apiKey })).json<any>();
    expect(mine.data.map((a: any) => a.id)).toContain(id);
    expect(mine.data[0].receivedAt >= mine.data.at(-1).receivedAt).toBe(true);
  });

  it("retention: deleting a job deletes its applications at once and their résumés at the next cron run; the cron deletes applications older than 180 days", async () => {
    const job = await postJob(employer, { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@hiring.example" });
    const { id } = await (await apply(job.id, { form: formWith({ name: "D", email: "d@example.com" }, { bytes: PDF, name: "d.pdf" }) })).json<any>();
    const { resume_key: key } = (await env.DB.prepare("SELECT resume_key FROM applications WHERE id = ?").bind(id).first<{ resume_key: string }>())!;
    expect(await env.RESUMES.head(key)).not.toBeNull();
    expect((await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey })).status).toBe(204);
    expect((await read(id)).status).toBe(404);
    await worker.scheduled({ cron: "0 * * * *", scheduledTime: Date.now() } as ScheduledController, env);
    expect(await env.RESUMES.head(key)).toBeNull();

    const old = await (await apply(emailJob.id, { form: formWith({ name: "E", email: "e@example.com" }, { bytes: PDF, name: "e.pdf" }) })).json<any>();
    const { resume_key: oldKey } = (await env.DB.prepare("SELECT resume_key FROM applications WHERE id = ?").bind(old.id).first<{ resume_key: string }>())!;
    await env.DB.prepare("UPDATE applications SET received_at = received_at - 181 * 86400000 WHERE id = ?").bind(old.id).run();
    await worker.scheduled({ cron: "0 * * * *", scheduledTime: Date.now() } as ScheduledController, env);
    expect((await read(old.id)).status).toBe(404);
    expect(await env.RESUMES.head(oldKey)).toBeNull();
  });

  it("application.received is emitted for an employer's subscribed endpoint", async () => {
    const { id: endpointId } = await (await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: { url: "https://receiver.example/hooks", events: ["application.received"] } })).json<any>();
    const { id } = await (await apply(emailJob.id, { json: { name: "F", email: "f@example.com" } })).json<any>();
    // Recorded with the application; the webhooks consumer fans it out to the endpoint.
    const event = await env.DB.prepare("SELECT id FROM events WHERE type = 'application.received' AND subject_id = ?").bind(id).first<{ id: string }>();
    await fanOut([{ events: [event!.id] }]);
    const row = await env.DB.prepare("SELECT data FROM webhook_messages WHERE endpoint_id = ? AND type = 'application.received'").bind(endpointId).first<{ data: string }>();
    expect(JSON.parse(row!.data).application).toMatchObject({ id, jobId: emailJob.id, name: "F", email: "f@example.com", resume: null });
  });

  it("at most 10 applications per 60 s per address, refused ones included: the 11th is 429 with Retry-After", async () => {
    const limited = { ...env, APPLY_RATE_LIMITER: env.TEST_LOW_JOB_RATE_LIMITER };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await worker.fetch(
        new Request(`${BASE}/api/v1.1/board/jobs/${emailJob.id}/applications`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.77" },
          body: JSON.stringify({ name: "", email: "x" }),
        }),
        limited,
        {} as ExecutionContext,
      );
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("Retry-After")).toBe("60");
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
  });
});
