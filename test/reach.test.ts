import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { nextUtcDay } from "../src/reach/rules";
import { reachTakenEvents } from "../src/reach/receipts";
import {
  addressesOf,
  alarmOf,
  configure,
  DAY,
  freshNotifier,
  gather,
  googleNotices,
  INDEXNOW_KEY,
  indexNowBodies,
  MINUTE,
  ORIGIN,
  pageChange,
  pendingOf,
  reachSettingsFor,
  runAt,
  stubRun,
  testServiceAccount,
} from "./support/reach";

// DESIGN 24, 24a: the notifier against stub search engines. Each test has a notifier of its own
// and a stub run of its own, hands it changes as the consumer would, and runs it at a `now` of its
// choosing (a gathering minute or a UTC day passes without waiting).

const account = await testServiceAccount();

/** A notifier with both services on (or as `overrides` set them), pointed at a fresh stub run. */
async function setUp(overrides: Record<string, string | undefined> = {}, withGoogle = true) {
  const run = stubRun();
  const notifier = freshNotifier();
  await configure(notifier, reachSettingsFor(run, withGoogle ? account : null, overrides));
  return { run, notifier };
}

/** The send log, oldest first. */
const sendLog = async (notifier: ReturnType<typeof freshNotifier>) => (await notifier.sends(1000)).reverse();

describe("gathering (DESIGN 24a: a change is sent at most once per page per gathering minute; the latest state wins)", () => {
  it("ten changes of one page within a minute are one send per address, with the latest state", async () => {
    const { run, notifier } = await setUp();
    const t0 = Date.now();
    for (let revision = 1; revision <= 10; revision++) await gather(notifier, [pageChange(101, { revision, digest: `facts-${revision}` })], t0 + (revision - 1) * 1000);
    await runAt(notifier, t0 + 30_000);
    expect(await googleNotices(run)).toEqual([]);
    await runAt(notifier, t0 + MINUTE);
    expect(await googleNotices(run)).toEqual(addressesOf(101).map((url) => ({ url, type: "URL_UPDATED" })));
    const bodies = await indexNowBodies(run);
    expect(bodies).toHaveLength(1);
    expect(bodies[0].urlList).toEqual(addressesOf(101));
    await runAt(notifier, t0 + 10 * MINUTE);
    expect(await googleNotices(run)).toHaveLength(2);
  });

  it("a page the engines know that changes nine times and then leaves within the minute: one URL_DELETED per address", async () => {
    const { run, notifier } = await setUp();
    const t0 = Date.now();
    await gather(notifier, [pageChange(102)], t0);
    await runAt(notifier, t0 + MINUTE);
    const t1 = t0 + 2 * MINUTE;
    for (let revision = 2; revision <= 10; revision++) await gather(notifier, [pageChange(102, { revision, digest: `facts-${revision}` })], t1 + (revision - 2) * 1000);
    await gather(notifier, [pageChange(102, { revision: 11, shown: false })], t1 + 9_000);
    await runAt(notifier, t1 + MINUTE);
    expect((await googleNotices(run)).slice(2)).toEqual(addressesOf(102).map((url) => ({ url, type: "URL_DELETED" })));
    expect((await indexNowBodies(run)).map((body) => body.urlList)).toEqual([addressesOf(102), addressesOf(102)]);
  });

  it("a page that appears and leaves within the same minute is not sent at all", async () => {
    const { run, notifier } = await setUp();
    const t0 = Date.now();
    await gather(notifier, [pageChange(103)], t0);
    await gather(notifier, [pageChange(103, { revision: 2, shown: false })], t0 + 5_000);
    await runAt(notifier, t0 + 2 * MINUTE);
    expect(await run.requests()).toEqual([]);
    expect(await pendingOf(notifier)).toEqual([]);
  });

  it("a job deleted after it was announced: URL_DELETED for the addresses it was announced at", async () => {
    const { run, notifier } = await setUp();
    const t0 = Date.now();
    await gather(notifier, [pageChange(104)], t0);
    await runAt(notifier, t0 + MINUTE);
    await gather(notifier, [pageChange(104, { revision: 2, deleted: true, shown: false, paths: [], digest: null, closeAt: 0 })], t0 + 2 * MINUTE);
    await runAt(notifier, t0 + 3 * MINUTE);
    expect((await googleNotices(run)).slice(2)).toEqual(addressesOf(104).map((url) => ({ url, type: "URL_DELETED" })));
  });

  it("a change that alters nothing a search engine shows sends nothing; an older revision arriving late changes nothing", async () => {
    const { run, notifier } = await setUp();
    const t0 = Date.now();
    await gather(notifier, [pageChange(105, { revision: 3 })], t0);
    await runAt(notifier, t0 + MINUTE);
    await gather(notifier, [pageChange(105, { revision: 4 })], t0 + 2 * MINUTE);
    await gather(notifier, [pageChange(105, { revision: 2, shown: false })], t0 + 2 * MINUTE);
    await runAt(notifier, t0 + 4 * MINUTE);
    expect(await googleNotices(run)).toHaveLength(2);
    expect(await indexNowBodies(run)).toHaveLength(1);
  });

  it("a title change moves the canonical address: the new addresses and the old ones (which now redirect) are sent as URL_UPDATED", async () => {
    const { run, notifier } = await setUp();
    const t0 = Date.now();
    await gather(notifier, [pageChange(106)], t0);
    await runAt(notifier, t0 + MINUTE);
    const moved = pageChange(106, { revision: 2, digest: "facts-2", paths: ["/jobs/106-lead-clerk", "/fr/emplois/106-lead-clerk"] });
    await gather(notifier, [moved], t0 + 2 * MINUTE);
    await runAt(notifier, t0 + 3 * MINUTE);
    const sent = (await googleNotices(run)).slice(2);
    expect(sent).toEqual(expect.arrayContaining([...addressesOf(106, "lead-clerk"), ...addressesOf(106)].map((url) => ({ url, type: "URL_UPDATED" }))));
    expect(sent).toHaveLength(4);
  });

  it("a page whose closeDate passes is sent as URL_DELETED without waiting for the cron's job.expired", async () => {
    const { run, notifier } = await setUp();
    const t0 = Date.now();
    await gather(notifier, [pageChange(107, { closeAt: t0 + 5 * MINUTE })], t0);
    await runAt(notifier, t0 + MINUTE);
    await runAt(notifier, t0 + 5 * MINUTE);
    await runAt(notifier, t0 + 6 * MINUTE);
    expect((await googleNotices(run)).slice(2)).toEqual(addressesOf(107).map((url) => ({ url, type: "URL_DELETED" })));
    // The cron's job.expired, later: nothing more.
    await gather(notifier, [pageChange(107, { revision: 2, shown: false })], t0 + 60 * MINUTE);
    await runAt(notifier, t0 + 62 * MINUTE);
    expect(await googleNotices(run)).toHaveLength(4);
  });

  it("a test-space job is never sent (nor kept)", async () => {
    const { run, notifier } = await setUp();
    const t0 = Date.now();
    await gather(notifier, [pageChange(108, { test: true, shown: false })], t0);
    await runAt(notifier, t0 + 2 * MINUTE);
    expect(await run.requests()).toEqual([]);
    expect(await pendingOf(notifier)).toEqual([]);
  });
});

