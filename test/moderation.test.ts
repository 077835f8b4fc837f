import { env, exports } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { removeJobByOperator, restoreJobByOperator, moderationQueue } from "../src/jobs/moderation";
import { dismissReports } from "../src/reports/moderation";
import { consumeWebhookBatch } from "../src/webhooks/consumer";
import { BASE, createEmployer, problemOf, request, shardDb, type TestEmployer } from "./support/api";
import { activeAlert, lastEventSeq, matchEventsSince, matchesOf } from "./support/alerts";
import { eventually, settleBoard } from "./support/board";
import { postJob } from "./support/jobs";
import { configure, gatheredPageOf, googleNotices, MINUTE, ORIGIN, reachSettingsFor, runAt, stubRun, testServiceAccount, workerNotifier } from "./support/reach";
import { batchOf, call, fanOut } from "./support/webhook-queue";

// DESIGN 26, 26a: the operator removes a reported job — off the board, its pages (410), search,
// the sitemap, alert matching and reach at once; the employer sees `moderation` and may change the
// job but not publish it (409 /problems/job-removed); job.removed goes to its webhooks and its
// admins are emailed — and restores it (job.restored: it may be published again). The operator's
// acts are the service functions the operator's console calls.

/** Every email the operator's acts sent, newest last. */
const sentMail: { to: string; subject: string; text: string; html: string; headers?: Record<string, string>; replyTo?: string }[] = [];
const operatorEnv = () =>
  ({ ...env, EMAIL: { send: async (mail: (typeof sentMail)[number]) => void sentMail.push(mail) }, EMAIL_FROM: "board@jobs.example.com" }) as unknown as typeof env;

let unique = 0;
/** A board address no earlier request cached (the board caches its answers up to a minute, DESIGN 14). */
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;
const page = (path: string) => exports.default.fetch(new Request(`${BASE}${path}`, { redirect: "manual" }));
const getJob = async (who: TestEmployer, id: number) => (await request(`/jobs/${id}`, { apiKey: who.apiKey })).json<any>();
const put = (who: TestEmployer, id: number, json: unknown) => request(`/jobs/${id}`, { method: "PUT", apiKey: who.apiKey, json });

async function report(jobId: number, slug: string, reason: string) {
  const form = new FormData();
  form.set("reason", reason);
  form.set("details", "Asks for a deposit before the interview.");
  form.set("email", "reporter@example.com");
  const res = await exports.default.fetch(new Request(`${BASE}/jobs/${jobId}-${slug}/report`, { method: "POST", body: form, redirect: "manual" }));
  expect(res.status).toBe(303);
}

