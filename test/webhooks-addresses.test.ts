import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { consumeWebhookBatch } from "../src/webhooks/consumer";
import worker from "../src/index";
import { parseIPv6 } from "../src/webhooks/address";
import { urlProblem } from "../src/webhooks/rules";
import { API, createEmployer, problemOf, request, type TestEmployer } from "./support/api";

// DESIGN 6b: a webhook may only go to a globally reachable address, checked at registration,
// on PUT and again before each delivery; WEBHOOKS_ALLOW_INSECURE (local only) allows http://
// and exactly localhost, *.localhost, 127.0.0.0/8 and ::1.

/** The production rule: the test environment ([env.dev]) sets WEBHOOKS_ALLOW_INSECURE. */
const strict = { ...env, WEBHOOKS_ALLOW_INSECURE: undefined };

function register(who: TestEmployer, url: string, environment: typeof env = strict) {
  return worker.fetch(
    new Request(`${API}/webhooks`, { method: "POST", headers: { "API-Key": who.apiKey, "Content-Type": "application/json" }, body: JSON.stringify({ url }) }),
    environment,
    {} as ExecutionContext,
  );
}

async function expectRefused(who: TestEmployer, url: string, environment: typeof env = strict, why = url) {
  const res = await register(who, url, environment);
  expect(res.status, why).toBe(400);
  expect((await problemOf(res)).errors!.map((e) => e.field), why).toEqual(["url"]);
}

