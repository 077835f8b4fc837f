import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { reachTakenEvents } from "../src/reach/receipts";
import { BASE, createEmployer, createTestKey, request, shardDb, type TestEmployer } from "./support/api";
import { eventually, settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { configure, googleNotices, indexNowBodies, MINUTE, ORIGIN, gatheredPageOf, reachSettingsFor, runAt, stubRun, testServiceAccount, workerNotifier } from "./support/reach";

// DESIGN 24: the whole path, as in production — a write over HTTP, its shard's relay (DESIGN 22),
// the reach queue and its consumer (real in tests), the Worker's notifier — with both services
// pointed at the stubs. The test waits for the notifier to have gathered the write, then runs it
// a minute later (its alarm's work, without waiting for it).

const run = stubRun();
const notifier = workerNotifier();

beforeAll(async () => {
  await configure(notifier, reachSettingsFor(run, await testServiceAccount()));
});

/** Waits until the notifier has gathered the job at (at least) its revision, or its deletion. */
async function gathered(jobId: number, revision: number | "deleted"): Promise<void> {
  await eventually(async () => {
    const seen = await gatheredPageOf(notifier, jobId);
    const done = seen !== null && (revision === "deleted" ? seen.deleted === 1 : seen.revision >= revision);
    if (!done) throw new Error(`the notifier has job ${jobId} at ${JSON.stringify(seen)}, not yet ${revision}`);
  });
}

/** The notifier's run a gathering minute from now; then what the stubs received about the job. */
async function sentFor(jobId: number) {
  await runAt(notifier, Date.now() + 2 * MINUTE);
  const about = (url: string) => new RegExp(`/(jobs|fr/emplois)/${jobId}-`).test(url);
  return {
    google: (await googleNotices(run)).filter((notice) => about(notice.url)),
    indexNow: (await indexNowBodies(run)).map((body) => body.urlList.filter(about)).filter((urls) => urls.length),
  };
}

const eventIdsOf = async (who: TestEmployer, jobId: number) =>
  (await shardDb(who.shard).prepare("SELECT id FROM events WHERE subject_id = ? AND type LIKE 'job.%' ORDER BY seq").bind(jobId).all<{ id: string }>()).results.map((row) => row.id);

describe("reach from an HTTP write through the relay (DESIGN 24)", () => {
  for (const shard of [0, 1]) {
    it(`shard ${shard}: a published job's English and French addresses (the French one by its French title) are sent as URL_UPDATED, and they are the pages' canonical addresses`, async () => {
      const employer = await createEmployer({ shard });
      const job = await postJob(employer, { title: "Senior Accountant", status: "active", translations: { fr: { title: "Comptable principal", description: "<p>Joignez-vous à nous.</p>" } } });
      await gathered(job.id, 1);
      const sent = await sentFor(job.id);
      const addresses = [`${ORIGIN}/jobs/${job.id}-senior-accountant`, `${ORIGIN}/fr/emplois/${job.id}-comptable-principal`];
      expect(sent.google).toEqual(addresses.map((url) => ({ url, type: "URL_UPDATED" })));
      expect(sent.indexNow).toEqual([addresses]);
      await settleBoard();
      for (const address of addresses) {
        const res = await exports.default.fetch(new Request(address.replace(ORIGIN, BASE), { redirect: "manual" }));
        expect(res.status).toBe(200);
      }
      // DESIGN 16a: every event the relay handed over is taken.
      const ids = await eventIdsOf(employer, job.id);
      expect(await reachTakenEvents(env, shard, ids)).toEqual(ids);
    });
  }

  it("ten changes of a job page within a minute are sent once per address, with the latest state", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { title: "Payroll Clerk", status: "active", salary: { amount: 50000, type: { id: 1 } } });
    for (let i = 1; i <= 9; i++) {
      expect((await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { salary: { amount: 50000 + i * 100 } } })).status).toBe(200);
    }
    const latest = Number((await shardDb(0).prepare("SELECT revision FROM jobs WHERE id = ?").bind(job.id).first<{ revision: number }>())!.revision);
    await gathered(job.id, latest);
    const sent = await sentFor(job.id);
    expect(sent.google).toEqual([`${ORIGIN}/jobs/${job.id}-payroll-clerk`, `${ORIGIN}/fr/emplois/${job.id}-payroll-clerk`].map((url) => ({ url, type: "URL_UPDATED" })));
    expect(sent.indexNow).toHaveLength(1);
  });

  it("a job that leaves the board (archived) is sent as URL_DELETED; one deleted after it, nothing more", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { title: "Night Auditor", status: "active" });
    await gathered(job.id, 1);
    await sentFor(job.id);
    expect((await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "archived" } })).status).toBe(200);
    const archived = Number((await shardDb(0).prepare("SELECT revision FROM jobs WHERE id = ?").bind(job.id).first<{ revision: number }>())!.revision);
    await gathered(job.id, archived);
    const sent = await sentFor(job.id);
    const addresses = [`${ORIGIN}/jobs/${job.id}-night-auditor`, `${ORIGIN}/fr/emplois/${job.id}-night-auditor`];
    expect(sent.google).toEqual([...addresses.map((url) => ({ url, type: "URL_UPDATED" })), ...addresses.map((url) => ({ url, type: "URL_DELETED" }))]);
    expect((await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey })).status).toBe(204);
    await gathered(job.id, "deleted");
    expect((await sentFor(job.id)).google).toHaveLength(4);
  });

  it("a test-space job is never sent, yet its events are taken", async () => {
    const employer = await createEmployer();
    const testKey = await createTestKey(employer);
    const job = await postJob(testKey, { title: "Sandbox Clerk", status: "active" });
    const ids = await eventIdsOf(testKey, job.id);
    await eventually(async () => {
      expect(await reachTakenEvents(env, 0, ids)).toEqual(ids);
    });
    const sent = await sentFor(job.id);
    expect(sent.google).toEqual([]);
    expect(sent.indexNow).toEqual([]);
  });
});
