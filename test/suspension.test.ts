import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reinstateEmployer, suspendEmployer } from "../src/employers/suspension";
import { removeJobByOperator } from "../src/jobs/moderation";
import { runScheduledJobs } from "../src/jobs/scheduled-rules";
import { atShard } from "../src/shards/bindings";
import { BASE, createEmployer, createTestKey, problemOf, request, shardDb, type TestEmployer } from "./support/api";
import { eventually, settleBoard } from "./support/board";
import { call as consoleCall, signedIn } from "./support/console";
import { jobBody, postJob } from "./support/jobs";
import { call, fanOut } from "./support/webhook-queue";

// DESIGN 26, 26a: the operator suspends an employer — every job off the board at once, its writes
// through the API and the console answered 403 /problems/employer-suspended, its reads still
// answered, employer.suspended to its webhooks — and reinstates it: its active jobs back on the
// board (removed ones excepted), employer.reinstated. In whichever shard the employer lives.

let unique = 0;
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;
const onBoard = async (jobId: number) => (await request(fresh(`/board/jobs/${jobId}`))).status === 200;
const pageStatus = async (path: string) => (await exports.default.fetch(new Request(`${BASE}${path}`, { redirect: "manual" }))).status;

const EMAIL_JOB = { applicantRoutingType: { id: 1 }, applicationEmail: "hr@suspended.example" };

async function suspendedEmployer(shard: number) {
  const employer = await createEmployer({ shard, plan: "unlimited" });
  const first = await postJob(employer, { title: "Suspended Teller", status: "active", referenceId: "S-1", ...EMAIL_JOB });
  const second = await postJob(employer, { title: "Suspended Cashier", status: "active", autoRefresh: true });
  const removed = await postJob(employer, { title: "Suspended Removed", status: "active" });
  await settleBoard();
  const applied = await request(`/board/jobs/${first.id}/applications`, {
    method: "POST",
    json: { name: "Ada Lovelace", email: "ada@example.com" },
    headers: { "CF-Connecting-IP": `10.26.${shard}.${++unique % 250}` },
  });
  expect(applied.status).toBe(201);
  const application = await applied.json<any>();
  await removeJobByOperator(env, { jobId: removed.id, reason: "fraud" });
  await settleBoard();
  return { employer, first, second, removed, application };
}

const refused = async (res: Response) => {
  expect(res.status).toBe(403);
  expect((await problemOf(res)).type).toBe("/problems/employer-suspended");
};