/** Every block of the IANA special-purpose registries (and multicast, deprecated ranges), in the spellings clients send. */
const REFUSED: [string, string][] = [
  // IPv4 Special-Purpose Address Registry, and multicast.
  ["0.0.0.0/8 This network", "https://0.0.0.0/"],
  ["0.0.0.0/8 This network", "https://0.1.2.3/"],
  ["10.0.0.0/8 Private-Use", "https://10.1.2.3/"],
  ["100.64.0.0/10 Shared Address Space", "https://100.64.0.1/"],
  ["100.64.0.0/10 Shared Address Space", "https://100.127.255.254/"],
  ["127.0.0.0/8 Loopback", "https://127.0.0.1/"],
  ["127.0.0.0/8 Loopback, trailing dot", "https://127.0.0.1./"],
  ["127.0.0.0/8 Loopback, short form", "https://127.1/"],
  ["127.0.0.0/8 Loopback, one number", "https://2130706433/"],
  ["127.0.0.0/8 Loopback, hex", "https://0x7f.1/"],
  ["127.0.0.0/8 Loopback, octal", "https://0177.0.0.1/"],
  ["127.0.0.0/8 Loopback, one hex number", "https://0x7f000001/"],
  ["127.0.0.0/8 Loopback, fullwidth digits", "https://１２７.0.0.1/"],
  ["169.254.0.0/16 Link Local", "https://169.254.169.254/latest/meta-data"],
  ["172.16.0.0/12 Private-Use", "https://172.16.0.1/"],
  ["172.16.0.0/12 Private-Use", "https://172.31.255.255/"],
  ["192.0.0.0/24 IETF Protocol Assignments", "https://192.0.0.1/"],
  ["192.0.0.0/24 IETF Protocol Assignments (NAT64/DNS64 discovery)", "https://192.0.0.170/"],
  ["192.0.0.0/24 IETF Protocol Assignments (PCP anycast, refused with its /24)", "https://192.0.0.9/"],
  ["192.0.2.0/24 Documentation (TEST-NET-1)", "https://192.0.2.1/"],
  ["192.31.196.0/24 AS112-v4 (anycast, refused)", "https://192.31.196.1/"],
  ["192.52.193.0/24 AMT (anycast, refused)", "https://192.52.193.1/"],
  ["192.88.99.0/24 Deprecated (6to4 Relay Anycast)", "https://192.88.99.1/"],
  ["192.168.0.0/16 Private-Use", "https://192.168.1.1/"],
  ["198.18.0.0/15 Benchmarking", "https://198.18.0.1/"],
  ["198.18.0.0/15 Benchmarking", "https://198.19.255.255/"],
  ["198.51.100.0/24 Documentation (TEST-NET-2)", "https://198.51.100.7/"],
  ["203.0.113.0/24 Documentation (TEST-NET-3)", "https://203.0.113.7/"],
  ["224.0.0.0/4 Multicast", "https://224.0.0.1/"],
  ["224.0.0.0/4 Multicast", "https://239.255.255.250/"],
  ["240.0.0.0/4 Reserved", "https://240.0.0.1/"],
  ["255.255.255.255/32 Limited Broadcast", "https://255.255.255.255/"],
  // IPv6 Special-Purpose Address Registry, the IPv6 Address Space (outside 2000::/3) and every spelling.
  ["::/128 Unspecified", "https://[::]/"],
  ["::1/128 Loopback", "https://[::1]/"],
  ["::1/128 Loopback, uncompressed", "https://[0:0:0:0:0:0:0:1]/"],
  ["::1/128 Loopback, zero-padded", "https://[0000:0000:0000:0000:0000:0000:0000:0001]/"],
  ["::ffff:0:0/96 IPv4-mapped", "https://[::ffff:127.0.0.1]/"],
  ["::ffff:0:0/96 IPv4-mapped, hex", "https://[::ffff:7f00:1]/"],
  ["::ffff:0:0/96 IPv4-mapped, uppercase", "https://[::FFFF:A9FE:A9FE]/"],
  ["::ffff:0:0/96 IPv4-mapped, public IPv4", "https://[::ffff:8.8.8.8]/"],
  ["::/96 IPv4-compatible", "https://[::7f00:1]/"],
  ["::/96 IPv4-compatible, dotted", "https://[::169.254.169.254]/"],
  ["::ffff:0:0:0/96 IPv4-translated (in ::/8, reserved)", "https://[::ffff:0:7f00:1]/"],
  ["64:ff9b::/96 NAT64", "https://[64:ff9b::7f00:1]/"],
  ["64:ff9b::/96 NAT64, public IPv4", "https://[64:ff9b::808:808]/"],
  ["64:ff9b:1::/48 local-use NAT64", "https://[64:ff9b:1::1]/"],
  ["100::/64 Discard-Only", "https://[100::1]/"],
  ["2001::/32 Teredo, client 169.254.169.254", "https://[2001:0:808:808::5601:5601]/"],
  ["2001::/32 Teredo, server 10.0.0.1", "https://[2001:0:a00:1::]/"],
  ["2001::/23 IETF Protocol Assignments (PCP anycast)", "https://[2001:1::1]/"],
  ["2001::/23 IETF Protocol Assignments (Benchmarking)", "https://[2001:2::1]/"],
  ["2001::/23 IETF Protocol Assignments (ORCHIDv2)", "https://[2001:20::1]/"],
  ["2001:db8::/32 Documentation", "https://[2001:db8::1]/"],
  ["2002::/16 6to4, embeds 169.254.169.254", "https://[2002:a9fe:a9fe::]/"],
  ["2002::/16 6to4, embeds a public IPv4", "https://[2002:808:808::1]/"],
  ["2620:4f:8000::/48 AS112 direct delegation (anycast, refused)", "https://[2620:4f:8000::1]/"],
  ["3fff::/20 Documentation", "https://[3fff::1]/"],
  ["5f00::/16 SRv6 SIDs", "https://[5f00::1]/"],
  ["fc00::/7 Unique-Local", "https://[fc00::1]/"],
  ["fc00::/7 Unique-Local", "https://[fd12:3456::1]/"],
  ["fe80::/10 Link-Local", "https://[fe80::1]/"],
  ["fe80::/10 Link-Local with a zone id", "https://[fe80::1%25eth0]/"],
  ["a zone id on a public address", "https://[2606:4700::1%25eth0]/"],
  ["fec0::/10 Site-Local (deprecated)", "https://[fec0::1]/"],
  ["ff00::/8 Multicast", "https://[ff02::1]/"],
  ["4000::/3 reserved (not Global Unicast)", "https://[4000::1]/"],
  // localhost and its subdomains, in any case, with trailing dots.
  ["localhost", "https://localhost/"],
  ["localhost with a trailing dot", "https://localhost./"],
  ["localhost in capitals", "https://LOCALHOST/"],
  ["a subdomain of localhost", "https://foo.localhost/"],
  ["a subdomain of localhost with a trailing dot", "https://foo.localhost./"],
  ["a subdomain of localhost in mixed case", "https://Foo.LocalHost./"],
  ["localhost percent-encoded", "https://%6c%6fcalhost%2e/"],
  ["localhost in fullwidth letters", "https://ｌｏｃａｌｈｏｓｔ/"],
];

