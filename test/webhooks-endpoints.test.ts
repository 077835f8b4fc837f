import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { API, createEmployer, problemOf, request, type TestEmployer } from "./support/api";

// DESIGN 13 and 13a: the endpoint management API.

const create = (who: TestEmployer, json: unknown) => request("/webhooks", { method: "POST", apiKey: who.apiKey, json });
const RECEIVER = "https://receiver.example/hooks";

describe("webhook endpoints (DESIGN 13)", () => {
  it("create answers 201 with the endpoint and its secret (whsec_ + base64 of 32 bytes), shown only then", async () => {
    const employer = await createEmployer();
    const res = await create(employer, { url: RECEIVER, events: ["job.created", "job.expired"], description: "ATS" });
    expect(res.status).toBe(201);
    const endpoint = await res.json<any>();
    expect(endpoint).toMatchObject({ url: RECEIVER, events: ["job.created", "job.expired"], description: "ATS", enabled: true });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await (await request(`/webhooks/${endpoint.id}`, { apiKey: employer.apiKey })).json<any>();
    expect(read.secret).toBeUndefined();
    const list = await (await request("/webhooks", { apiKey: employer.apiKey })).json<any>();
    expect(list.data).toEqual([read]);
    expect(JSON.stringify(list)).not.toContain(endpoint.secret.slice(6));
    // At rest it is encrypted, not the secret itself.
    const stored = await env.DB.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?").bind(endpoint.id).first<{ secret: string }>();
    expect(stored!.secret).not.toContain(endpoint.secret.slice(6));
  });

  it("events absent or empty is stored and returned as [] (every type); an unknown or test type is a 400 naming events[i]", async () => {
    const employer = await createEmployer();
    expect((await (await create(employer, { url: RECEIVER })).json<any>()).events).toEqual([]);
    const res = await create(employer, { url: RECEIVER, events: ["job.created", "job.exploded", "webhook.test"] });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((e) => e.field)).toEqual(["events[1]", "events[2]"]);
  });

  it("PUT changes part of an endpoint (200, no secret); DELETE is 204; another employer's is 404 everywhere", async () => {
    const [owner, other] = [await createEmployer(), await createEmployer()];
    const { id } = await (await create(owner, { url: RECEIVER })).json<any>();
    const updated = await request(`/webhooks/${id}`, { method: "PUT", apiKey: owner.apiKey, json: { events: ["job.deleted"], enabled: false } });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ id, url: RECEIVER, events: ["job.deleted"], enabled: false });
    for (const [method, path] of [
      ["GET", `/webhooks/${id}`],
      ["PUT", `/webhooks/${id}`],
      ["DELETE", `/webhooks/${id}`],
      ["POST", `/webhooks/${id}/rotate-secret`],
      ["POST", `/webhooks/${id}/test`],
      ["GET", `/webhooks/${id}/deliveries`],
    ]) {
      const res = await request(path, { method, apiKey: other.apiKey, ...(method === "PUT" ? { json: { enabled: true } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await request("/webhooks", { apiKey: other.apiKey }).then((r) => r.json<any>())).data).toEqual([]);
    expect((await request(`/webhooks/${id}`, { method: "DELETE", apiKey: owner.apiKey })).status).toBe(204);
    expect((await request(`/webhooks/${id}`, { apiKey: owner.apiKey })).status).toBe(404);
  });

  it("at most 10 per employer: the 11th is 409 /problems/endpoint-limit", async () => {
    const employer = await createEmployer();
    const answers = await Promise.all(Array.from({ length: 12 }, () => create(employer, { url: RECEIVER })));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(10);
    const refused = answers.filter((res) => res.status === 409);
    expect(refused).toHaveLength(2);
    expect((await problemOf(refused[0])).type).toBe("/problems/endpoint-limit");
  });

  it("URL rules: https only, no credentials, at most 2 000 characters, absolute: a 400 naming url (addresses: webhooks-addresses.test.ts)", async () => {
    const employer = await createEmployer();
    const forbidden = [
      "http://receiver.example/hooks",
      "https://user:pass@receiver.example/hooks",
      `https://receiver.example/${"x".repeat(2000)}`,
      "ftp://receiver.example/hooks",
      "receiver.example/hooks",
      "javascript:alert(1)",
    ];
    // Local development allows http://; this checks the production rule.
    const strict = { ...env, WEBHOOKS_ALLOW_INSECURE: undefined };
    for (const url of forbidden) {
      const res = await worker.fetch(
        new Request(`${API}/webhooks`, { method: "POST", headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" }, body: JSON.stringify({ url }) }),
        strict,
        {} as ExecutionContext,
      );
      expect(res.status, url).toBe(400);
      expect((await problemOf(res)).errors!.map((e) => e.field), url).toEqual(["url"]);
    }
  });
});