async function admin(employerId: number, email: string, language: "en" | "fr", role = "admin") {
  await env.ACCOUNTS_DB.prepare("INSERT INTO people (employer_id, email, role, language, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(employerId, email, role, language, Date.now())
    .run();
}

const reach = stubRun();
const notifier = workerNotifier();

beforeAll(async () => {
  await configure(notifier, reachSettingsFor(reach, await testServiceAccount()));
});

afterEach(() => vi.restoreAllMocks());

describe("the moderation queue (DESIGN 26)", () => {
  it("jobs with open reports, most reported first, across both shards; a removal or a dismissal takes the job out of it", async () => {
    const [zero, one] = [await createEmployer({ shard: 0 }), await createEmployer({ shard: 1 })];
    const once = await postJob(zero, { title: "Reported Once", status: "active" });
    const thrice = await postJob(one, { title: "Reported Thrice", status: "active" });
    const twice = await postJob(zero, { title: "Reported Twice", status: "active" });
    await settleBoard();
    await report(once.id, "reported-once", "misleading");
    for (let i = 0; i < 3; i++) await report(thrice.id, "reported-thrice", "fraud");
    for (let i = 0; i < 2; i++) await report(twice.id, "reported-twice", "notAJob");

    const ours = (queue: Awaited<ReturnType<typeof moderationQueue>>) => queue.filter((entry) => [once.id, twice.id, thrice.id].includes(entry.jobId));
    const queue = ours(await moderationQueue(env, 100));
    expect(queue.map((entry) => [entry.jobId, entry.openReports, entry.shard])).toEqual([
      [thrice.id, 3, 1],
      [twice.id, 2, 0],
      [once.id, 1, 0],
    ]);
    expect(queue[0].job).toEqual({ title: "Reported Thrice", status: "active", employerId: one.employerId, employerName: one.name, moderationStatus: null });

    expect(await dismissReports(env, { jobId: twice.id })).toBe(2);
    expect(await dismissReports(env, { jobId: twice.id })).toBe(0);
    await removeJobByOperator(operatorEnv(), { jobId: thrice.id, reason: "fraud" });
    expect(ours(await moderationQueue(env, 100)).map((entry) => entry.jobId)).toEqual([once.id]);
    // Dismissed, the job stays as it was: on the board.
    expect((await request(fresh(`/board/jobs/${twice.id}`))).status).toBe(200);
    const resolved = await shardDb(1).prepare("SELECT resolution, resolved_at IS NOT NULL AS resolved FROM job_reports WHERE job_id = ?").bind(thrice.id).all();
    expect(resolved.results).toEqual(Array(3).fill({ resolution: "removed", resolved: 1 }));
  });
});

describe("remove (DESIGN 26, 26a)", () => {
  it("within seconds the job is off the board, its pages answer 410 with a neutral notice, it leaves search and the sitemap", async () => {
    const employer = await createEmployer({ shard: 1, name: "Moderated Ltd." });
    const job = await postJob(employer, { title: "Wombatwrangler Wanted", status: "active" });
    await settleBoard();
    expect((await request(fresh(`/board/jobs/${job.id}`))).status).toBe(200);
    expect((await (await request(fresh("/board/jobs?q=wombatwrangler"))).json<any>()).data.map((item: any) => item.id)).toEqual([job.id]);

    const outcome = await removeJobByOperator(operatorEnv(), { jobId: job.id, reason: "fraud" });
    expect(outcome).toMatchObject({ jobId: job.id, employerId: employer.employerId, shard: 1, changed: true });
    await settleBoard();

    expect((await request(fresh(`/board/jobs/${job.id}`))).status).toBe(404);
    expect((await (await request(fresh("/board/jobs?q=wombatwrangler"))).json<any>()).data).toEqual([]);
    for (const [path, notice] of [
      [`/jobs/${job.id}-wombatwrangler-wanted`, /This job is no longer open/],
      [`/fr/emplois/${job.id}-wombatwrangler-wanted`, /Cette offre n(&#39;|')est plus ouverte/],
    ] as const) {
      const gone = await page(path);
      expect(gone.status, path).toBe(410);
      const html = await gone.text();
      // The same notice as any job that left the board: nothing says why.
      expect(html).toMatch(notice);
      expect(html).not.toContain("application/ld+json");
      expect(html).not.toMatch(/removed|retirée|moderation/i);
    }
    const sitemap = await (await page(fresh("/sitemap.xml"))).text();
    expect(sitemap).not.toContain(`/jobs/${job.id}-`);
  });

  it("the employer's API shows `moderation` and refuses to publish it again (409 /problems/job-removed) — PUT, PUT by referenceId, batch — while other edits stay allowed", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { title: "Misleading Offer", referenceId: "MOD-1", status: "active" });
    const other = await postJob(employer, { title: "Fine Offer", status: "active" });
    await removeJobByOperator(operatorEnv(), { jobId: job.id, reason: "misleading" }, Date.parse("2026-11-23T09:30:00Z"));

    const removed = await getJob(employer, job.id);
    expect(removed.status).toBe("archived");
    expect(removed.moderation).toEqual({ status: "removed", reason: "misleading", at: "2026-11-23T09:30:00Z" });
    expect("moderation" in (await getJob(employer, other.id))).toBe(false);

    for (const res of [await put(employer, job.id, { status: "active" }), await request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: { referenceId: "MOD-1", status: "active" } })]) {
      expect(res.status).toBe(409);
      expect((await problemOf(res)).type).toBe("/problems/job-removed");
    }
    const validateOnly = await request(`/jobs/${job.id}?validateOnly=true`, { method: "PUT", apiKey: employer.apiKey, json: { status: "active" } });
    expect(validateOnly.status).toBe(409);
    const batch = await request("/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: { upsert: [{ referenceId: "MOD-1", status: "active" }] } });
    expect(batch.status).toBe(200);
    expect((await batch.json<any>()).results[0]).toMatchObject({ status: 409, type: "/problems/job-removed" });

    const edited = await put(employer, job.id, { title: "Accurate Offer" });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ title: "Accurate Offer", status: "archived", moderation: { status: "removed", reason: "misleading" } });
    expect((await getJob(employer, job.id)).title).toBe("Accurate Offer");
  });

  it("alert matching treats it as gone: a match stored before is marked gone, never emailed; a job removed before it was matched is never matched", async () => {
    const employer = await createEmployer({ plan: "unlimited" });
    const alert = await activeAlert({ search: { q: "capybaracarer" } });
    const before = await lastEventSeq();
    const matched = await postJob(employer, { title: "Capybaracarer", status: "active" });
    await matchEventsSince(before);
    expect(await matchesOf(alert.id)).toEqual([matched.id]);

    const removal = await lastEventSeq();
    await removeJobByOperator(operatorEnv(), { jobId: matched.id, reason: "fraud" });
    const never = await postJob(employer, { title: "Capybaracarer Senior", status: "active" });
    await removeJobByOperator(operatorEnv(), { jobId: never.id, reason: "fraud" });
    await matchEventsSince(removal);
    expect(await env.ALERTS_DB.prepare("SELECT gone, send_id AS sendId FROM alert_matches WHERE alert_id = ? AND job_id = ?").bind(alert.id, matched.id).first()).toEqual({
      gone: 1,
      sendId: null,
    });
    expect(await matchesOf(alert.id)).toEqual([matched.id]);
  });

  it("reach sends its addresses as deleted", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { title: "Reach Removed Clerk", status: "active" });
    const gathered = async (revision: number) =>
      eventually(async () => {
        const seen = await gatheredPageOf(notifier, job.id);
        if (!seen || seen.revision < revision) throw new Error(`the notifier has job ${job.id} at ${JSON.stringify(seen)}`);
      });
    await gathered(1);
    await runAt(notifier, Date.now() + 2 * MINUTE);
    await removeJobByOperator(operatorEnv(), { jobId: job.id, reason: "not-a-job" });
    await gathered(2);
    await runAt(notifier, Date.now() + 4 * MINUTE);
    const addresses = [`${ORIGIN}/jobs/${job.id}-reach-removed-clerk`, `${ORIGIN}/fr/emplois/${job.id}-reach-removed-clerk`];
    const about = (await googleNotices(reach)).filter((notice) => addresses.includes(notice.url));
    expect(about).toEqual([...addresses.map((url) => ({ url, type: "URL_UPDATED" })), ...addresses.map((url) => ({ url, type: "URL_DELETED" }))]);
  });

  it("job.removed goes to the employer's webhooks, signed, with the job as removed, `moderation` and the operator as actor", async () => {
    const employer = await createEmployer();
    const { res } = await call(employer, "/webhooks", { method: "POST", json: { url: "https://receiver.example/moderation", events: ["job.removed", "job.restored"] } });
    const endpoint = await res.json<any>();
    const job = await postJob(employer, { title: "Hooked Job", status: "active" });
    const before = await lastEventSeq(employer.shard);
    await removeJobByOperator(operatorEnv(), { jobId: job.id, reason: "discrimination" }, Date.parse("2026-11-23T10:00:00Z"));
    const { results } = await shardDb(employer.shard).prepare("SELECT id, type FROM events WHERE seq > ? AND employer_id = ? ORDER BY seq").bind(before, employer.employerId).all<{ id: string; type: string }>();
    expect(results.map((event) => event.type)).toEqual(["job.removed"]);
    const messages = await fanOut([{ events: results.map((event) => event.id), shard: employer.shard }]);
    expect(messages).toHaveLength(1);

    const received: { headers: Record<string, string>; body: string }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const sent = new Request(input, init);
      received.push({ headers: Object.fromEntries(sent.headers), body: await sent.text() });
      return new Response(null, { status: 204 });
    });
    await consumeWebhookBatch(batchOf(messages).batch, env);
    expect(received).toHaveLength(1);
    const payload = new Webhook(endpoint.secret).verify(received[0].body, received[0].headers) as any;
    const read = await request(`/jobs/${job.id}`, { apiKey: employer.apiKey });
    expect(payload).toMatchObject({ type: "job.removed", timestamp: "2026-11-23T10:00:00.000Z" });
    expect(payload.data).toEqual({
      job: await read.json(),
      etag: read.headers.get("ETag"),
      revision: 2,
      actor: { type: "operator" },
      moderation: { status: "removed", reason: "discrimination", at: "2026-11-23T10:00:00Z" },
    });
  });

  it("the employer's admins get an email saying why and how to answer, in their language; recruiters do not; done again, the removal changes and sends nothing", async () => {
    const employer = await createEmployer({ name: "Emailed Employer" });
    await admin(employer.employerId, "chief@emailed.example", "fr");
    await admin(employer.employerId, "boss@emailed.example", "en");
    await admin(employer.employerId, "recruiter@emailed.example", "en", "recruiter");
    const job = await postJob(employer, { title: "Phishing Analyst", status: "active" });
    const before = sentMail.length;
    const outcome = await removeJobByOperator(operatorEnv(), { jobId: job.id, reason: "fraud" }, Date.parse("2026-11-23T09:30:00Z"));
    expect(outcome?.emailed).toBe(2);
    const mails = sentMail.slice(before);
    expect(mails.map((mail) => mail.to).sort()).toEqual(["boss@emailed.example", "chief@emailed.example"]);
    const french = mails.find((mail) => mail.to === "chief@emailed.example")!;
    expect(french.subject).toBe("Votre offre d'emploi a été retirée : Phishing Analyst");
    expect(french.headers).toEqual({ "Content-Language": "fr" });
    expect(french.text).toContain(`« Phishing Analyst » (offre ${job.id})`);
    expect(french.text).toContain("23 novembre 2026");
    expect(french.text).toContain("elle semble frauduleuse");
    expect(french.text).toContain("privacy@jobs.example.com");
    const english = mails.find((mail) => mail.to === "boss@emailed.example")!;
    expect(english.subject).toBe("Your job posting was removed: Phishing Analyst");
    expect(english.text).toContain("because it appears to be fraudulent");
    expect(english.text).toContain(`To ask for a review, reply to this email or write to privacy@jobs.example.com, naming job ${job.id}`);
    expect(english.replyTo).toBe("privacy@jobs.example.com");
    expect(english.html).toContain('<html lang="en">');

    const again = await removeJobByOperator(operatorEnv(), { jobId: job.id, reason: "other" });
    expect(again).toMatchObject({ changed: false, emailed: 0 });
    expect(sentMail).toHaveLength(before + 2);
    expect((await getJob(employer, job.id)).moderation.reason).toBe("fraud");
    expect(await removeJobByOperator(operatorEnv(), { jobId: 2_000_000_000, reason: "fraud" })).toBeUndefined();
  });
});