const ACCEPTED = [
  "https://example.com/",
  "https://receiver.example/hooks",
  "https://8.8.8.8/",
  "https://1.1.1.1/hooks",
  "https://[2606:4700::1]/",
  "https://[2001:4860:4860::8888]/",
  // Just outside refused blocks.
  "https://100.128.0.1/",
  "https://172.32.0.1/",
  "https://192.0.1.1/",
  "https://198.20.0.1/",
  "https://223.255.255.254/",
  "https://[2001:200::1]/",
  "https://[2003::1]/",
  // Names merely containing the word.
  "https://localhost.example.com/",
  "https://mylocalhost.example/",
];

afterEach(() => vi.restoreAllMocks());

describe("webhook addresses (DESIGN 6b)", () => {
  it("refused: every address the IANA special-purpose registries list, IPv6 forms that embed an IPv4 address, and localhost: a 400 naming url", async () => {
    const employer = await createEmployer({ plan: "unlimited" });
    for (const [block, url] of REFUSED) await expectRefused(employer, url, strict, `${block}: ${url}`);
  });

  it("refused also when changed by PUT", async () => {
    const employer = await createEmployer();
    const { id } = await (await register(employer, "https://receiver.example/hooks")).json<any>();
    for (const url of ["https://[2002:a9fe:a9fe::]/", "https://localhost./", "https://192.0.2.1/"]) {
      const res = await worker.fetch(
        new Request(`${API}/webhooks/${id}`, { method: "PUT", headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" }, body: JSON.stringify({ url }) }),
        strict,
        {} as ExecutionContext,
      );
      expect(res.status, url).toBe(400);
      expect((await problemOf(res)).errors!.map((e) => e.field), url).toEqual(["url"]);
    }
  });

  it("accepted: public addresses and names, just outside every refused block", async () => {
    const employer = await createEmployer({ plan: "unlimited" });
    for (const url of ACCEPTED) {
      const res = await register(employer, url);
      expect(res.status, url).toBe(201);
      // Each accepted one is deleted so the 10-endpoint limit never interferes.
      const { id } = await res.json<any>();
      await worker.fetch(new Request(`${API}/webhooks/${id}`, { method: "DELETE", headers: { "API-Key": employer.apiKey } }), strict, {} as ExecutionContext);
    }
  });

  it("every IPv6 spelling parses to its address (compressed, zero-padded, dotted quad, any case); a zone id or a malformed one is no address", () => {
    const loopback = 1n;
    for (const text of ["::1", "0:0:0:0:0:0:0:1", "0000:0000:0000:0000:0000:0000:0000:0001", "::0.0.0.1", "0::0:1"]) expect(parseIPv6(text), text).toBe(loopback);
    const mapped = 0xffff_a9fe_a9fen;
    for (const text of ["::ffff:169.254.169.254", "::FFFF:A9FE:A9FE", "0:0:0:0:0:ffff:a9fe:a9fe", "0000:0000:0000:0000:0000:FFFF:A9FE:A9FE"]) expect(parseIPv6(text), text).toBe(mapped);
    expect(parseIPv6("2002:A9FE:A9FE::")).toBe(0x2002_a9fe_a9fen << 80n);
    expect(parseIPv6("1:2:3:4:5:6::8")).toBe(0x0001_0002_0003_0004_0005_0006_0000_0008n);
    for (const text of ["fe80::1%eth0", "fe80::1%25eth0", "1::2::3", ":1::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", "00001::", "::g", "::ffff:1.2.3.256", "::1.2.3.4:5", "1.2.3.4", ""]) {
      expect(parseIPv6(text), text).toBeNull();
    }
  });

  it("the rule names the range and, for an IPv6 form that embeds one, the IPv4 address", () => {
    expect(urlProblem("https://[2002:a9fe:a9fe::]/", false)).toMatch(/169\.254\.169\.254/);
    expect(urlProblem("https://[2001:0:808:808::5601:5601]/", false)).toMatch(/169\.254\.169\.254/);
    expect(urlProblem("https://[::7f00:1]/", false)).toMatch(/127\.0\.0\.1/);
    expect(urlProblem("https://192.0.2.1/", false)).toMatch(/192\.0\.2\.0\/24.*Documentation/);
    expect(urlProblem("https://[fec0::1]/", false)).toMatch(/fec0::\/10/);
  });
});

describe("WEBHOOKS_ALLOW_INSECURE (local only, DESIGN 6b)", () => {
  const LOCAL = ["http://localhost:9999/hooks", "http://localhost./", "http://foo.localhost/", "http://Foo.LocalHost./", "http://127.0.0.1:9999/", "http://127.255.255.254/", "http://[::1]:9999/", "https://localhost/"];
  const STILL_REFUSED = ["http://10.0.0.1/", "http://169.254.169.254/", "http://0.0.0.0/", "http://[::]/", "http://[::ffff:127.0.0.1]/", "http://[::7f00:1]/", "http://[fe80::1]/", "http://192.168.1.1/"];

  it("allows http:// and exactly localhost, *.localhost, 127.0.0.0/8 and ::1, nothing else private (the test environment sets it)", async () => {
    expect(env.WEBHOOKS_ALLOW_INSECURE).toBe("true");
    const employer = await createEmployer({ plan: "unlimited" });
    for (const url of [...LOCAL, "http://receiver.example/hooks"]) {
      const res = await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: { url } });
      expect(res.status, url).toBe(201);
      await request(`/webhooks/${(await res.json<any>()).id}`, { method: "DELETE", apiKey: employer.apiKey });
    }
    for (const url of STILL_REFUSED) await expectRefused(employer, url, env);
  });

  it("without it, http:// and the local addresses are refused, whatever the scheme", async () => {
    const employer = await createEmployer();
    const https = LOCAL.map((url) => url.replace(/^http:/, "https:"));
    for (const url of [...LOCAL, ...https, "http://receiver.example/hooks"]) await expectRefused(employer, url);
  });

  it("the rule itself: allowInsecure false refuses what true allows", () => {
    for (const url of LOCAL) {
      expect(urlProblem(url, true), url).toBeNull();
      expect(urlProblem(url.replace(/^http:/, "https:"), false), url).not.toBeNull();
    }
    for (const url of STILL_REFUSED) expect(urlProblem(url, true), url).not.toBeNull();
  });
});

