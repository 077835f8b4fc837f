import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consentText, senderOf } from "../src/alerts/consent";
import { deliverPending, freshEmail, page } from "./support/alerts";

// DESIGN 23, 23a: subscribing from the search pages — a form under the results (the search as it
// stands, email, frequency, the consent statement and a box never checked beforehand), posting to
// /alerts (English) and /fr/alertes (French), answered 303 to a "check your mailbox" page.

const escaped = (text: string) => text.replace(/'/g, "&#39;");
const form = (fields: Record<string, string>) => ({ method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

describe("the alert form on the search pages", () => {
  it("under the results of a search: the search as hidden fields, email, frequency, the consent statement (who sends: name, mailing address, contact) and an unchecked box", async () => {
    const res = await page(`/?q=comptable&province=QC&t=${Date.now()}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const formAt = html.indexOf('<form method="post" action="/alerts">');
    expect(formAt).toBeGreaterThan(html.indexOf('id="results"'));
    expect(html).toContain('<input type="hidden" name="q" value="comptable"/>');
    expect(html).toContain('<input type="hidden" name="province" value="QC"/>');
    expect(html).toContain(escaped(consentText("en", senderOf(env))));
    expect(html).toMatch(/<input id="alert-consent" name="consent" type="checkbox" value="yes" required=""\/>/);
    const fr = await (await page(`/fr/?q=comptable&t=${Date.now()}`)).text();
    expect(fr).toContain('<form method="post" action="/fr/alertes">');
    expect(fr).toContain(escaped(consentText("fr", senderOf(env))).replace(/«|»/g, (ch) => ch));
  });

  it("no form under the whole board (a search with no criterion cannot be an alert)", async () => {
    expect(await (await page(`/?t=${Date.now()}`)).text()).not.toContain('action="/alerts"');
  });

  it("POST /alerts answers 303 to the \"check your mailbox\" page and sends one confirmation; /fr/alertes answers in French", async () => {
    const email = freshEmail();
    const res = await page("/alerts", form({ q: "comptable", place: "Montréal, QC", radiusKm: "25", email, frequency: "weekly", consent: "yes" }));
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("https://api.test/alerts/check-your-mailbox");
    expect((await page(res.headers.get("Location")!)).status).toBe(200);
    const row = await env.ALERTS_DB.prepare("SELECT frequency, source, search, place_name AS placeName, time_zone AS timeZone FROM alerts WHERE email = ?").bind(email).first<Record<string, string>>();
    expect(row).toMatchObject({ frequency: "weekly", source: "page", placeName: "Montréal, QC", timeZone: "America/Toronto" });
    expect(JSON.parse(row!.search)).toMatchObject({ q: "comptable", radiusKm: 25, near: expect.any(Number) });
    expect((await deliverPending()).filter((mail) => mail.to === email)).toHaveLength(1);
    const fr = await page("/fr/alertes", form({ q: "infirmière", email: freshEmail(), frequency: "daily", consent: "yes" }));
    expect(fr.headers.get("Location")).toBe("https://api.test/fr/alertes/verifiez-vos-courriels");
  });

  it("without the box checked, or with a bad address: 400, the form again with each problem next to its field (aria-invalid, aria-describedby), nothing stored", async () => {
    const email = "not-an-address";
    const res = await page("/alerts", form({ q: "comptable", email, frequency: "daily" }));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('aria-invalid="true" aria-describedby="alert-email-error"');
    expect(html).toContain('id="alert-consent-error"');
    expect(await env.ALERTS_DB.prepare("SELECT count(*) AS n FROM alerts WHERE email = ?").bind(email).first()).toEqual({ n: 0 });
  });
});
