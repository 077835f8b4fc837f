import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, createEmployer, createTestKey, request } from "./support/api";
import { settleBoard } from "./support/board";
import { jobBody, postJob } from "./support/jobs";

// DESIGN 21, 21a: test keys and the employer's test space.

const live = await createEmployer({ name: "Sandbox Co." });
const test = await createTestKey(live);
const emailRouted = { status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@sandbox.example" };
const liveJob = await postJob(live, { referenceId: "SHARED-REF", title: "Live job", ...emailRouted });
const testJob = await postJob(test, { referenceId: "SHARED-REF", title: "Test job", ...emailRouted });

const applyAsTest = (jobId: number, who = test) =>
  request(`/jobs/${jobId}/applications/test`, { method: "POST", apiKey: who.apiKey, json: { name: "Ada Test", email: "ada@example.com" } });

describe("test keys (DESIGN 21)", () => {
  it("a test key works on the employer API like a live key, in its own space: the same referenceId lives once in each", async () => {
    expect(testJob.id).not.toBe(liveJob.id);
    expect(testJob.id).toBeGreaterThan(liveJob.id); // one id sequence for both spaces
    const [fromTest, fromLive] = await Promise.all([request("/jobs", { apiKey: test.apiKey }), request("/jobs", { apiKey: live.apiKey })]);
    expect((await fromTest.json<any>()).data.map((job: any) => job.id)).toEqual([testJob.id]);
    expect((await fromLive.json<any>()).data.map((job: any) => job.id)).toEqual([liveJob.id]);
  });

  it("jobs of one space are a 404 from the other, for reads, writes and deletes", async () => {
    for (const [who, other] of [[test, liveJob], [live, testJob]] as const) {
      expect((await request(`/jobs/${other.id}`, { apiKey: who.apiKey })).status).toBe(404);
      expect((await request(`/jobs/${other.id}`, { method: "PUT", apiKey: who.apiKey, json: { title: "Taken over" } })).status).toBe(404);
      expect((await request(`/jobs/${other.id}`, { method: "DELETE", apiKey: who.apiKey })).status).toBe(404);
    }
    // By referenceId, each space reaches its own job.
    const byReference = await request("/jobs", { method: "PUT", apiKey: test.apiKey, json: { referenceId: "SHARED-REF", title: "Test job, renamed" } });
    expect(await byReference.json()).toMatchObject({ id: testJob.id, title: "Test job, renamed" });
    expect(await (await request(`/jobs/${liveJob.id}`, { apiKey: live.apiKey })).json()).toMatchObject({ title: "Live job" });
  });

  it("webhooks of one space are invisible from the other", async () => {
    const made = await request("/webhooks", { method: "POST", apiKey: test.apiKey, json: { url: "https://hooks.example.com/sandbox" } });
    expect(made.status).toBe(201);
    const { id } = await made.json<any>();
    expect((await request(`/webhooks/${id}`, { apiKey: live.apiKey })).status).toBe(404);
    expect((await (await request("/webhooks", { apiKey: live.apiKey })).json<any>()).data).toEqual([]);
    expect((await request(`/webhooks/${id}`, { apiKey: test.apiKey })).status).toBe(200);
  });

  it("idempotency records of one space are not replayed in the other", async () => {
    const headers = { "Idempotency-Key": `sandbox-${crypto.randomUUID()}` };
    const body = jobBody({ title: "Same key" });
    const inTest = await request("/jobs", { method: "POST", apiKey: test.apiKey, json: body, headers });
    const inLive = await request("/jobs", { method: "POST", apiKey: live.apiKey, json: body, headers });
    expect([inTest.status, inLive.status]).toEqual([201, 201]);
    expect(inLive.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await inLive.json<any>()).id).not.toBe((await inTest.json<any>()).id);
  });

  it("test jobs never reach the board or its pages, and the public cannot apply to them", async () => {
    await settleBoard();
    expect((await request(`/board/jobs/${testJob.id}`)).status).toBe(404);
    expect((await request(`/board/jobs/${liveJob.id}`)).status).toBe(200);
    const board = await (await request("/board/jobs?q=test+job")).json<any>();
    expect(board.data.map((job: any) => job.id)).not.toContain(testJob.id);
    expect((await request(`${BASE}/jobs/${testJob.id}`, { undocumented: true })).status).toBe(404);
    const rows = await env.BOARD_DB.prepare("SELECT count(*) AS n FROM board_jobs WHERE job_id = ?").bind(testJob.id).first<{ n: number }>();
    expect(rows!.n).toBe(0);
    const publicApply = await request(`/board/jobs/${testJob.id}/applications`, {
      method: "POST",
      json: { name: "Ada", email: "ada@example.com" },
      headers: { "CF-Connecting-IP": "10.9.9.9" },
    });
    expect(publicApply.status).toBe(404);
  });

  it("POST /jobs/{id}/applications/test: an application to a test job with its event, seen only from the test space, and no email", async () => {
    const res = await applyAsTest(testJob.id);
    expect(res.status).toBe(201);
    const { id } = await res.json<any>();
    const read = await request(`/applications/${id}`, { apiKey: test.apiKey });
    expect(await read.json()).toMatchObject({ id, jobId: testJob.id, emailCopy: { status: "skipped" }, applicantEmails: [] });
    expect((await request(`/applications/${id}`, { apiKey: live.apiKey })).status).toBe(404);
    const event = await env.DB.prepare("SELECT employer_id AS employerId FROM events WHERE type = 'application.received' AND subject_id = ?").bind(id).first<{ employerId: number }>();
    expect(event).toEqual({ employerId: test.employerId });
    // An outcome the applicant would be told of is recorded as skipped, never queued.
    const moved = await request(`/applications/${id}`, { method: "PUT", apiKey: test.apiKey, json: { status: "rejected", notifyApplicant: true } });
    expect(moved.status).toBe(200);
    expect((await moved.json<any>()).applicantEmails).toEqual([{ kind: "rejected", status: "skipped", attempts: 0, sentAt: null }]);
  });

  it("the test apply path is a 404 with a live key, for a live job, or for another space's job", async () => {
    expect((await applyAsTest(liveJob.id, live)).status).toBe(404);
    expect((await applyAsTest(liveJob.id)).status).toBe(404);
    const otherTest = await createTestKey(await createEmployer());
    expect((await applyAsTest(testJob.id, otherTest)).status).toBe(404);
  });

  it("the test space has its own employer settings, first copied from the employer's", async () => {
    const fromTest = await (await request("/employer", { apiKey: test.apiKey })).json<any>();
    expect(fromTest).toMatchObject({ name: "Sandbox Co.", postingRules: "warn" });
    const changed = await request("/employer", { method: "PUT", apiKey: test.apiKey, json: { postingRules: "enforce" } });
    expect(changed.status).toBe(200);
    expect(await (await request("/employer", { apiKey: live.apiKey })).json()).toMatchObject({ postingRules: "warn" });
  });
});
