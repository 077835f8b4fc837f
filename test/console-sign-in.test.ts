import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashToken } from "../src/accounts/tokens";
import { createEmployer } from "./support/api";
import { call, invite, linkIn, sentMail, sessionCookieOf, signedIn, SESSION_COOKIE } from "./support/console";

// DESIGN 25, 25a: the employer console's invitations, sign-in by emailed link, and sessions,
// driven over HTTP through the Worker's entry.

let counter = 0;
const address = () => `person${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;
const HOUR = 3_600_000;

async function signInByLink(email: string, next?: string) {
  const asked = await call(`/employer/sign-in`, { form: { email, ...(next && { next }) } });
  expect(asked.status).toBe(303);
  return linkIn(email);
}

describe("invitations (DESIGN 25a)", () => {
  it("GET /employer/invitations/{token} names the employer and the role with a button; its POST accepts, sets the session cookie, 303 /employer, which then answers 200", async () => {
    const employer = await createEmployer({ name: "Invited Ltd." });
    const email = address();
    const token = await invite(employer.employerId, email, { role: "recruiter" });
    const page = await call(`/employer/invitations/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Invited Ltd.");
    expect(html).toContain("a recruiter");
    expect(html).toMatch(/<form method="post" action="\/employer\/invitations\/[^"]+"><button type="submit">Accept and sign in<\/button>/);

    const accepted = await call(`/employer/invitations/${token}`, { form: {} });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("Location")).toBe("/employer");
    const cookie = sessionCookieOf(accepted)!;
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const person = await env.ACCOUNTS_DB.prepare("SELECT role, email FROM people WHERE employer_id = ?").bind(employer.employerId).first();
    expect(person).toEqual({ role: "recruiter", email });

    const home = await call("/employer", { cookie });
    expect(home.status).toBe(200);
    const homeHtml = await home.text();
    expect(homeHtml).toContain("Invited Ltd.");
    expect(homeHtml).toContain(`Signed in as ${email}, recruiter.`);
  });

  it("a used or expired invitation: 410, and its POST signs no one in", async () => {
    const employer = await createEmployer();
    const used = await invite(employer.employerId, address(), { usedAt: Date.now() - 1000 });
    const expired = await invite(employer.employerId, address(), { expiresAt: Date.now() - 1000 });
    for (const token of [used, expired, "not-a-token"]) {
      expect((await call(`/employer/invitations/${token}`)).status).toBe(410);
      const post = await call(`/employer/invitations/${token}`, { form: {} });
      expect(post.status).toBe(410);
      expect(sessionCookieOf(post)).toBeUndefined();
    }
  });

  it("an invitation works once: a second acceptance answers 410", async () => {
    const employer = await createEmployer();
    const token = await invite(employer.employerId, address());
    expect((await call(`/employer/invitations/${token}`, { form: {} })).status).toBe(303);
    expect((await call(`/employer/invitations/${token}`, { form: {} })).status).toBe(410);
  });
});

