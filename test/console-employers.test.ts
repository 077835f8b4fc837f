import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashToken } from "../src/accounts/tokens";
import { createEmployer, type TestEmployer } from "./support/api";
import { call, linkIn, sessionCookieOf, signedIn } from "./support/console";
import { postJob } from "./support/jobs";

// DESIGN 25 ("A person is an email address with a role in one employer"): one address may be a
// person of several employers. Signed in by link, it chooses the employer to work for; the shell
// names the employer and offers to switch; switching is a POST, a new session, the old one ended.

let counter = 0;
const address = () => `several${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;

/** Signed in by the emailed link (asked with `next`, if given): the link's POST answer. */
async function signInByLink(email: string, next?: string) {
  expect((await call("/employer/sign-in", { form: { email, ...(next && { next }) } })).status).toBe(303);
  const link = new URL(linkIn(email));
  return call(link.pathname + link.search, { form: {} });
}

/** An address that is a person of two employers, joined in this order (the first's name first). */
async function personOfTwo(options: { lang?: "en" | "fr" } = {}) {
  const first = await createEmployer({ name: `First ${crypto.randomUUID().slice(0, 6)} Ltd.` });
  const second = await createEmployer({ name: `Second ${crypto.randomUUID().slice(0, 6)} Inc.` });
  const email = address();
  await signedIn(first.employerId, email, { role: "admin", lang: options.lang });
  await signedIn(second.employerId, email, { role: "recruiter", lang: options.lang });
  return { first, second, email };
}

const sessionRow = async (cookie: string) =>
  env.ACCOUNTS_DB.prepare("SELECT p.employer_id AS employerId, s.expires_at AS expiresAt FROM sessions s JOIN people p ON p.id = s.person_id WHERE s.id = ?")
    .bind(await hashToken(cookie))
    .first<{ employerId: number; expiresAt: number }>();

const jobsListed = async (cookie: string) => (await (await call("/employer/jobs", { cookie })).text()).match(/Job of (First|Second)/g) ?? [];

async function jobsOf(first: TestEmployer, second: TestEmployer) {
  await postJob(first, { title: "Job of First" });
  await postJob(second, { title: "Job of Second" });
}

describe("choosing an employer at sign-in (DESIGN 25)", () => {
  it("an address of several employers, signed in by link, gets a page listing them by name, picks one, and its session is for that employer", async () => {
    const { first, second, email } = await personOfTwo();
    await jobsOf(first, second);
    const signedInRes = await signInByLink(email);
    expect(signedInRes.status).toBe(303);
    expect(signedInRes.headers.get("Location")).toBe("/employer/employers");
    const cookie = sessionCookieOf(signedInRes)!;

    const choice = await call("/employer/employers", { cookie });
    expect(choice.status).toBe(200);
    const html = await choice.text();
    expect(html).toContain("<h1>Choose an employer</h1>");
    expect(html).toContain(`<legend>Employer</legend>`);
    expect(html).toContain(`<input type="radio" name="employer" value="${first.employerId}" checked="" required=""/> ${first.name}`);
    expect(html).toContain(`<input type="radio" name="employer" value="${second.employerId}"/> ${second.name}`);

    const chosen = await call("/employer/employers", { cookie, form: { employer: String(second.employerId) } });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get("Location")).toBe("/employer");
    const secondCookie = sessionCookieOf(chosen)!;
    expect(secondCookie).not.toBe(cookie);
    expect((await sessionRow(secondCookie))?.employerId).toBe(second.employerId);
    expect(await jobsListed(secondCookie)).toEqual(["Job of Second"]);
    // The session of the first employer ended with the choice.
    expect(await sessionRow(cookie)).toBeNull();
    expect((await call("/employer", { cookie })).status).toBe(303);
  });

  it("the link's `next` is kept through the choice", async () => {
    const { second, email } = await personOfTwo();
    const signedInRes = await signInByLink(email, "/employer/jobs?status=draft");
    expect(signedInRes.headers.get("Location")).toBe(`/employer/employers?next=${encodeURIComponent("/employer/jobs?status=draft")}`);
    const cookie = sessionCookieOf(signedInRes)!;
    const html = await (await call(signedInRes.headers.get("Location")!, { cookie })).text();
    expect(html).toContain('<input type="hidden" name="next" value="/employer/jobs?status=draft"/>');
    const chosen = await call("/employer/employers", { cookie, form: { employer: String(second.employerId), next: "/employer/jobs?status=draft" } });
    expect(chosen.headers.get("Location")).toBe("/employer/jobs?status=draft");
    // Another origin's `next` is not followed.
    const again = await call("/employer/employers", { cookie: sessionCookieOf(chosen)!, form: { employer: String(second.employerId), next: "https://evil.example/" } });
    expect(again.headers.get("Location")).toBe("/employer");
  });

  it("an address of one employer signs in to it at once, and its shell offers no switch", async () => {
    const employer = await createEmployer();
    const email = address();
    await signedIn(employer.employerId, email);
    const res = await signInByLink(email);
    expect(res.headers.get("Location")).toBe("/employer");
    const html = await (await call("/employer/jobs", { cookie: sessionCookieOf(res)! })).text();
    expect(html).not.toContain("Switch employer");
    expect(html).not.toContain('href="/employer/employers"');
  });
});

describe("switching employer (DESIGN 25)", () => {
  it("the shell names the employer and links to the choice on every page; switching is a POST: a new session for the other employer, the old one ended, its 30 days unchanged", async () => {
    const { first, second, email } = await personOfTwo();
    await jobsOf(first, second);
    const cookie = sessionCookieOf(await signInByLink(email))!;
    for (const path of ["/employer", "/employer/jobs", "/employer/employers"]) {
      const html = await (await call(path, { cookie })).text();
      expect(html, path).toContain(`Employer: ${first.name} <a href="/employer/employers">Switch employer</a>`);
    }
    expect(await jobsListed(cookie)).toEqual(["Job of First"]);
    // A GET of the choice changes nothing.
    expect((await sessionRow(cookie))?.employerId).toBe(first.employerId);

    const { expiresAt } = (await sessionRow(cookie))!;
    const switched = sessionCookieOf(await call("/employer/employers", { cookie, form: { employer: String(second.employerId) } }))!;
    expect(await sessionRow(switched)).toEqual({ employerId: second.employerId, expiresAt });
    expect(await sessionRow(cookie)).toBeNull();
    expect(await (await call("/employer/jobs", { cookie: switched })).text()).toContain(`Employer: ${second.name} <a href="/employer/employers">Switch employer</a>`);
    // As a recruiter there: no admin pages.
    expect((await call("/employer/keys", { cookie: switched })).status).toBe(403);

    const back = sessionCookieOf(await call("/employer/employers", { cookie: switched, form: { employer: String(first.employerId) } }))!;
    expect(await jobsListed(back)).toEqual(["Job of First"]);
    expect((await call("/employer/keys", { cookie: back })).status).toBe(200);
  });

  it("an employer the address does not belong to cannot be chosen: 404, nothing changed; no choice at all is 422 with the message beside the choice", async () => {
    const { first, email } = await personOfTwo();
    const stranger = await createEmployer({ name: "Stranger Corp." });
    await signedIn(stranger.employerId, address());
    const cookie = sessionCookieOf(await signInByLink(email))!;
    const sessions = async () => (await env.ACCOUNTS_DB.prepare("SELECT count(*) AS n FROM sessions s JOIN people p ON p.id = s.person_id WHERE p.email = ?").bind(email).first<{ n: number }>())!.n;
    const before = await sessions();
    for (const employer of [String(stranger.employerId), "99999999", "abc", "1 OR 1=1"]) {
      const res = await call("/employer/employers", { cookie, form: { employer } });
      expect(res.status, employer).toBe(404);
      expect(sessionCookieOf(res)).toBeUndefined();
      expect(await res.text()).not.toContain("Stranger Corp.");
    }
    expect(await sessions()).toBe(before);
    expect((await sessionRow(cookie))?.employerId).toBe(first.employerId);
    expect(await (await call("/employer/employers", { cookie })).text()).not.toContain("Stranger Corp.");

    const none = await call("/employer/employers", { cookie, form: {} });
    expect(none.status).toBe(422);
    const html = await none.text();
    expect(html).toContain('<fieldset id="employer" aria-invalid="true" aria-describedby="employer-error">');
    expect(html).toContain("Choose an employer.");
    expect(await sessions()).toBe(before);
  });

  it("a POST from another origin switches nothing (403)", async () => {
    const { first, second, email } = await personOfTwo();
    const cookie = sessionCookieOf(await signInByLink(email))!;
    const res = await call("/employer/employers", { cookie, form: { employer: String(second.employerId) }, origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await sessionRow(cookie))?.employerId).toBe(first.employerId);
  });
});

describe("in French (DESIGN 25)", () => {
  it("the choice and the shell's switch speak the person's language", async () => {
    const { first, email } = await personOfTwo({ lang: "fr" });
    const cookie = sessionCookieOf(await signInByLink(email))!;
    const html = await (await call("/employer/employers", { cookie })).text();
    expect(html).toContain("<h1>Choisir un employeur</h1>");
    expect(html).toContain("appartient à plusieurs employeurs");
    expect(html).toContain(`Employeur : ${first.name} <a href="/employer/employers">Changer d&#39;employeur</a>`);
    const none = await (await call("/employer/employers", { cookie, form: {} })).text();
    expect(none).toContain("Choisissez un employeur.");
  });
});
