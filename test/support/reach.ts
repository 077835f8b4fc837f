import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../../src/env";
import { NOTIFIER_NAME, type GatheredBatch, type ReachNotifier } from "../../src/reach/notifier";
import type { PageChange } from "../../src/reach/rules";
import type { StubRequest, StubService } from "./reach-stubs";

// Reach in tests (DESIGN 24): the notifier (a Durable Object) with its settings pointed at the
// stubs of test/support/reach-stubs.ts, under a run of its own, and driven by the test: changes
// handed to it as the consumer hands them, its runs at a `now` the test chooses (so a gathering
// minute or a UTC day passes without waiting).

export const ORIGIN = "https://jobs.example.test";

/** A service account's JSON key as Google issues it, made for this test (never a real key), and its public key. */
export async function testServiceAccount(email = "reach-test@project.iam.gserviceaccount.com") {
  const pair = (await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const der = new Uint8Array((await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer);
  const base64 = btoa(String.fromCharCode(...der)).replace(/(.{64})/g, "$1\n");
  const privateKey = `-----BEGIN PRIVATE KEY-----\n${base64}\n-----END PRIVATE KEY-----\n`;
  const json = JSON.stringify({ type: "service_account", project_id: "reach-test", private_key_id: "0", private_key: privateKey, client_email: email, token_uri: "https://oauth2.googleapis.com/token" });
  return { json, email, publicKey: pair.publicKey };
}

/** A run of the stubs: its settings for the notifier, and what its services received. */
export function stubRun(id = crypto.randomUUID()) {
  const control = (action: string, body?: unknown) =>
    fetch(`http://control.reach.test/${id}/${action}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
  return {
    id,
    endpoints: {
      GOOGLE_TOKEN_ENDPOINT: `http://oauth.reach.test/${id}/token`,
      GOOGLE_INDEXING_ENDPOINT: `http://google.reach.test/${id}/publish`,
      INDEXNOW_ENDPOINT: `http://indexnow.reach.test/${id}/indexnow`,
    },
    /** The next answers of a service (then 200 again). */
    script: async (service: StubService, statuses: number[]) => void (await control("script", { service, statuses })),
    tokenLifetime: async (seconds: number) => void (await control("token-lifetime", { seconds })),
    requests: async (service?: StubService): Promise<StubRequest[]> => {
      const all = (await (await control("requests")).json()) as StubRequest[];
      return service ? all.filter((request) => request.service === service) : all;
    },
  };
}
export type StubRun = ReturnType<typeof stubRun>;

/** Google's requests as `{ url, type }`, in order. */
export const googleNotices = async (run: StubRun) => (await run.requests("google")).map((request) => JSON.parse(request.body) as { url: string; type: string });
/** IndexNow's requests' bodies, in order. */
export const indexNowBodies = async (run: StubRun) =>
  (await run.requests("indexnow")).map((request) => JSON.parse(request.body) as { host: string; key: string; keyLocation: string; urlList: string[] });

export const INDEXNOW_KEY = "reach-test-key-0123456789";

/** Settings that turn both services (or those named) on, pointed at the run's stubs. */
export function reachSettingsFor(run: StubRun, account: { json: string } | null, overrides: Record<string, string | undefined> = {}): Partial<Env> {
  return {
    BASE_URL: ORIGIN,
    INDEXNOW_KEY,
    ...run.endpoints,
    GOOGLE_INDEXING_SERVICE_ACCOUNT: account?.json,
    GOOGLE_INDEXING_DAILY_QUOTA: "200",
    ...overrides,
  };
}

type Notifier = DurableObjectStub<ReachNotifier>;

/** A notifier of its own (not the Worker's "reach"), so a test sees nothing of another's pages. */
export const freshNotifier = (): Notifier => env.REACH.get(env.REACH.idFromName(`test:${crypto.randomUUID()}`)) as unknown as Notifier;
/** The Worker's own notifier, which the reach queue's consumer hands every change to. */
export const workerNotifier = (): Notifier => env.REACH.get(env.REACH.idFromName(NOTIFIER_NAME)) as unknown as Notifier;

/** The notifier sees the Worker's bindings with `settings` in place (a new object: settings are parsed once per bindings). */
export const configure = (notifier: Notifier, settings: Partial<Env>) =>
  runInDurableObject(notifier, (instance) => void ((instance as unknown as { env: Env }).env = { ...env, ...settings } as Env));

export const gather = (notifier: Notifier, changes: PageChange[], now: number, receipts: GatheredBatch["receipts"] = []) => notifier.gather({ changes, receipts, now });

/** One run of the notifier (what its alarm does) at `now`. */
export const runAt = (notifier: Notifier, now: number) => runInDurableObject(notifier, (instance) => (instance as unknown as ReachNotifier).run(now));

export const alarmOf = (notifier: Notifier) => runInDurableObject(notifier, (_, state) => state.storage.getAlarm());

export const pendingOf = (notifier: Notifier) =>
  runInDurableObject(notifier, (_, state) => state.storage.sql.exec<{ service: string; path: string; type: string }>("SELECT service, path, type FROM pending ORDER BY service, path").toArray());

/** What the notifier has gathered of a job's page: its revision and whether the job is deleted (null: nothing yet). */
export const gatheredPageOf = (notifier: Notifier, jobId: number) =>
  runInDurableObject(notifier, (_, state) => state.storage.sql.exec<{ revision: number; deleted: number }>("SELECT revision, deleted FROM pages WHERE job_id = ?", jobId).toArray()[0] ?? null);

/** A job page's change as the consumer hands it over: on the board, with its two addresses, open for a month. */
export function pageChange(jobId: number, overrides: Partial<PageChange> = {}): PageChange {
  return {
    jobId,
    revision: 1,
    deleted: false,
    test: false,
    shown: true,
    paths: [`/jobs/${jobId}-clerk`, `/fr/emplois/${jobId}-clerk`],
    digest: "facts-1",
    closeAt: Date.now() + 30 * 86_400_000,
    ...overrides,
  };
}

export const addressesOf = (jobId: number, slug = "clerk") => [`${ORIGIN}/jobs/${jobId}-${slug}`, `${ORIGIN}/fr/emplois/${jobId}-${slug}`];

export const MINUTE = 60_000;
export const DAY = 86_400_000;