describe("sessions (DESIGN 25)", () => {
  it("without a valid session every /employer/… page except sign-in and invitations answers 303 to /employer/sign-in?next=<the path>", async () => {
    for (const path of ["/employer", "/employer/jobs?q=x"]) {
      const res = await call(path);
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe(`/employer/sign-in?next=${encodeURIComponent(path)}`);
    }
    expect((await call("/employer", { cookie: "forged-value" })).status).toBe(303);
    expect((await call("/employer/sign-in")).status).toBe(200);
  });

  it("cookie __Host-jpa_session: HttpOnly, Secure, SameSite=Lax, Path=/, random 32 bytes, stored only as its SHA-256", async () => {
    const employer = await createEmployer();
    const token = await invite(employer.employerId, address());
    const res = await call(`/employer/invitations/${token}`, { form: {} });
    const header = res.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))!;
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
    expect(header).not.toMatch(/Domain=/i);
    const cookie = sessionCookieOf(res)!;
    expect(await env.ACCOUNTS_DB.prepare("SELECT count(*) AS n FROM sessions WHERE id = ?").bind(cookie).first()).toEqual({ n: 0 });
    expect(await env.ACCOUNTS_DB.prepare("SELECT count(*) AS n FROM sessions WHERE id = ?").bind(await hashToken(cookie)).first()).toEqual({ n: 1 });
  });

  it("a session ends after 12 hours unused, and 30 days after sign-in at the latest", async () => {
    const employer = await createEmployer();
    const idle = await signedIn(employer.employerId, address());
    await env.ACCOUNTS_DB.prepare("UPDATE sessions SET last_used_at = last_used_at - ? WHERE id = ?").bind(12 * HOUR + 1000, await hashToken(idle)).run();
    expect((await call("/employer", { cookie: idle })).status).toBe(303);

    const old = await signedIn(employer.employerId, address());
    // Used a moment ago, but signed in more than 30 days ago.
    await env.ACCOUNTS_DB.prepare("UPDATE sessions SET created_at = created_at - ?1, expires_at = expires_at - ?1 WHERE id = ?2").bind(30 * 24 * HOUR + 1000, await hashToken(old)).run();
    expect((await call("/employer", { cookie: old })).status).toBe(303);

    const fresh = await signedIn(employer.employerId, address());
    await env.ACCOUNTS_DB.prepare("UPDATE sessions SET last_used_at = last_used_at - ? WHERE id = ?").bind(11 * HOUR, await hashToken(fresh)).run();
    expect((await call("/employer", { cookie: fresh })).status).toBe(200);
    // Used now: its 12 hours start again.
    const row = await env.ACCOUNTS_DB.prepare("SELECT last_used_at AS at FROM sessions WHERE id = ?").bind(await hashToken(fresh)).first<{ at: number }>();
    expect(Date.now() - row!.at).toBeLessThan(60_000);
  });

  it("POST /employer/sign-out ends the session on the server: the old cookie then gets 303", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email);
    const other = await signInByLink(email).then((link) => call(new URL(link).pathname, { form: {} })).then(sessionCookieOf);
    const out = await call("/employer/sign-out", { cookie, form: {} });
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
    expect((await call("/employer", { cookie })).status).toBe(303);
    // Only this one: the other browser stays signed in.
    expect((await call("/employer", { cookie: other })).status).toBe(200);
  });

  it("POST /employer/sign-out?everywhere ends every session of the person", async () => {
    const employer = await createEmployer();
    const email = address();
    const first = await signedIn(employer.employerId, email);
    const second = sessionCookieOf(await call(new URL(await signInByLink(email)).pathname, { form: {} }))!;
    expect((await call("/employer", { cookie: second })).status).toBe(200);
    expect((await call("/employer/sign-out?everywhere", { cookie: first, form: {} })).status).toBe(303);
    expect((await call("/employer", { cookie: first })).status).toBe(303);
    expect((await call("/employer", { cookie: second })).status).toBe(303);
  });
});

