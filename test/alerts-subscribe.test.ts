import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CONSENT_TEXT_VERSION, consentText, senderOf } from "../src/alerts/consent";
import { sha256Hex } from "../src/alerts/tokens";
import { problemOf } from "./support/api";
import { activeAlert, alertBody, deliverPending, freshEmail, linkIn, page, postAlert } from "./support/alerts";

// DESIGN 23, 23a: subscribing — POST /api/v1.1/alerts, double opt-in, the per-address limits,
// consent records — over HTTP in workerd, with ALERTS_DB and the alerts' consumer.

const alertRows = (email: string) =>
  env.ALERTS_DB.prepare("SELECT * FROM alerts WHERE email_key = ? ORDER BY id").bind(email.toLowerCase()).all<Record<string, unknown>>().then((r) => r.results);
const entry = exports.default as typeof exports.default & { scheduled(controller: { scheduledTime: number; cron: string }): Promise<void> };

describe("POST /api/v1.1/alerts", () => {
  it("answers 202 { status: pending } and sends nothing but one confirmation email, whose subject starts \"Confirm your job alert\"", async () => {
    const body = alertBody({ search: { q: "comptable", province: "QC" } });
    const res = await postAlert(body, { headers: { "User-Agent": "Test Browser/1.0", "CF-Connecting-IP": "203.0.113.7" } });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ status: "pending" });
    const mails = (await deliverPending()).filter((mail) => mail.to === body.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Confirm your job alert/);
    expect(mails[0].from).toEqual({ email: env.ALERTS_FROM, name: env.BOARD_NAME });
    expect(mails[0].headers["Content-Language"]).toBe("en");
    expect(mails[0].text).toContain(env.BOARD_POSTAL_ADDRESS!);
    const [row] = await alertRows(body.email as string);
    expect(row).toMatchObject({ status: "pending", language: "en", frequency: "daily", hour: 8, weekday: "monday", time_zone: "America/Toronto", source: "api" });
  });

  it("a French alert's confirmation email is in French: subject starts \"Confirmez votre alerte emploi\", Content-Language fr", async () => {
    const body = alertBody({ language: "fr" });
    expect((await postAlert(body)).status).toBe(202);
    const [mail] = (await deliverPending()).filter((m) => m.to === body.email);
    expect(mail.subject).toMatch(/^Confirmez votre alerte emploi/);
    expect(mail.headers["Content-Language"]).toBe("fr");
  });

  it("consent other than true is a 400 naming consent; one answer names every broken member (DESIGN 23a)", async () => {
    const res = await postAlert({ email: "not-an-address", language: "de", frequency: "hourly", consent: "yes", search: {} });
    expect(res.status).toBe(400);
    const fields = (await problemOf(res)).errors!.map((error) => error.field).sort();
    expect(fields).toEqual(["consent", "email", "frequency", "language", "search"]);
    const noConsent = await postAlert(alertBody({ consent: false }));
    expect((await problemOf(noConsent)).errors!.map((error) => error.field)).toEqual(["consent"]);
  });

  it("the search takes the board's parameters with the board's rules: radiusKm without near names near; near not a public place with coordinates names near; salaryMin past 10 000 000 names salaryMin", async () => {
    const radius = await postAlert(alertBody({ search: { radiusKm: 25 } }));
    expect((await problemOf(radius)).errors!.map((error) => error.field)).toEqual(["search.near"]);
    const province = await postAlert(alertBody({ search: { near: 11 } })); // 11: Quebec, a province (an area, not a point)
    expect(province.status).toBe(400);
    expect((await problemOf(province)).errors!.map((error) => error.field)).toEqual(["search.near"]);
    const salary = await postAlert(alertBody({ search: { salaryMin: 10_000_001 } }));
    expect((await problemOf(salary)).errors!.map((error) => error.field)).toEqual(["search.salaryMin"]);
  });

  it("at most 3 confirmation emails per address per day: the 4th request answers the same 202 and sends nothing", async () => {
    const email = freshEmail();
    for (let i = 0; i < 4; i++) {
      const res = await postAlert(alertBody({ email, search: { q: `word${i}` } }));
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ status: "pending" });
    }
    expect((await deliverPending()).filter((mail) => mail.to === email)).toHaveLength(3);
    expect(await alertRows(email)).toHaveLength(3);
  });

  it("at most 20 alerts per address; the answer never tells whether an address already has alerts (same status, same body)", async () => {
    const email = freshEmail();
    const now = Date.now();
    const insert = env.ALERTS_DB.prepare(
      `INSERT INTO alerts (email, email_key, status, language, frequency, hour, weekday, time_zone, search, origin, token_nonce, confirm_hash, manage_hash, feed_hash,
        consent_text_version, consent_text_sha256, source, created_at) VALUES (?, ?, 'active', 'en', 'daily', 8, 'monday', 'America/Toronto', '{"q":"x"}', 'https://api.test', ?, ?, ?, ?, 'v', 's', 'api', ?)`,
    );
    await env.ALERTS_DB.batch(Array.from({ length: 20 }, (_, i) => insert.bind(email, email, `n${i}${now}`, `c${i}${now}`, `m${i}${now}`, `f${i}${now}`, now - 86_400_000 * 30)));
    const full = await postAlert(alertBody({ email }));
    const fresh = await postAlert(alertBody());
    expect([full.status, await full.text()]).toEqual([fresh.status, await fresh.text()]);
    expect(await alertRows(email)).toHaveLength(20);
    expect((await deliverPending()).filter((mail) => mail.to === email)).toHaveLength(0);
  });
});

