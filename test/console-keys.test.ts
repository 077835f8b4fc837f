import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashApiKey } from "../src/auth/api-keys";
import worker from "../src/index";
import { BASE, createEmployer, request, shardDb, type TestEmployer } from "./support/api";
import { call, signedIn } from "./support/console";
import { jobBody } from "./support/jobs";

// DESIGN 25, 25a: API keys in the employer console, for admins — made as `npm run keys` makes
// them, shown once, revoked, rolled; the hour each was last used. Driven over HTTP through the
// Worker's entry; the API is called with `call` too, so that the work after its answer (the
// last-used write) is waited for.

const HOUR = 3_600_000;
let counter = 0;
const address = () => `keys${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;

afterEach(() => vi.useRealTimers());

async function adminOf(options: { shard?: number; lang?: "en" | "fr" } = {}) {
  const employer = await createEmployer({ shard: options.shard });
  return { employer, cookie: await signedIn(employer.employerId, address(), { role: "admin", lang: options.lang }) };
}

/** POST /employer/keys: the answer and the key it shows. */
async function newKey(cookie: string, test = false) {
  const res = await call("/employer/keys", { cookie, form: test ? { test: "yes" } : {} });
  const html = await res.text();
  const key = html.match(/<code>(jpa_[A-Za-z0-9_-]+)<\/code>/)?.[1];
  return { res, html, key: key! };
}

const apiGet = (apiKey: string, path = "/api/v1.1/jobs") => call(path, { headers: { "API-Key": apiKey } });
const kvRecord = async (apiKey: string) => env.API_KEYS.get(await hashApiKey(apiKey), "json");
const keyRow = async (employer: TestEmployer, apiKey: string) =>
  shardDb(employer.shard)
    .prepare("SELECT employer_id AS employerId, prefix, last_used_at AS lastUsedAt, expires_at AS expiresAt FROM api_keys WHERE hash = ?")
    .bind(await hashApiKey(apiKey))
    .first<{ employerId: number; prefix: string; lastUsedAt: number | null; expiresAt: number | null }>();

describe("making a key (DESIGN 25a: POST /employer/keys answers 200 with the key shown once)", () => {
  it("a new key is shown once: it works on the API at once, and the list shows its prefix, never the key", async () => {
    const { employer, cookie } = await adminOf();
    const { res, html, key } = await newKey(cookie);
    expect(res.status).toBe(200);
    expect(key).toMatch(/^jpa_[A-Za-z0-9_-]{43}$/);
    expect(html).toContain('role="status"');

    expect((await apiGet(key)).status).toBe(200);
    expect(await kvRecord(key)).toEqual({ employerId: employer.employerId });
    expect(await keyRow(employer, key)).toMatchObject({ employerId: employer.employerId, prefix: key.slice(0, 12) });

    const list = await call("/employer/keys", { cookie });
    expect(list.status).toBe(200);
    const listed = await list.text();
    expect(listed).not.toContain(key);
    expect(listed).toContain(`<code>${key.slice(0, 12)}…</code>`);
    expect(listed).toMatch(/<caption>Your API keys<\/caption>/);
  });

  it("a test key (field test) is jpa_test_… and works in the test space only (DESIGN 21)", async () => {
    const { employer, cookie } = await adminOf();
    const live = (await newKey(cookie)).key;
    const { res, key } = await newKey(cookie, true);
    expect(res.status).toBe(200);
    expect(key).toMatch(/^jpa_test_[A-Za-z0-9_-]{43}$/);
    const record = (await kvRecord(key)) as { employerId: number; test: boolean };
    expect(record.test).toBe(true);
    expect(record.employerId).not.toBe(employer.employerId);

    const created = await request("/jobs", { method: "POST", apiKey: key, json: jobBody() });
    expect(created.status).toBe(201);
    const { id } = await created.json<{ id: number }>();
    expect((await apiGet(key, `/api/v1.1/jobs/${id}`)).status).toBe(200);
    // A 404 across, as for another employer.
    expect((await apiGet(live, `/api/v1.1/jobs/${id}`)).status).toBe(404);
    // The list shows both kinds.
    const listed = await (await call("/employer/keys", { cookie })).text();
    expect(listed).toContain(`<code>${key.slice(0, 12)}…</code>`);
    expect(listed).toContain("<td>Test</td>");
    expect(listed).toContain("<td>Live</td>");
  });

  it("the key's record carries the employer's shard (DESIGN 22), and works there", async () => {
    const { employer, cookie } = await adminOf({ shard: 1 });
    const { key } = await newKey(cookie);
    expect(await kvRecord(key)).toEqual({ employerId: employer.employerId, shard: 1 });
    expect(await keyRow(employer, key)).not.toBeNull();
    expect((await apiGet(key)).status).toBe(200);
  });

  it("keys made before prefixes were kept are listed without one, and said so", async () => {
    const { cookie } = await adminOf();
    const html = await (await call("/employer/keys", { cookie })).text();
    // createEmployer's key is listed in api_keys with no prefix, as keys made before.
    expect(html).toContain("no prefix (made before prefixes were kept)");
    expect(html).toContain("npm run keys -- revoke");
  });
});

describe("revoking (DESIGN 25a: POST /employer/keys/{prefix}/revoke)", () => {
  it("revoke deletes the key's KV record and its row; the API then answers 401", async () => {
    const { employer, cookie } = await adminOf();
    // Never used: no isolate holds it in its key cache, so its 401 comes at once. A key used a
    // moment before is accepted by isolates that cached it for up to their cache's minute (docs/
    // security.md): for that one, what is checked is that its record is gone.
    const unused = (await newKey(cookie)).key;
    const used = (await newKey(cookie)).key;
    expect((await apiGet(used)).status).toBe(200);

    for (const key of [unused, used]) {
      const res = await call(`/employer/keys/${key.slice(0, 12)}/revoke`, { cookie, form: {} });
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe(`/employer/keys?revoked=${key.slice(0, 12)}`);
      expect(await kvRecord(key)).toBeNull();
      expect(await keyRow(employer, key)).toBeNull();
    }
    expect((await apiGet(unused)).status).toBe(401);
    const page = await (await call(`/employer/keys?revoked=${used.slice(0, 12)}`, { cookie })).text();
    expect(page).toContain(`Key ${used.slice(0, 12)}… revoked.`);
    expect(page).not.toContain(`<code>${used.slice(0, 12)}…</code>`);
  });

  it("another employer's prefix: 404, and its key still works", async () => {
    const { cookie } = await adminOf();
    const other = await adminOf();
    const { key } = await newKey(other.cookie);
    expect((await call(`/employer/keys/${key.slice(0, 12)}/revoke`, { cookie, form: {} })).status).toBe(404);
    expect((await call(`/employer/keys/${key.slice(0, 12)}/roll`, { cookie, form: { overlapHours: "0" } })).status).toBe(404);
    expect((await call(`/employer/keys/${key.slice(0, 12)}/roll`, { cookie, form: { overlapHours: "99" } })).status).toBe(404);
    expect((await call("/employer/keys/jpa_nothing0/revoke", { cookie, form: {} })).status).toBe(404);
    expect(await kvRecord(key)).not.toBeNull();
    expect((await apiGet(key)).status).toBe(200);
  });
});

describe("rolling (DESIGN 25a: POST /employer/keys/{prefix}/roll, overlapHours 0–24)", () => {
  it("with 0 hours: a new key shown once, and the old key's record is gone at once", async () => {
    const { employer, cookie } = await adminOf();
    const old = (await newKey(cookie)).key;
    const res = await call(`/employer/keys/${old.slice(0, 12)}/roll`, { cookie, form: { overlapHours: "0" } });
    expect(res.status).toBe(200);
    const fresh = (await res.text()).match(/<code>(jpa_[A-Za-z0-9_-]{43})<\/code>/)![1];
    expect(fresh).not.toBe(old);
    expect((await apiGet(fresh)).status).toBe(200);
    expect(await kvRecord(old)).toBeNull();
    expect(await keyRow(employer, old)).toBeNull();
    expect((await apiGet(old)).status).toBe(401);
  });

  it("with 2 hours: the old key keeps working, its record expiring about 2 hours ahead, marked in its row", async () => {
    const { employer, cookie } = await adminOf();
    const old = (await newKey(cookie, true)).key;
    const before = Date.now();
    const res = await call(`/employer/keys/${old.slice(0, 12)}/roll`, { cookie, form: { overlapHours: "2" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const fresh = html.match(/<code>(jpa_test_[A-Za-z0-9_-]{43})<\/code>/)![1];
    expect((await apiGet(fresh)).status).toBe(200);

    expect((await apiGet(old)).status).toBe(200);
    const hash = await hashApiKey(old);
    const { keys } = await env.API_KEYS.list({ prefix: hash });
    const expiration = keys[0].expiration! * 1000;
    expect(expiration).toBeGreaterThanOrEqual(before + 2 * HOUR);
    expect(expiration).toBeLessThan(Date.now() + 2 * HOUR + 60_000);
    const row = (await keyRow(employer, old))!;
    expect(row.expiresAt).toBeGreaterThanOrEqual(before + 2 * HOUR);
    expect(row.expiresAt).toBeLessThanOrEqual(Date.now() + 2 * HOUR);
    expect(await kvRecord(old)).toMatchObject({ test: true, expiresAt: row.expiresAt });
    expect(html).toContain("then stops (rolled)");

    // Rolled once: rolling it again is refused, nothing made.
    const again = await call(`/employer/keys/${old.slice(0, 12)}/roll`, { cookie, form: { overlapHours: "1" } });
    expect(again.status).toBe(409);
    expect(await again.text()).not.toMatch(/<code>jpa_/);
  });

  it("once its hours have passed, a rolled key stops even where its KV entry outlived them (a move rewrites it)", async () => {
    const { cookie } = await adminOf();
    const old = (await newKey(cookie)).key;
    await call(`/employer/keys/${old.slice(0, 12)}/roll`, { cookie, form: { overlapHours: "1" } });
    const record = (await kvRecord(old)) as Record<string, unknown>;
    // Written again without its expiration, as moving the employer writes it.
    await env.API_KEYS.put(await hashApiKey(old), JSON.stringify(record));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Number(record.expiresAt) + 1);
    expect((await apiGet(old)).status).toBe(401);
    // And it is no longer listed.
    expect(await (await call("/employer/keys", { cookie })).text()).not.toContain(`<code>${old.slice(0, 12)}…</code>`);
  });

  it("overlapHours outside 0–24 (25, -1, 1.5, empty): 422, the message beside the field, nothing changed", async () => {
    const { employer, cookie } = await adminOf();
    const old = (await newKey(cookie)).key;
    const prefix = old.slice(0, 12);
    for (const overlapHours of ["25", "-1", "1.5", ""]) {
      const res = await call(`/employer/keys/${prefix}/roll`, { cookie, form: { overlapHours } });
      expect(res.status, overlapHours).toBe(422);
      const html = await res.text();
      expect(html).toContain(`id="overlap-${prefix}" name="overlapHours" type="number" min="0" max="24" step="1" required="" value="${overlapHours}" aria-invalid="true" aria-describedby="overlap-${prefix}-error"`);
      expect(html).toContain(`<strong id="overlap-${prefix}-error" class="error">Enter a whole number of hours from 0 to 24.</strong>`);
      expect(html).not.toMatch(/<code>jpa_[A-Za-z0-9_-]{43}<\/code>/);
    }
    expect(await kvRecord(old)).toEqual({ employerId: employer.employerId });
    expect((await keyRow(employer, old))!.expiresAt).toBeNull();
    const count = await shardDb(0).prepare("SELECT count(*) AS n FROM api_keys WHERE employer_id = ?").bind(employer.employerId).first();
    expect(count).toEqual({ n: 2 });
  });
});

describe("last used, to the hour (DESIGN 25: recorded at most once an hour per key, after the answer)", () => {
  it("an API request records the hour it was used in; a second one within the hour writes nothing", async () => {
    // Within one hour whatever the clock says, so that no hour begins between the requests.
    vi.useFakeTimers({ toFake: ["Date"] });
    const hour = Date.now() - (Date.now() % HOUR);
    vi.setSystemTime(hour + 30 * 60_000);
    const { employer, cookie } = await adminOf();
    const { key } = await newKey(cookie);
    const prefixCell = `<td><code>${key.slice(0, 12)}…</code></td><td>Live</td><td>[^<]+</td>`;
    expect((await keyRow(employer, key))!.lastUsedAt).toBeNull();
    expect(await (await call("/employer/keys", { cookie })).text()).toMatch(new RegExp(`${prefixCell}<td>Not recorded yet</td>`));

    expect((await apiGet(key)).status).toBe(200);
    expect((await keyRow(employer, key))!.lastUsedAt).toBe(hour);

    // A mark the next write would replace: it stays, so no second write was made.
    const marker = hour - 5 * HOUR;
    await shardDb(0).prepare("UPDATE api_keys SET last_used_at = ? WHERE hash = ?").bind(marker, await hashApiKey(key)).run();
    expect((await apiGet(key)).status).toBe(200);
    expect((await keyRow(employer, key))!.lastUsedAt).toBe(marker);

    // The next hour, once more.
    vi.setSystemTime(hour + HOUR + 5_000);
    expect((await apiGet(key)).status).toBe(200);
    expect((await keyRow(employer, key))!.lastUsedAt).toBe(hour + HOUR);
    const listed = await (await call("/employer/keys", { cookie })).text();
    const shown = new Intl.DateTimeFormat("en-CA", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(hour + HOUR);
    expect(listed).toMatch(new RegExp(`${prefixCell}<td>${shown} UTC</td>`));
  });

  it("the write is not part of the answer: none is made before the Worker answers, one after", async () => {
    const { cookie } = await adminOf();
    const { key } = await newKey(cookie);
    const updates: string[] = [];
    const watched = new Proxy(env.DB, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "prepare") return (query: string) => (/^UPDATE api_keys SET last_used_at/.test(query) && updates.push(query), target.prepare(query));
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const afterAnswer: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => void afterAnswer.push(work), passThroughOnException() {} };
    const res = await worker.fetch!(new Request(`${BASE}/api/v1.1/jobs`, { headers: { "API-Key": key } }) as never, { ...env, DB: watched } as never, ctx as never);
    expect(res.status).toBe(200);
    expect(updates).toHaveLength(0);
    await Promise.all(afterAnswer);
    expect(updates).toHaveLength(1);
  });
});

describe("admins only (DESIGN 25a: a recruiter gets 403)", () => {
  it("a recruiter gets 403 on every keys page and POST, and nothing is made or changed", async () => {
    const { employer, cookie } = await adminOf();
    const { key } = await newKey(cookie);
    const recruiter = await signedIn(employer.employerId, address(), { role: "recruiter" });
    const prefix = key.slice(0, 12);
    for (const [path, form] of [
      ["/employer/keys", undefined],
      ["/employer/keys", {}],
      ["/employer/keys", { test: "yes" }],
      [`/employer/keys/${prefix}/revoke`, {}],
      [`/employer/keys/${prefix}/roll`, { overlapHours: "0" }],
    ] as const) {
      const res = await call(path, { cookie: recruiter, form });
      expect(res.status, path).toBe(403);
      expect(await res.text()).toContain("For administrators only");
    }
    expect(await kvRecord(key)).toEqual({ employerId: employer.employerId });
    const count = await shardDb(0).prepare("SELECT count(*) AS n FROM api_keys WHERE employer_id = ?").bind(employer.employerId).first();
    expect(count).toEqual({ n: 2 });
  });

  it("a POST whose Origin is foreign: 403, and nothing made or revoked", async () => {
    const { employer, cookie } = await adminOf();
    const { key } = await newKey(cookie);
    const evil = "https://evil.example";
    expect((await call("/employer/keys", { cookie, form: {}, origin: evil })).status).toBe(403);
    expect((await call(`/employer/keys/${key.slice(0, 12)}/revoke`, { cookie, form: {}, origin: evil })).status).toBe(403);
    expect((await call(`/employer/keys/${key.slice(0, 12)}/roll`, { cookie, form: { overlapHours: "0" }, origin: evil })).status).toBe(403);
    expect(await kvRecord(key)).toEqual({ employerId: employer.employerId });
    const count = await shardDb(0).prepare("SELECT count(*) AS n FROM api_keys WHERE employer_id = ?").bind(employer.employerId).first();
    expect(count).toEqual({ n: 2 });
  });

  it("in French for a French-speaking admin", async () => {
    const { cookie } = await adminOf({ lang: "fr" });
    const { html } = await newKey(cookie, true);
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("<h1>Clés d&#39;API</h1>");
    expect(html).toContain("affichée cette seule fois");
    expect(html).toContain("<td>Test</td>");
    expect(html).toContain("Remplacer");
  });
});