describe("suspend and reinstate an employer (DESIGN 26, 26a)", () => {
  for (const shard of [0, 1]) {
    it(`shard ${shard}: suspended, every job is off the board at once (board, pages 410) and stays off through the cron's repair; reinstated, its active jobs come back, the removed one excepted`, async () => {
      const { employer, first, second, removed } = await suspendedEmployer(shard);
      expect([await onBoard(first.id), await onBoard(second.id), await onBoard(removed.id)]).toEqual([true, true, false]);

      const outcome = await suspendEmployer(env, { employerId: employer.employerId, reason: "fraud" });
      expect(outcome).toEqual({ employerId: employer.employerId, name: employer.name, shard, changed: true });
      await eventually(async () => expect([await onBoard(first.id), await onBoard(second.id)]).toEqual([false, false]));
      expect(await pageStatus(`/jobs/${first.id}-suspended-teller`)).toBe(410);
      // The cron's repair puts none of them back, nor does the auto-refresh touch them.
      await runScheduledJobs(atShard(env, shard), new Date(Date.now() + 8 * 86_400_000));
      await settleBoard();
      expect([await onBoard(first.id), await onBoard(second.id)]).toEqual([false, false]);
      expect((await request(`/jobs/${second.id}`, { apiKey: employer.apiKey }).then((res) => res.json<any>())).publishDate).toBe(second.publishDate);
      expect((await suspendEmployer(env, { employerId: employer.employerId, reason: "fraud" }))?.changed).toBe(false);

      const reinstated = await reinstateEmployer(env, { employerId: employer.employerId, reason: "other" });
      expect(reinstated).toEqual({ employerId: employer.employerId, name: employer.name, shard, changed: true });
      await eventually(async () => expect([await onBoard(first.id), await onBoard(second.id)]).toEqual([true, true]));
      expect(await onBoard(removed.id)).toBe(false);
      expect(await pageStatus(`/jobs/${first.id}-suspended-teller`)).toBe(200);
      const edited = await request(`/jobs/${first.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Reinstated Teller" } });
      expect(edited.status).toBe(200);
    });

    it(`shard ${shard}: its writes through the API answer 403 /problems/employer-suspended with nothing stored — jobs, batch, reconcile, settings, applications, its test space — while its reads answer`, async () => {
      const { employer, first, application } = await suspendedEmployer(shard);
      const testKey = await createTestKey(employer);
      await suspendEmployer(env, { employerId: employer.employerId, reason: "misleading" });
      const key = employer.apiKey;
      await refused(await request("/jobs", { method: "POST", apiKey: key, json: jobBody({ title: "Not Stored" }) }));
      await refused(await request("/jobs", { method: "POST", apiKey: testKey.apiKey, json: jobBody({ title: "Not Stored Either" }) }));
      await refused(await request(`/jobs/${first.id}`, { method: "PUT", apiKey: key, json: { title: "Not Changed" } }));
      await refused(await request("/jobs", { method: "PUT", apiKey: key, json: { referenceId: "S-1", title: "Not Changed" } }));
      await refused(await request(`/jobs/${first.id}`, { method: "DELETE", apiKey: key }));
      await refused(await request("/jobs/batch", { method: "POST", apiKey: key, json: { upsert: [{ referenceId: "S-1", title: "Not Changed" }] } }));
      await refused(await request("/jobs/reconcile", { method: "POST", apiKey: key, json: { referenceIds: ["NONE"] } }));
      await refused(await request("/employer", { method: "PUT", apiKey: key, json: { name: "Not Renamed" } }));
      await refused(await request(`/applications/${application.id}`, { method: "PUT", apiKey: key, json: { status: "reviewing" } }));

      const job = await request(`/jobs/${first.id}`, { apiKey: key });
      expect(job.status).toBe(200);
      expect(await job.json()).toMatchObject({ title: "Suspended Teller", status: "active" });
      expect((await request("/jobs", { apiKey: key })).status).toBe(200);
      expect(await (await request("/employer", { apiKey: key })).json()).toMatchObject({ name: employer.name });
      expect(await (await request(`/applications/${application.id}`, { apiKey: key })).json()).toMatchObject({ status: "received" });
      const counted = await shardDb(shard).prepare("SELECT count(*) AS n FROM jobs WHERE employer_id IN (?, ?)").bind(employer.employerId, testKey.employerId).first<{ n: number }>();
      expect(counted?.n).toBe(3);
    });
  }

  it("its writes through the console answer 403 too (the settings), its pages still answer", async () => {
    const employer = await createEmployer({ shard: 1, name: "Console Suspended" });
    const cookie = await signedIn(employer.employerId, "admin@console-suspended.example");
    await suspendEmployer(env, { employerId: employer.employerId, reason: "other" });
    const res = await consoleCall("/employer/settings", { cookie, form: { revision: "1", name: "Renamed Anyway", ontarioEmployees: "", postingRules: "warn" } });
    expect(res.status).toBe(403);
    expect((await consoleCall("/employer/settings", { cookie })).status).toBe(200);
    expect(await (await request("/employer", { apiKey: employer.apiKey })).json()).toMatchObject({ name: "Console Suspended" });
  });

  it("employer.suspended and employer.reinstated go to its webhooks (an endpoint of every type included), with the employer, the reason and the time", async () => {
    const employer = await createEmployer({ shard: 1, name: "Hooked Employer" });
    await call(employer, "/webhooks", { method: "POST", json: { url: "https://receiver.example/all" } });
    const seq = async () => (await shardDb(1).prepare("SELECT coalesce(max(seq), 0) AS seq FROM events").first<{ seq: number }>())!.seq;
    const before = await seq();
    await suspendEmployer(env, { employerId: employer.employerId, reason: "fraud" }, Date.parse("2026-11-25T12:00:00Z"));
    await reinstateEmployer(env, { employerId: employer.employerId, reason: "other" }, Date.parse("2026-11-26T12:00:00Z"));
    const { results } = await shardDb(1).prepare("SELECT id, type, data FROM events WHERE seq > ? AND employer_id = ? ORDER BY seq").bind(before, employer.employerId).all<{ id: string; type: string; data: string }>();
    expect(results.map((event) => [event.type, JSON.parse(event.data)])).toEqual([
      ["employer.suspended", { employer: { id: employer.employerId, name: "Hooked Employer" }, reason: "fraud", at: "2026-11-25T12:00:00.000Z" }],
      ["employer.reinstated", { employer: { id: employer.employerId, name: "Hooked Employer" }, reason: "other", at: "2026-11-26T12:00:00.000Z" }],
    ]);
    const messages = await fanOut([{ events: results.map((event) => event.id), shard: 1 }]);
    expect(messages).toHaveLength(2);
    const types = await shardDb(1).prepare("SELECT type FROM webhook_messages WHERE employer_id = ? ORDER BY created_at").bind(employer.employerId).all<{ type: string }>();
    expect(types.results.map((row) => row.type)).toEqual(["employer.suspended", "employer.reinstated"]);
  });

  it("an unknown employer, or a test space, is no employer to suspend; an employer being moved is refused for now (503)", async () => {
    const employer: TestEmployer = await createEmployer();
    const testKey = await createTestKey(employer);
    expect(await suspendEmployer(env, { employerId: 2_000_000_000, reason: "fraud" })).toBeUndefined();
    expect(await suspendEmployer(env, { employerId: testKey.employerId, reason: "fraud" })).toBeUndefined();
    await shardDb(0).prepare("UPDATE employers SET frozen_at = ? WHERE id = ?").bind(Date.now(), employer.employerId).run();
    await expect(suspendEmployer(env, { employerId: employer.employerId, reason: "fraud" })).rejects.toMatchObject({ status: 503, kind: "employer-moving" });
    await shardDb(0).prepare("UPDATE employers SET frozen_at = NULL WHERE id = ?").bind(employer.employerId).run();
    expect((await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody() })).status).toBe(201);
  });
});