describe("double opt-in", () => {
  it("a GET of the confirm link shows a page with a button and changes nothing (mail scanners follow links); its POST activates the alert; a second POST changes nothing", async () => {
    const body = alertBody();
    await postAlert(body);
    const [mail] = (await deliverPending()).filter((m) => m.to === body.email);
    const link = linkIn(mail, "confirm");
    for (let i = 0; i < 2; i++) {
      const shown = await page(link);
      expect(shown.status).toBe(200);
      expect(shown.headers.get("Cache-Control")).toBe("no-store");
      const html = await shown.text();
      expect(html).toContain(`<form method="post" action="${new URL(link).pathname}">`);
      expect(html).toContain("<button type=\"submit\">");
    }
    expect((await alertRows(body.email as string))[0]).toMatchObject({ status: "pending", confirmed_at: null });
    const confirmed = await page(link, { method: "POST" });
    expect(confirmed.status).toBe(200);
    const [row] = await alertRows(body.email as string);
    expect(row).toMatchObject({ status: "active" });
    expect(row.confirmed_at).toEqual(expect.any(Number));
    expect(row.due_at).toBeGreaterThan(Date.now());
    const again = await page(link, { method: "POST" });
    expect(again.status).toBe(200);
    expect((await alertRows(body.email as string))[0].confirmed_at).toBe(row.confirmed_at);
    const changes = await env.ALERTS_DB.prepare("SELECT change FROM alert_changes WHERE alert_id = ?").bind(row.id).all();
    expect(changes.results).toEqual([{ change: "confirmed" }]);
  });

  it("a link with an unknown token shows the \"link does not work\" page (404), never an error page", async () => {
    const res = await page(`/alerts/confirm/${"A".repeat(43)}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("This link does not work");
  });

  it("pending alerts are deleted after 7 days (the cron, its scheduledTime as now); confirmed ones stay", async () => {
    const pendingBody = alertBody();
    await postAlert(pendingBody);
    const { email: activeEmail } = await activeAlert();
    await entry.scheduled({ cron: "0 * * * *", scheduledTime: Date.now() + 7 * 86_400_000 + 3_600_000 });
    expect(await alertRows(pendingBody.email as string)).toHaveLength(0);
    expect(await alertRows(activeEmail)).toHaveLength(1);
  });
});

describe("consent records (DESIGN 23a)", () => {
  it("each alert records the consent text's version and SHA-256, language, source, time, client address, user agent, then its confirmation time", async () => {
    const body = alertBody({ language: "fr" });
    const before = Date.now();
    await postAlert(body, { headers: { "User-Agent": "Consent Checker/2", "CF-Connecting-IP": "198.51.100.4" } });
    const [row] = await alertRows(body.email as string);
    expect(row).toMatchObject({
      consent_text_version: CONSENT_TEXT_VERSION,
      consent_text_sha256: await sha256Hex(consentText("fr", senderOf(env))),
      language: "fr",
      source: "api",
      client_address: "198.51.100.4",
      user_agent: "Consent Checker/2",
      confirmed_at: null,
    });
    expect(row.created_at).toBeGreaterThanOrEqual(before);
    // Only hashes of the tokens are stored: the link's token appears nowhere in the row.
    const [mail] = (await deliverPending()).filter((m) => m.to === body.email);
    const token = linkIn(mail, "confirm").split("/").pop()!;
    expect(JSON.stringify(row)).not.toContain(token);
  });
});