describe("Google's daily quota (DESIGN 24: past it, notices wait for the next UTC day, deletions first, then oldest; IndexNow has none)", () => {
  it("past the quota the rest waits for the next UTC day: deletions first, then the oldest", async () => {
    const { run, notifier } = await setUp({ INDEXNOW_KEY: "" });
    // Day one (tomorrow, UTC, so that no real alarm comes before the test's runs): two pages announced (4 sends of the default quota).
    const dayOne = nextUtcDay(Date.now()) + 10 * 60 * MINUTE;
    await gather(notifier, [pageChange(201, { closeAt: dayOne + 30 * DAY }), pageChange(202, { closeAt: dayOne + 30 * DAY })], dayOne);
    await runAt(notifier, dayOne + MINUTE);
    expect(await googleNotices(run)).toHaveLength(4);
    // Day two, a quota of 3: three new pages (oldest first), then the two known ones leave.
    await configure(notifier, reachSettingsFor(run, account, { INDEXNOW_KEY: "", GOOGLE_INDEXING_DAILY_QUOTA: "3" }));
    const dayTwo = dayOne + DAY;
    for (const [i, jobId] of [203, 204, 205].entries()) await gather(notifier, [pageChange(jobId, { closeAt: dayTwo + 30 * DAY })], dayTwo + i * 1000);
    await gather(notifier, [pageChange(201, { revision: 2, shown: false }), pageChange(202, { revision: 2, shown: false })], dayTwo + 10_000);
    await runAt(notifier, dayTwo + 2 * MINUTE);
    expect((await googleNotices(run)).slice(4)).toEqual([
      { url: addressesOf(201)[0], type: "URL_DELETED" },
      { url: addressesOf(201)[1], type: "URL_DELETED" },
      { url: addressesOf(202)[0], type: "URL_DELETED" },
    ]);
    // Nothing more that day; the next alarm is the next UTC day's start.
    await runAt(notifier, dayTwo + 3 * MINUTE);
    expect(await googleNotices(run)).toHaveLength(7);
    expect(await alarmOf(notifier)).toBe(nextUtcDay(dayTwo));
    // Day three: the last deletion, then the oldest pages.
    await runAt(notifier, nextUtcDay(dayTwo));
    expect((await googleNotices(run)).slice(7)).toEqual([
      { url: addressesOf(202)[1], type: "URL_DELETED" },
      { url: addressesOf(203)[0], type: "URL_UPDATED" },
      { url: addressesOf(203)[1], type: "URL_UPDATED" },
    ]);
  });

  it("IndexNow has no quota: every due address goes, in one request of up to 10 000", async () => {
    const { run, notifier } = await setUp({ GOOGLE_INDEXING_DAILY_QUOTA: "0" });
    const t0 = Date.now();
    const jobs = Array.from({ length: 300 }, (_, i) => 1000 + i);
    await gather(notifier, jobs.map((jobId) => pageChange(jobId)), t0);
    await runAt(notifier, t0 + MINUTE);
    const bodies = await indexNowBodies(run);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toEqual({ host: "jobs.example.test", key: INDEXNOW_KEY, keyLocation: `${ORIGIN}/${INDEXNOW_KEY}.txt`, urlList: jobs.flatMap((jobId) => addressesOf(jobId)) });
    expect(await googleNotices(run)).toEqual([]);
  });
});