describe("restore (DESIGN 26, 26a)", () => {
  it("job.restored is recorded, `moderation` is gone, the job stays archived and may be published again, back on the board", async () => {
    const employer = await createEmployer({ shard: 1 });
    const job = await postJob(employer, { title: "Restored Role", status: "active" });
    await removeJobByOperator(operatorEnv(), { jobId: job.id, reason: "other" });
    const before = await lastEventSeq(1);
    const outcome = await restoreJobByOperator(env, { jobId: job.id }, Date.parse("2026-11-24T08:00:00Z"));
    expect(outcome).toMatchObject({ jobId: job.id, shard: 1, changed: true });
    const { results } = await shardDb(1).prepare("SELECT type, revision, data FROM events WHERE seq > ? ORDER BY seq").bind(before).all<{ type: string; revision: number; data: string }>();
    expect(results.map((event) => [event.type, event.revision])).toEqual([["job.restored", 3]]);
    expect(JSON.parse(results[0].data)).toMatchObject({ actor: { type: "operator" }, moderation: { status: "restored", at: "2026-11-24T08:00:00Z" } });

    const restored = await getJob(employer, job.id);
    expect(restored.status).toBe("archived");
    expect("moderation" in restored).toBe(false);
    expect((await restoreJobByOperator(env, { jobId: job.id }))?.changed).toBe(false);

    const published = await put(employer, job.id, { status: "active" });
    expect(published.status).toBe(200);
    await settleBoard();
    expect((await request(fresh(`/board/jobs/${job.id}`))).status).toBe(200);
  });
});
