import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { consumeWebhookBatch } from "../src/webhooks/consumer";
import { BASE, createEmployer, request, type TestEmployer } from "./support/api";
import { call, SESSION_COOKIE, signedIn } from "./support/console";
import { batchOf } from "./support/webhook-queue";

// DESIGN 13, 25, 25a: the console's webhook endpoints, for admins — the API's endpoints, delivery
// log and secret rotation, driven over HTTP as a browser does, checked against the API.

const RECEIVER = "https://receiver.example/hooks";
let counter = 0;
const address = () => `hooks${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;

async function admin(options: { lang?: "en" | "fr" } = {}) {
  const employer = await createEmployer();
  return { employer, cookie: await signedIn(employer.employerId, address(), options) };
}

const apiEndpoints = async (who: TestEmployer) => (await (await request("/webhooks", { apiKey: who.apiKey })).json<{ data: any[] }>()).data;
const apiDeliveries = async (who: TestEmployer, id: number) => (await (await request(`/webhooks/${id}/deliveries`, { apiKey: who.apiKey })).json<{ data: any[] }>()).data;
const apiCreate = async (who: TestEmployer, json: unknown) => (await request("/webhooks", { method: "POST", apiKey: who.apiKey, json })).json<any>();

/** The opening tag of the element with this id (the test fails when there is none). */
function tagOf(html: string, id: string): string {
  const tag = html.match(new RegExp(`<[a-z]+ [^>]*\\bid="${id}"[^>]*>`))?.[0];
  expect(tag, `an element with id ${id}`).toBeDefined();
  return tag!;
}

/** A page's text with its apostrophes as typed (the JSX escapes them). */
const read = async (res: Response) => (await res.text()).replaceAll("&#39;", "'");

const secretsIn = (html: string) => Array.from(html.matchAll(/whsec_[A-Za-z0-9+/]+=*/g), (match) => match[0]);

/** Delivers messages as the queue's consumer does, to a receiver answering `status`; what it received. */
async function deliver(ids: string[], status = 200) {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
    return new Response(null, { status });
  });
  try {
    await consumeWebhookBatch(batchOf(ids).batch, env);
  } finally {
    fetch.mockRestore();
  }
  return received;
}

/**
 * A console POST of a form as a browser sends it, repeated fields included (support's `call` takes
 * one value per name); `strict`: with production's URL rules, not the tests' local ones (http://).
 */
async function post(path: string, cookie: string, fields: Record<string, string | string[]>, options: { strict?: boolean } = {}) {
  const body = new URLSearchParams(Object.entries(fields).flatMap(([name, value]) => [value].flat().map((one) => [name, one])));
  const headers = { Cookie: `${SESSION_COOKIE}=${cookie}`, Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" };
  const ctx = createExecutionContext();
  const bindings = options.strict ? { ...env, WEBHOOKS_ALLOW_INSECURE: undefined } : env;
  const res = await worker.fetch!(new Request(`${BASE}${path}`, { method: "POST", headers, body, redirect: "manual" }) as never, bindings as never, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("webhook endpoints in the console (DESIGN 13, 25)", () => {
  it("GET /employer/webhooks lists the endpoints (url, events, enabled, created) with a form to add one: every event type the API accepts, and all events", async () => {
    const { employer, cookie } = await admin();
    await apiCreate(employer, { url: RECEIVER, events: ["job.created", "application.received"], description: "Our ATS" });
    const res = await call("/employer/webhooks", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<caption>Your webhook endpoints</caption>");
    expect(html).toMatch(new RegExp(`<a href="/employer/webhooks/\\d+">${RECEIVER}</a>`));
    expect(html).toContain("<code>job.created</code>, <code>application.received</code>");
    expect(html).toContain("Our ATS");
    expect(html).toContain("<td>Enabled</td>");
    expect(html).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[^"]+Z">/);
    for (const type of ["job.created", "job.updated", "job.published", "job.archived", "job.expired", "job.expiring", "job.refreshed", "job.deleted", "application.received", "application.status_changed", "application.decision_due"]) {
      expect(tagOf(html, `event-${type.replace(/[^a-z]/g, "-")}`)).toContain(`value="${type}"`);
    }
    expect(tagOf(html, "event-all")).toContain('value="all"');
    expect(html).not.toContain('value="webhook.test"');
    expect(secretsIn(html)).toEqual([]);
  });

  it("adding one answers 200 with its secret shown once; the API lists the same endpoint; no page shows the secret again", async () => {
    const { employer, cookie } = await admin();
    const res = await post("/employer/webhooks", cookie, { url: RECEIVER, events: ["job.created", "job.deleted"], description: "Warehouse ATS" });
    expect(res.status).toBe(200);
    const html = await res.text();
    const [secret] = secretsIn(html);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretsIn(html)).toHaveLength(1);
    expect(html).toContain("shown only this once");

    const [endpoint] = await apiEndpoints(employer);
    expect(endpoint).toMatchObject({ url: RECEIVER, events: ["job.created", "job.deleted"], description: "Warehouse ATS", enabled: true });
    for (const path of ["/employer/webhooks", `/employer/webhooks/${endpoint.id}`]) {
      const page = await (await call(path, { cookie })).text();
      expect(page).toContain(RECEIVER);
      expect(page).not.toContain(secret.slice(6, 30));
    }
    // The secret shown is the one that signs: a test event verifies with it.
    expect((await call(`/employer/webhooks/${endpoint.id}/test`, { cookie, form: {} })).status).toBe(303);
    const [message] = await apiDeliveries(employer, endpoint.id);
    const [delivery] = await deliver([message.id]);
    expect((new Webhook(secret).verify(delivery.body, delivery.headers) as any).type).toBe("webhook.test");
  });

  it("all events is the API's events: [] (every type, those added later too)", async () => {
    const { employer, cookie } = await admin();
    expect((await post("/employer/webhooks", cookie, { url: RECEIVER, events: ["all", "job.created"] })).status).toBe(200);
    const [endpoint] = await apiEndpoints(employer);
    expect(endpoint.events).toEqual([]);
    const html = await (await call(`/employer/webhooks/${endpoint.id}`, { cookie })).text();
    expect(tagOf(html, "event-all")).toContain("checked");
    expect(tagOf(html, "event-job-created")).not.toContain("checked");
  });

  it("invalid input: 422 with each message beside its field (aria-invalid), what was typed kept, nothing saved", async () => {
    const { employer, cookie } = await admin();
    for (const url of ["not an address", "https://10.0.0.7/hooks", "https://169.254.169.254/latest", "https://user:secret@receiver.example/hooks"]) {
      const res = await post("/employer/webhooks", cookie, { url, events: [], description: "x".repeat(201) });
      expect(res.status, url).toBe(422);
      const html = await res.text();
      const field = tagOf(html, "url");
      expect(field).toContain('aria-invalid="true"');
      expect(field).toContain("url-error");
      expect(field).toContain(`value="${url}"`);
      expect(html).toMatch(/<strong id="url-error" class="error">Enter the full address of your receiver: https:\/\//);
      expect(tagOf(html, "events")).toContain('aria-invalid="true"');
      expect(html).toContain('<strong id="events-error" class="error">Choose the events to receive: at least one, or all events.</strong>');
      expect(tagOf(html, "description")).toContain('aria-invalid="true"');
      expect(html).toContain(`value="${"x".repeat(201)}"`);
    }
    // A valid address with a broken other field saves nothing either.
    const partial = await post("/employer/webhooks", cookie, { url: RECEIVER, events: ["job.created"], description: "y".repeat(201) });
    expect(partial.status).toBe(422);
    const html = await partial.text();
    expect(tagOf(html, "url")).not.toContain("aria-invalid");
    expect(tagOf(html, "event-job-created")).toContain("checked");
    expect(await apiEndpoints(employer)).toEqual([]);
  });

  it("http:// where the API refuses it (production): 422 beside the url, nothing saved", async () => {
    const { employer, cookie } = await admin();
    const res = await post("/employer/webhooks", cookie, { url: "http://receiver.example/hooks", events: ["job.created"] }, { strict: true });
    expect(res.status).toBe(422);
    expect(tagOf(await res.text(), "url")).toContain('aria-invalid="true"');
    expect(await apiEndpoints(employer)).toEqual([]);
  });

  it("at most 10 endpoints, as the API: the 11th is 409 with the reason, nothing saved", async () => {
    const { employer, cookie } = await admin();
    for (let i = 0; i < 10; i++) await apiCreate(employer, { url: `${RECEIVER}/${i}` });
    const res = await post("/employer/webhooks", cookie, { url: `${RECEIVER}/eleven`, events: ["all"] });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("You have 10 endpoints, the most allowed");
    expect(html).toContain(`value="${RECEIVER}/eleven"`);
    expect(await apiEndpoints(employer)).toHaveLength(10);
  });

  it("POST /employer/webhooks/{id} changes url, events, description and enabled (303, Saved.), as the API's PUT; invalid: 422, nothing saved", async () => {
    const { employer, cookie } = await admin();
    const { id } = await apiCreate(employer, { url: RECEIVER, events: ["job.created"] });
    const saved = await post(`/employer/webhooks/${id}`, cookie, { url: `${RECEIVER}/v2`, events: ["job.updated", "job.archived"], description: "Changed" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toBe(`/employer/webhooks/${id}?saved`);
    expect((await request(`/webhooks/${id}`, { apiKey: employer.apiKey }).then((r) => r.json<any>()))).toMatchObject({
      url: `${RECEIVER}/v2`,
      events: ["job.updated", "job.archived"],
      description: "Changed",
      enabled: false,
    });
    const html = await (await call(`/employer/webhooks/${id}?saved`, { cookie })).text();
    expect(html).toContain('<p role="status">Saved.</p>');
    expect(html).toContain("<dd>Disabled</dd>");

    const refused = await post(`/employer/webhooks/${id}`, cookie, { url: "https://192.168.1.1/", events: ["job.deleted"], description: "", enabled: "yes" });
    expect(refused.status).toBe(422);
    expect(tagOf(await refused.text(), "url")).toContain('value="https://192.168.1.1/"');
    expect((await request(`/webhooks/${id}`, { apiKey: employer.apiKey }).then((r) => r.json<any>()))).toMatchObject({ url: `${RECEIVER}/v2`, events: ["job.updated", "job.archived"], enabled: false });

    expect((await post(`/employer/webhooks/${id}`, cookie, { url: `${RECEIVER}/v2`, events: ["job.updated"], enabled: "yes" })).status).toBe(303);
    expect((await request(`/webhooks/${id}`, { apiKey: employer.apiKey }).then((r) => r.json<any>())).enabled).toBe(true);
  });

  it("the delivery log shows each delivery (event, status, attempts, last answer), filtered by status and paged as the API's; send again sends one now", async () => {
    const { employer, cookie } = await admin();
    const { id } = await apiCreate(employer, { url: RECEIVER });
    const tested = await call(`/employer/webhooks/${id}/test`, { cookie, form: {} });
    expect(tested.status).toBe(303);
    expect(tested.headers.get("Location")).toBe(`/employer/webhooks/${id}?tested`);
    expect(await (await call(`/employer/webhooks/${id}?tested`, { cookie })).text()).toContain('<p role="status">A test event is on its way');
    await call(`/employer/webhooks/${id}/test`, { cookie, form: {} });
    const [second, first] = await apiDeliveries(employer, id);
    await deliver([first.id], 200);
    await deliver([second.id], 500);

    const html = await (await call(`/employer/webhooks/${id}`, { cookie })).text();
    expect(html).toContain("<caption>Deliveries: page 1 of 1, 2 in all</caption>");
    const row = (messageId: string) => html.match(new RegExp(`<tr><td><code>${messageId}</code></td>.*?</tr>`))?.[0] ?? "";
    expect(row(first.id)).toContain("<td><code>webhook.test</code></td>");
    expect(row(first.id)).toMatch(/<td>delivered<\/td><td>1<\/td><td>200<\/td>/);
    expect(row(second.id)).toMatch(/<td>pending<\/td><td>1<\/td><td>500<\/td><td><time/);

    const delivered = await (await call(`/employer/webhooks/${id}?status=delivered`, { cookie })).text();
    expect(delivered).toContain(first.id);
    expect(delivered).not.toContain(second.id);
    expect(delivered).toMatch(/<option value="delivered" selected="">/);
    const paged = await (await call(`/employer/webhooks/${id}?pageSize=1&page=2`, { cookie })).text();
    expect(paged).toContain("<caption>Deliveries: page 2 of 2, 2 in all</caption>");
    expect(paged).toContain(first.id);
    expect(paged).toContain(`href="/employer/webhooks/${id}?page=1&amp;pageSize=1" rel="prev"`);
    expect((await call(`/employer/webhooks/${id}?pageSize=500`, { cookie })).status).toBe(400);

    const retried = await call(`/employer/webhooks/${id}/deliveries/${second.id}/retry`, { cookie, form: {} });
    expect(retried.status).toBe(303);
    expect(retried.headers.get("Location")).toBe(`/employer/webhooks/${id}?retried`);
    expect((await apiDeliveries(employer, id)).find((m) => m.id === second.id)).toMatchObject({ status: "pending", attempts: 0 });
    expect((await call(`/employer/webhooks/${id}/deliveries/msg_${"0".repeat(32)}/retry`, { cookie, form: {} })).status).toBe(404);
  });

  it("rotating the secret shows the new one once and says the old one signs alongside for 24 hours; a delivery then carries both signatures", async () => {
    const { employer, cookie } = await admin();
    const created = await apiCreate(employer, { url: RECEIVER });
    const res = await call(`/employer/webhooks/${created.id}/rotate-secret`, { cookie, form: {} });
    expect(res.status).toBe(200);
    const html = await res.text();
    const [secret] = secretsIn(html);
    expect(secretsIn(html)).toHaveLength(1);
    expect(secret).not.toBe(created.secret);
    expect(html).toContain("The previous secret keeps signing alongside the new one for 24 hours");
    expect(await (await call(`/employer/webhooks/${created.id}`, { cookie })).text()).not.toContain(secret.slice(6, 30));

    await call(`/employer/webhooks/${created.id}/test`, { cookie, form: {} });
    const [message] = await apiDeliveries(employer, created.id);
    const [delivery] = await deliver([message.id]);
    expect(delivery.headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const key of [created.secret, secret]) expect((new Webhook(key).verify(delivery.body, delivery.headers) as any).type).toBe("webhook.test");
  });

  it("delete needs confirm=yes: without it 422 beside the box, nothing deleted; with it 303 to the list, and the API answers 404", async () => {
    const { employer, cookie } = await admin();
    const { id } = await apiCreate(employer, { url: RECEIVER });
    const refused = await call(`/employer/webhooks/${id}/delete`, { cookie, form: {} });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(tagOf(html, "confirm")).toContain('aria-invalid="true"');
    expect(html).toContain('<span id="confirm-error" class="error">Tick the box to confirm.</span>');
    expect((await request(`/webhooks/${id}`, { apiKey: employer.apiKey })).status).toBe(200);

    const deleted = await call(`/employer/webhooks/${id}/delete`, { cookie, form: { confirm: "yes" } });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("Location")).toBe("/employer/webhooks?deleted");
    expect(await (await call("/employer/webhooks?deleted", { cookie })).text()).toContain('<p role="status">The endpoint was deleted.</p>');
    expect((await request(`/webhooks/${id}`, { apiKey: employer.apiKey })).status).toBe(404);
  });
});

describe("who may (DESIGN 25, 25a)", () => {
  it("a recruiter gets 403 on every webhooks page and POST, and nothing changes", async () => {
    const employer = await createEmployer();
    const { id } = await apiCreate(employer, { url: RECEIVER, events: ["job.created"] });
    const cookie = await signedIn(employer.employerId, address(), { role: "recruiter" });
    for (const path of ["/employer/webhooks", `/employer/webhooks/${id}`]) {
      const res = await call(path, { cookie });
      expect(res.status, path).toBe(403);
      expect(await res.text()).toContain("For administrators only");
    }
    for (const [path, form] of [
      ["/employer/webhooks", { url: `${RECEIVER}/new`, events: "all" }],
      [`/employer/webhooks/${id}`, { url: `${RECEIVER}/changed`, events: "all" }],
      [`/employer/webhooks/${id}/test`, {}],
      [`/employer/webhooks/${id}/rotate-secret`, {}],
      [`/employer/webhooks/${id}/delete`, { confirm: "yes" }],
    ] as const) {
      const res = await call(path, { cookie, form });
      expect(res.status, path).toBe(403);
      expect(secretsIn(await res.text())).toEqual([]);
    }
    expect(await apiEndpoints(employer)).toMatchObject([{ id, url: RECEIVER, events: ["job.created"] }]);
    expect(await apiDeliveries(employer, id)).toEqual([]);
  });

  it("another employer's endpoint is 404 on every page and POST, and nothing changes", async () => {
    const owner = await createEmployer();
    const { id } = await apiCreate(owner, { url: RECEIVER, events: ["job.created"] });
    const { cookie } = await admin();
    expect((await call(`/employer/webhooks/${id}`, { cookie })).status).toBe(404);
    for (const [path, form] of [
      [`/employer/webhooks/${id}`, { url: `${RECEIVER}/changed`, events: "all" }],
      [`/employer/webhooks/${id}/test`, {}],
      [`/employer/webhooks/${id}/rotate-secret`, {}],
      [`/employer/webhooks/${id}/delete`, { confirm: "yes" }],
    ] as const) {
      const res = await call(path, { cookie, form });
      expect(res.status, path).toBe(404);
      expect(secretsIn(await res.text())).toEqual([]);
    }
    expect((await call("/employer/webhooks/not-a-number", { cookie })).status).toBe(404);
    expect(await apiEndpoints(owner)).toMatchObject([{ id, url: RECEIVER, events: ["job.created"] }]);
    expect(await apiDeliveries(owner, id)).toEqual([]);
  });

  it("a POST from a foreign Origin: 403, nothing changed", async () => {
    const { employer, cookie } = await admin();
    const { id } = await apiCreate(employer, { url: RECEIVER, events: ["job.created"] });
    const origin = "https://attacker.example";
    expect((await call("/employer/webhooks", { cookie, origin, form: { url: `${RECEIVER}/evil`, events: "all" } })).status).toBe(403);
    expect((await call(`/employer/webhooks/${id}`, { cookie, origin, form: { url: `${RECEIVER}/evil`, events: "all" } })).status).toBe(403);
    expect((await call(`/employer/webhooks/${id}/delete`, { cookie, origin, form: { confirm: "yes" } })).status).toBe(403);
    expect((await call(`/employer/webhooks/${id}/rotate-secret`, { cookie, origin, form: {} })).status).toBe(403);
    expect(await apiEndpoints(employer)).toMatchObject([{ id, url: RECEIVER, events: ["job.created"] }]);
  });
});

describe("in French (DESIGN 25: English and French on every page)", () => {
  it("a French-speaking admin reads the pages, the event types and the messages in French", async () => {
    const { employer, cookie } = await admin({ lang: "fr" });
    const list = await read(await call("/employer/webhooks", { cookie }));
    expect(list).toContain('<html lang="fr"');
    expect(list).toContain("Ajouter un point de terminaison");
    expect(list).toContain("<code>job.expired</code>: une offre a atteint sa date de clôture et a été archivée");
    expect(list).toContain("Tous les événements, y compris ceux ajoutés plus tard");

    const refused = await read(await post("/employer/webhooks", cookie, { url: RECEIVER, events: [] }));
    expect(refused).toContain("Choisissez les événements à recevoir : au moins un, ou tous les événements.");
    expect(refused).toContain("Rien n'a été enregistré");

    const created = await read(await post("/employer/webhooks", cookie, { url: RECEIVER, events: ["all"] }));
    expect(created).toContain("Copiez le secret maintenant : il n'est affiché que cette fois.");
    const [endpoint] = await apiEndpoints(employer);
    const page = await read(await call(`/employer/webhooks/${endpoint.id}`, { cookie }));
    expect(page).toContain("Journal des envois");
    expect(page).toContain("Oui, j'en suis sûr");
    const rotated = await read(await call(`/employer/webhooks/${endpoint.id}/rotate-secret`, { cookie, form: {} }));
    expect(rotated).toContain("Le secret précédent continue de signer à côté du nouveau pendant 24 heures");
    const invalid = await read(await post(`/employer/webhooks/${endpoint.id}`, cookie, { url: "https://10.1.2.3/", events: ["all"] }));
    expect(invalid).toContain("Entrez l'adresse complète de votre récepteur : https://");
  });
});