describe("retries (DESIGN 24: with backoff on 429 and 5xx, never on other 4xx)", () => {
  it("Google's 429 and 503 are tried again after a backoff, then sent; every try is in the send log", async () => {
    const { run, notifier } = await setUp({ INDEXNOW_KEY: "" });
    await run.script("google", [429, 503]);
    const t0 = Date.now();
    await gather(notifier, [pageChange(301, { paths: ["/jobs/301-clerk"] })], t0);
    await runAt(notifier, t0 + MINUTE);
    // Within the backoff (30 s after the first failure), nothing is tried.
    await runAt(notifier, t0 + MINUTE + 10_000);
    expect(await run.requests("google")).toHaveLength(1);
    await runAt(notifier, t0 + MINUTE + 30_000);
    expect(await run.requests("google")).toHaveLength(2);
    // The second failure doubles the wait (60 s).
    await runAt(notifier, t0 + MINUTE + 60_000);
    expect(await run.requests("google")).toHaveLength(2);
    await runAt(notifier, t0 + MINUTE + 90_000);
    expect(await run.requests("google")).toHaveLength(3);
    expect((await sendLog(notifier)).map(({ url, type, status, outcome, attempt, service }) => ({ service, url, type, status, outcome, attempt }))).toEqual([
      { service: "google", url: `${ORIGIN}/jobs/301-clerk`, type: "URL_UPDATED", status: 429, outcome: "retry", attempt: 1 },
      { service: "google", url: `${ORIGIN}/jobs/301-clerk`, type: "URL_UPDATED", status: 503, outcome: "retry", attempt: 2 },
      { service: "google", url: `${ORIGIN}/jobs/301-clerk`, type: "URL_UPDATED", status: 200, outcome: "sent", attempt: 3 },
    ]);
    expect(await pendingOf(notifier)).toEqual([]);
  });

  for (const status of [400, 403]) {
    it(`Google's ${status} is never tried again: recorded as rejected`, async () => {
      const { run, notifier } = await setUp({ INDEXNOW_KEY: "" });
      await run.script("google", [status]);
      const t0 = Date.now();
      await gather(notifier, [pageChange(302, { paths: ["/jobs/302-clerk"] })], t0);
      await runAt(notifier, t0 + MINUTE);
      await runAt(notifier, t0 + 2 * 60 * MINUTE);
      expect(await run.requests("google")).toHaveLength(1);
      expect((await sendLog(notifier)).map((send) => [send.status, send.outcome])).toEqual([[status, "rejected"]]);
    });
  }

  it("IndexNow's 500 is tried again; its 422 never", async () => {
    const { run, notifier } = await setUp({}, false);
    await run.script("indexnow", [500, 200, 422]);
    const t0 = Date.now();
    await gather(notifier, [pageChange(303)], t0);
    await runAt(notifier, t0 + MINUTE);
    await runAt(notifier, t0 + MINUTE + 30_000);
    await gather(notifier, [pageChange(303, { revision: 2, digest: "facts-2" })], t0 + 5 * MINUTE);
    await runAt(notifier, t0 + 6 * MINUTE);
    await runAt(notifier, t0 + 60 * MINUTE);
    expect(await run.requests("indexnow")).toHaveLength(3);
    expect((await sendLog(notifier)).map((send) => [send.status, send.outcome])).toEqual([
      [500, "retry"],
      [500, "retry"],
      [200, "sent"],
      [200, "sent"],
      [422, "rejected"],
      [422, "rejected"],
    ]);
  });
});