describe("checked again before each delivery (DESIGN 6b)", () => {
  it("an endpoint whose stored url became refused gets no request: a failed attempt, recorded in the delivery log", async () => {
    const employer = await createEmployer();
    const created = await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: { url: "https://receiver.example/hooks" } });
    const { id } = await created.json<any>();
    // Stored before the rule knew this form (6to4 embedding 169.254.169.254).
    await env.DB.prepare("UPDATE webhook_endpoints SET url = ? WHERE id = ?").bind("https://[2002:a9fe:a9fe::]/latest/meta-data", id).run();
    const messageId = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO webhook_messages (id, employer_id, endpoint_id, type, occurred_at, data, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, 'webhook.test', ?, '{}', 'pending', 0, ?, ?)",
    )
      .bind(messageId, employer.employerId, id, now, now, now)
      .run();
    const fetched = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 200 }));
    const outcomes: string[] = [];
    const batch = {
      queue: "job-posting-webhooks",
      messages: [{ id: messageId, body: { id: messageId }, timestamp: new Date(), attempts: 1, ack: () => void outcomes.push("ack"), retry: () => void outcomes.push("retry") }],
      ackAll: () => {},
      retryAll: () => {},
    } as unknown as MessageBatch<{ id: string }>;
    await consumeWebhookBatch(batch, env);
    expect(fetched).not.toHaveBeenCalled();
    expect(outcomes).toEqual(["retry"]);
    vi.restoreAllMocks();
    const log = await (await request(`/webhooks/${id}/deliveries`, { apiKey: employer.apiKey })).json<any>();
    expect(log.data).toEqual([expect.objectContaining({ id: messageId, attempts: 1, lastStatusCode: null, status: "pending" })]);
    const failing = await env.DB.prepare("SELECT failing_since AS failingSince FROM webhook_endpoints WHERE id = ?").bind(id).first<{ failingSince: number | null }>();
    expect(failing!.failingSince).not.toBeNull();
  });
});