describe("sign-in by emailed link (DESIGN 25a)", () => {
  it("end to end: the form's POST answers 303 ?sent, the email holds {origin}/employer/sign-in/{token}, its GET shows a button, its POST signs in (303 /employer); a second use answers 410", async () => {
    const employer = await createEmployer();
    const email = address();
    await signedIn(employer.employerId, email);
    const form = await call("/employer/sign-in");
    expect(await form.text()).toMatch(/<label for="email">Email address<\/label>/);
    const asked = await call("/employer/sign-in", { form: { email: email.toUpperCase() } });
    expect(asked.status).toBe(303);
    expect(asked.headers.get("Location")).toMatch(/^\/employer\/sign-in\?sent/);
    const mail = sentMail.findLast((m) => m.to === email)!;
    expect(mail.subject).toMatch(/^Sign in to /);
    const link = linkIn(email);
    expect(link).toMatch(/^https:\/\/api\.test\/employer\/sign-in\/[A-Za-z0-9_-]{43}\?lang=en$/);

    const page = await call(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<button type="submit">Sign in</button>');
    // The GET signed no one in (mail scanners follow links).
    expect(sessionCookieOf(page)).toBeUndefined();
    const signIn = await call(link, { form: {} });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("Location")).toBe("/employer");
    expect((await call("/employer", { cookie: sessionCookieOf(signIn) })).status).toBe(200);

    const again = await call(link, { form: {} });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('href="/employer/sign-in?lang=en"');
    expect((await call(link)).status).toBe(410);
  });

  it("the link goes back to the `next` it was asked with, a console path of the same origin only", async () => {
    const employer = await createEmployer();
    const email = address();
    await signedIn(employer.employerId, email);
    const link = await signInByLink(email, "/employer?from=mail");
    expect((await call(link, { form: {} })).headers.get("Location")).toBe("/employer?from=mail");
    const foreign = await signInByLink(email, "https://evil.example/employer");
    expect((await call(foreign, { form: {} })).headers.get("Location")).toBe("/employer");
  });

  it("a link more than 15 minutes old: 410 with a page offering a new one", async () => {
    const employer = await createEmployer();
    const email = address();
    await signedIn(employer.employerId, email);
    const link = await signInByLink(email);
    await env.ACCOUNTS_DB.prepare("UPDATE sign_in_links SET created_at = created_at - ?1, expires_at = expires_at - ?1 WHERE email = ?2").bind(15 * 60_000 + 1000, email).run();
    const res = await call(link, { form: {} });
    expect(res.status).toBe(410);
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(await res.text()).toContain("Ask for a new sign-in link");
  });

  it("the same answer for an unknown address (303 ?sent), and no email", async () => {
    const before = sentMail.length;
    const res = await call("/employer/sign-in", { form: { email: address() } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toMatch(/^\/employer\/sign-in\?sent/);
    expect(sentMail.length).toBe(before);
  });

  it("at most 5 sign-in emails per address per hour: the 6th is not sent, and the answer is the same", async () => {
    const employer = await createEmployer();
    const email = address();
    await signedIn(employer.employerId, email);
    for (let i = 0; i < 6; i++) expect((await call("/employer/sign-in", { form: { email } })).status).toBe(303);
    expect(sentMail.filter((m) => m.to === email)).toHaveLength(5);
    expect(await env.ACCOUNTS_DB.prepare("SELECT count(*) AS n FROM sign_in_links WHERE email = ?").bind(email).first()).toEqual({ n: 5 });
  });

  it("a malformed address: 422, the form again with the message tied to the field", async () => {
    const res = await call("/employer/sign-in", { form: { email: "not an address" } });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('id="email-error"');
  });
});

describe("every console answer (DESIGN 25)", () => {
  it("a POST whose Origin is foreign: 403, and nothing changed (no email, no session ended, no invitation used)", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email);
    const before = sentMail.length;
    const evil = "https://evil.example";
    expect((await call("/employer/sign-in", { form: { email }, origin: evil })).status).toBe(403);
    expect(sentMail.length).toBe(before);
    expect((await call("/employer/sign-out?everywhere", { cookie, form: {}, origin: evil })).status).toBe(403);
    expect((await call("/employer", { cookie })).status).toBe(200);
    const token = await invite(employer.employerId, address());
    expect((await call(`/employer/invitations/${token}`, { form: {}, origin: evil })).status).toBe(403);
    expect((await call(`/employer/invitations/${token}`)).status).toBe(200);
    // A form POST with no Origin at all is refused too.
    expect((await call("/employer/sign-out", { cookie, form: {}, origin: null })).status).toBe(403);
  });

  it("Cache-Control: no-store, and a CSP whose scripts are the console's own files (no unsafe-inline) and with frame-ancestors 'none', on pages, redirects and refusals", async () => {
    const employer = await createEmployer();
    const cookie = await signedIn(employer.employerId, address());
    const answers = [
      await call("/employer", { cookie }),
      await call("/employer"),
      await call("/employer/sign-in"),
      await call("/employer/sign-in/unknown-token"),
      await call("/employer/sign-in", { form: { email: "x@example.com" }, origin: "https://evil.example" }),
    ];
    for (const res of answers) {
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      // Browsers then send the console's own Origin with its POSTs (no-referrer makes it `null`), and no Referer elsewhere.
      expect(res.headers.get("Referrer-Policy")).toBe("same-origin");
      const csp = res.headers.get("Content-Security-Policy")!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      // Scripts, where a page has any, are the console's own files (the sign-in page's passkey button).
      expect(csp.match(/script-src [^;]*/)?.[0] ?? "script-src 'self'").toBe("script-src 'self'");
    }
  });

  it("in French: the person's language once signed in; before, the `lang` query or Accept-Language", async () => {
    const employer = await createEmployer({ name: "Boulangerie Ltée" });
    const cookie = await signedIn(employer.employerId, address(), { lang: "fr" });
    const home = await (await call("/employer", { cookie })).text();
    expect(home).toContain('<html lang="fr">');
    expect(home).toContain("Me déconnecter partout");
    expect(await (await call("/employer/sign-in?lang=fr")).text()).toContain("Connexion à la console employeur");
    expect(await (await call("/employer/sign-in", { headers: { "Accept-Language": "fr-CA,fr;q=0.9" } })).text()).toContain('<html lang="fr">');

    const email = address();
    await signedIn(employer.employerId, email, { lang: "fr" });
    await call("/employer/sign-in", { form: { email } });
    expect(sentMail.findLast((m) => m.to === email)!.subject).toMatch(/^Connexion à /);
    expect(await (await call(linkIn(email))).text()).toContain("Me connecter");
  });

  it("POST /employer/language (field language: en | fr) is the person's setting, remembered", async () => {
    const employer = await createEmployer();
    const cookie = await signedIn(employer.employerId, address());
    expect(await (await call("/employer", { cookie })).text()).toContain('<html lang="en">');
    const set = await call("/employer/language", { cookie, form: { language: "fr" } });
    expect(set.status).toBe(303);
    expect(await (await call("/employer", { cookie })).text()).toContain('<html lang="fr">');
    expect((await call("/employer/language", { cookie, form: { language: "de" } })).status).toBe(422);
  });
});