describe("Google's service account (DESIGN 24a: a JWT signed RS256, exchanged by the JWT-bearer grant; the token reused until a minute before it expires)", () => {
  it("the assertion is signed by the account's key (verified with its public key) and carries exactly the claims of 24a", async () => {
    const { run, notifier } = await setUp({ INDEXNOW_KEY: "" });
    const t0 = Date.now();
    await gather(notifier, [pageChange(401)], t0);
    await runAt(notifier, t0 + MINUTE);
    const [tokenRequest] = await run.requests("token");
    expect(tokenRequest.contentType).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(tokenRequest.body);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const [header, claims, signature] = form.get("assertion")!.split(".");
    const decode = (part: string) => Uint8Array.from(atob(part.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0));
    const verified = await crypto.subtle.verify("RSASSA-PKCS1-v1_5", account.publicKey, decode(signature), new TextEncoder().encode(`${header}.${claims}`));
    expect(verified).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(decode(header)))).toEqual({ alg: "RS256", typ: "JWT" });
    const payload = JSON.parse(new TextDecoder().decode(decode(claims)));
    const iat = Math.floor((t0 + MINUTE) / 1000);
    expect(payload).toEqual({ iss: account.email, scope: "https://www.googleapis.com/auth/indexing", aud: run.endpoints.GOOGLE_TOKEN_ENDPOINT, iat, exp: iat + 3600 });
    // Each address: one POST with the token.
    const publishes = await run.requests("google");
    expect(publishes.map((request) => request.authorization)).toEqual([`Bearer token-${run.id}-1`, `Bearer token-${run.id}-1`]);
    expect(publishes.every((request) => request.contentType === "application/json")).toBe(true);
  });

  it("the token is reused while it has more than a minute left, and renewed after", async () => {
    const { run, notifier } = await setUp({ INDEXNOW_KEY: "" });
    const t0 = Date.now();
    await gather(notifier, [pageChange(402, { paths: ["/jobs/402-clerk"] })], t0);
    await runAt(notifier, t0 + MINUTE);
    // The token, issued at 1:00 for 60 minutes, still has 2 at 59:00: reused.
    await gather(notifier, [pageChange(402, { revision: 2, digest: "facts-2", paths: ["/jobs/402-clerk"] })], t0 + 58 * MINUTE);
    await runAt(notifier, t0 + 59 * MINUTE);
    expect(await run.requests("token")).toHaveLength(1);
    // At 60:30 it has 30 s left, less than a minute: renewed.
    await gather(notifier, [pageChange(402, { revision: 3, digest: "facts-3", paths: ["/jobs/402-clerk"] })], t0 + 59 * MINUTE + 30_000);
    await runAt(notifier, t0 + 60 * MINUTE + 30_000);
    expect(await run.requests("token")).toHaveLength(2);
    expect((await run.requests("google")).map((request) => request.authorization)).toEqual([`Bearer token-${run.id}-1`, `Bearer token-${run.id}-1`, `Bearer token-${run.id}-2`]);
  });

  it("a token endpoint's 503 waits and tries again; its 400 (a key Google refuses) gives the notices up", async () => {
    const { run, notifier } = await setUp({ INDEXNOW_KEY: "" });
    await run.script("token", [503, 400]);
    const t0 = Date.now();
    await gather(notifier, [pageChange(403, { paths: ["/jobs/403-clerk"] })], t0);
    await runAt(notifier, t0 + MINUTE);
    expect(await pendingOf(notifier)).toHaveLength(1);
    await runAt(notifier, t0 + 2 * MINUTE);
    await runAt(notifier, t0 + 10 * MINUTE);
    expect(await run.requests("token")).toHaveLength(2);
    expect(await run.requests("google")).toHaveLength(0);
    expect((await sendLog(notifier)).map((send) => [send.status, send.outcome])).toEqual([
      [503, "retry"],
      [400, "rejected"],
    ]);
  });
});

describe("off unless configured (DESIGN 24: each service on only when its settings are present; anything invalid fails safe)", () => {
  it("with no settings nothing waits and nothing is sent", async () => {
    const run = stubRun();
    const notifier = freshNotifier();
    await configure(notifier, { ...run.endpoints, BASE_URL: ORIGIN, INDEXNOW_KEY: "", GOOGLE_INDEXING_SERVICE_ACCOUNT: undefined });
    const t0 = Date.now();
    await gather(notifier, [pageChange(501)], t0);
    await runAt(notifier, t0 + MINUTE);
    expect(await pendingOf(notifier)).toEqual([]);
    expect(await run.requests()).toEqual([]);
  });

  for (const [name, settings] of [
    ["a service account that is not JSON, and a key with a space", { GOOGLE_INDEXING_SERVICE_ACCOUNT: "{not json", INDEXNOW_KEY: "not a key" }],
    ["a quota that is not a number, and an endpoint that is not an address", { GOOGLE_INDEXING_DAILY_QUOTA: "lots", INDEXNOW_ENDPOINT: "ftp://nowhere" }],
    ["no BASE_URL (the pages' public origin is unknown)", { BASE_URL: "" }],
  ] as const) {
    it(`invalid settings turn the service off, logged, never a failure: ${name}`, async () => {
      const { run, notifier } = await setUp(settings);
      const t0 = Date.now();
      await gather(notifier, [pageChange(502)], t0);
      await runAt(notifier, t0 + MINUTE);
      expect(await run.requests()).toEqual([]);
    });
  }

  it("a token endpoint that answers 200 without a token is the endpoint's failure: tried again", async () => {
    const { run, notifier } = await setUp({ INDEXNOW_KEY: "", GOOGLE_TOKEN_ENDPOINT: "http://indexnow.reach.test/not-a-token-endpoint" });
    const t0 = Date.now();
    await gather(notifier, [pageChange(503, { paths: ["/jobs/503-clerk"] })], t0);
    await runAt(notifier, t0 + MINUTE);
    expect((await sendLog(notifier)).map((send) => [send.status, send.outcome])).toEqual([[502, "retry"]]);
    expect(await run.requests("google")).toEqual([]);
  });
});

describe("IndexNow's key file (DESIGN 24a: GET /{key}.txt answers the key as text/plain)", () => {
  const get = (path: string, settings: Record<string, string>) =>
    worker.fetch(new Request(`https://api.test${path}`), { ...env, ...settings }, { waitUntil: () => {}, passThroughOnException: () => {} } as unknown as ExecutionContext);

  it("the configured key's file answers the key as text/plain", async () => {
    const res = await get(`/${INDEXNOW_KEY}.txt`, { INDEXNOW_KEY });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(INDEXNOW_KEY);
  });

  it("another key's file, or any key's when IndexNow is off (or its key invalid), is the usual 404 problem", async () => {
    for (const [path, settings] of [
      ["/another-key-0123456789.txt", { INDEXNOW_KEY }],
      [`/${INDEXNOW_KEY}.txt`, { INDEXNOW_KEY: "" }],
      ["/not a key.txt", { INDEXNOW_KEY: "not a key" }],
    ] as const) {
      const res = await get(path, settings);
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    }
    // robots.txt is still the pages'.
    expect((await get("/robots.txt", { INDEXNOW_KEY })).status).toBe(200);
  });
});

describe("receipts (DESIGN 16a: what reach took is recorded in the write that gathers it, kept 8 days)", () => {
  it("the events of a gathered batch are taken, per shard; others are not; the receipts go after 8 days", async () => {
    const { notifier } = await setUp();
    const t0 = Date.now();
    await gather(notifier, [pageChange(601)], t0, [
      { shard: 0, ids: ["evt-a", "evt-b"] },
      { shard: 1, ids: ["evt-c"] },
    ]);
    expect(await notifier.taken(0, ["evt-a", "evt-b", "evt-c", "evt-x"])).toEqual(["evt-a", "evt-b"]);
    expect(await notifier.taken(1, ["evt-a", "evt-c"])).toEqual(["evt-c"]);
    await runAt(notifier, t0 + 8 * DAY + 1);
    expect(await notifier.taken(0, ["evt-a", "evt-b"])).toEqual([]);
  });

  it("reachTakenEvents asks the Worker's notifier", async () => {
    expect(await reachTakenEvents(env, 0, [])).toEqual([]);
    expect(await reachTakenEvents(env, 0, ["never-handed-over"])).toEqual([]);
  });
});

