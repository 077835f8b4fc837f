import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer } from "./support/api";
import { call, invite, sentMail, sessionCookieOf, signedIn } from "./support/console";

// DESIGN 25, 25a: people in the employer console, for admins — invite (emailed), change a role,
// remove (their sessions end at once); the last admin stays one. Driven over HTTP through the
// Worker's entry, with the emails the console sent recorded.

let counter = 0;
const address = () => `people${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;

async function team(options: { lang?: "en" | "fr"; name?: string } = {}) {
  const employer = await createEmployer({ name: options.name });
  const adminEmail = address();
  const admin = await signedIn(employer.employerId, adminEmail, { role: "admin", lang: options.lang });
  return { employer, admin, adminEmail };
}

const personOf = (employerId: number, email: string) =>
  env.ACCOUNTS_DB.prepare("SELECT id, role FROM people WHERE employer_id = ? AND email = ?").bind(employerId, email).first<{ id: number; role: string }>();
/** Invitations not yet accepted (those of signedIn were). */
const invitationsOf = (employerId: number) => env.ACCOUNTS_DB.prepare("SELECT email, role, invited_by AS invitedBy FROM invitations WHERE employer_id = ? AND used_at IS NULL ORDER BY created_at").bind(employerId).all();

/** The invitation link of the newest email to `to`. */
function invitationLinkIn(to: string): string {
  const link = sentMail.findLast((mail) => mail.to === to)?.text.match(/https?:\/\/\S+\/employer\/invitations\/\S+/)?.[0];
  if (!link) throw new Error(`no invitation email to ${to}`);
  return link;
}

describe("the list (DESIGN 25a: GET /employer/people)", () => {
  it("lists people (email, role, since) and the invitations not yet accepted", async () => {
    const { employer, admin, adminEmail } = await team();
    const recruiterEmail = address();
    await signedIn(employer.employerId, recruiterEmail, { role: "recruiter" });
    const waiting = address();
    await invite(employer.employerId, waiting, { role: "recruiter" });
    await invite(employer.employerId, address(), { expiresAt: Date.now() - 1000 });

    const res = await call("/employer/people", { cookie: admin });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<caption>People of your employer</caption>");
    expect(html).toContain(`<td>${adminEmail} (you)</td><td>Administrator</td>`);
    expect(html).toContain(`<td>${recruiterEmail}</td><td>Recruiter</td>`);
    const today = new Intl.DateTimeFormat("en-CA", { dateStyle: "long", timeZone: "UTC" }).format(new Date());
    expect(html).toContain(`<td>${today}</td>`);
    expect(html).toContain("<caption>Invitations not yet accepted</caption>");
    expect(html).toContain(`<td>${waiting}</td><td>Recruiter</td><td>the operator</td>`);
    // An expired invitation is no longer waiting.
    expect(html.match(/<caption>Invitations not yet accepted<\/caption>[\s\S]*<\/table>/)![0].match(/<tr>/g)).toHaveLength(2);
  });
});

describe("inviting (DESIGN 25a: POST /employer/people sends an invitation)", () => {
  it("an invitation email (subject \"You are invited\") naming the employer and who invited, whose link works: the new person signs in with the role given", async () => {
    const { employer, admin, adminEmail } = await team({ name: "Hardware Ltd." });
    const email = address();
    const res = await call("/employer/people", { cookie: admin, form: { email: ` ${email.toUpperCase()} `, role: "recruiter" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/employer/people?invited");

    const mail = sentMail.findLast((m) => m.to === email)!;
    expect(mail.subject).toMatch(/^You are invited/);
    expect(mail.subject).toContain("Hardware Ltd.");
    expect(mail.text).toContain(`${adminEmail} invites you to Hardware Ltd.'s employer console as a recruiter.`);
    expect(mail.text).toContain("within 7 days");
    const link = invitationLinkIn(email);
    expect(link).toMatch(/^https:\/\/api\.test\/employer\/invitations\/[A-Za-z0-9_-]{43}\?lang=en$/);
    expect(await invitationsOf(employer.employerId)).toMatchObject({ results: [{ email, role: "recruiter", invitedBy: adminEmail }] });

    const page = await call("/employer/people?invited", { cookie: admin });
    const html = await page.text();
    expect(html).toContain('<p class="notice" role="status">Invitation sent.</p>');
    expect(html).toContain(`<td>${email}</td><td>Recruiter</td><td>${adminEmail}</td>`);

    const opened = await call(link);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Hardware Ltd.");
    const accepted = await call(link, { form: {} });
    expect(accepted.status).toBe(303);
    const cookie = sessionCookieOf(accepted)!;
    expect(await (await call("/employer", { cookie })).text()).toContain(`Signed in as ${email}, recruiter.`);
    expect(await personOf(employer.employerId, email)).toMatchObject({ role: "recruiter" });
  });

  it("an invalid email or role: 422, the form again with what was typed and each message beside its field; nothing sent", async () => {
    const { employer, admin } = await team();
    const before = sentMail.length;
    const res = await call("/employer/people", { cookie: admin, form: { email: "not an address", role: "owner" } });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('id="email" name="email" type="email" autocomplete="off" required="" value="not an address" aria-invalid="true" aria-describedby="email-error"');
    expect(html).toContain('<strong id="email-error" class="error">Enter a valid email address.</strong>');
    expect(html).toContain('<select id="role" name="role" aria-invalid="true" aria-describedby="role-error">');
    expect(html).toContain('<strong id="role-error" class="error">Choose administrator or recruiter.</strong>');

    const roleOnly = await call("/employer/people", { cookie: admin, form: { email: address(), role: "" } });
    expect(roleOnly.status).toBe(422);
    expect(await roleOnly.text()).not.toContain('id="email-error"');
    expect(sentMail.length).toBe(before);
    expect((await invitationsOf(employer.employerId)).results).toHaveLength(0);
  });

  it("an address that is one of the employer's people already: 422 beside the email, no invitation", async () => {
    const { employer, admin, adminEmail } = await team();
    const res = await call("/employer/people", { cookie: admin, form: { email: adminEmail, role: "admin" } });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('<strong id="email-error" class="error">This address is one of your people already.</strong>');
    expect((await invitationsOf(employer.employerId)).results).toHaveLength(0);
  });
});

describe("roles and removal (DESIGN 25a: POST /employer/people/{id}/role, /remove)", () => {
  it("a role change applies at the person's next request", async () => {
    const { employer, admin } = await team();
    const email = address();
    const cookie = await signedIn(employer.employerId, email, { role: "recruiter" });
    expect((await call("/employer/keys", { cookie })).status).toBe(403);
    const { id } = (await personOf(employer.employerId, email))!;

    const res = await call(`/employer/people/${id}/role`, { cookie: admin, form: { role: "admin" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/employer/people?saved");
    expect(await personOf(employer.employerId, email)).toMatchObject({ role: "admin" });
    expect((await call("/employer/keys", { cookie })).status).toBe(200);

    expect((await call(`/employer/people/${id}/role`, { cookie: admin, form: { role: "recruiter" } })).status).toBe(303);
    expect((await call("/employer/keys", { cookie })).status).toBe(403);

    const invalid = await call(`/employer/people/${id}/role`, { cookie: admin, form: { role: "owner" } });
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toContain(`<strong id="role-${id}-error" class="error">Choose administrator or recruiter.</strong>`);
    expect(await personOf(employer.employerId, email)).toMatchObject({ role: "recruiter" });
  });

  it("remove ends the removed person's sessions at once: their next request is 303 to sign-in", async () => {
    const { employer, admin } = await team();
    const email = address();
    const cookie = await signedIn(employer.employerId, email, { role: "recruiter" });
    expect((await call("/employer", { cookie })).status).toBe(200);
    const { id } = (await personOf(employer.employerId, email))!;

    const res = await call(`/employer/people/${id}/remove`, { cookie: admin, form: {} });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/employer/people?removed");
    const next = await call("/employer", { cookie });
    expect(next.status).toBe(303);
    expect(next.headers.get("Location")).toMatch(/^\/employer\/sign-in\?next=/);
    expect(await personOf(employer.employerId, email)).toBeNull();
    expect(await env.ACCOUNTS_DB.prepare("SELECT count(*) AS n FROM sessions WHERE person_id = ?").bind(id).first()).toEqual({ n: 0 });
    expect(await (await call("/employer/people?removed", { cookie: admin })).text()).not.toContain(email);
  });

  it("the last admin can be neither removed nor made a recruiter: 409, nothing changed", async () => {
    const { employer, admin, adminEmail } = await team();
    const recruiter = address();
    await signedIn(employer.employerId, recruiter, { role: "recruiter" });
    const { id } = (await personOf(employer.employerId, adminEmail))!;

    const demote = await call(`/employer/people/${id}/role`, { cookie: admin, form: { role: "recruiter" } });
    expect(demote.status).toBe(409);
    expect(await demote.text()).toContain("last administrator");
    const remove = await call(`/employer/people/${id}/remove`, { cookie: admin, form: {} });
    expect(remove.status).toBe(409);
    expect(await personOf(employer.employerId, adminEmail)).toMatchObject({ role: "admin" });
    expect((await call("/employer/people", { cookie: admin })).status).toBe(200);
  });

  it("two admins removing each other at once: one of them stays, an admin", async () => {
    const { employer, admin, adminEmail } = await team();
    const otherEmail = address();
    const other = await signedIn(employer.employerId, otherEmail, { role: "admin" });
    const first = (await personOf(employer.employerId, adminEmail))!.id;
    const second = (await personOf(employer.employerId, otherEmail))!.id;
    const answers = await Promise.all([
      call(`/employer/people/${second}/remove`, { cookie: admin, form: {} }),
      call(`/employer/people/${first}/remove`, { cookie: other, form: {} }),
    ]);
    expect(answers.map((res) => res.status).filter((status) => status === 303).length).toBeGreaterThanOrEqual(1);
    const left = await env.ACCOUNTS_DB.prepare("SELECT role FROM people WHERE employer_id = ?").bind(employer.employerId).all();
    expect(left.results).toEqual([{ role: "admin" }]);
  });

  it("another employer's person: 404, and nothing changed", async () => {
    const { admin } = await team();
    const other = await team();
    const { id } = (await personOf(other.employer.employerId, other.adminEmail))!;
    expect((await call(`/employer/people/${id}/role`, { cookie: admin, form: { role: "recruiter" } })).status).toBe(404);
    expect((await call(`/employer/people/${id}/role`, { cookie: admin, form: { role: "owner" } })).status).toBe(404);
    expect((await call(`/employer/people/${id}/remove`, { cookie: admin, form: {} })).status).toBe(404);
    expect((await call("/employer/people/not-a-number/remove", { cookie: admin, form: {} })).status).toBe(404);
    expect(await personOf(other.employer.employerId, other.adminEmail)).toMatchObject({ role: "admin" });
    expect((await call("/employer", { cookie: other.admin })).status).toBe(200);
  });
});

describe("admins only, the console's own Origin, in French", () => {
  it("a recruiter gets 403 on every people page and POST, and nothing changed", async () => {
    const { employer, adminEmail } = await team();
    const recruiter = await signedIn(employer.employerId, address(), { role: "recruiter" });
    const { id } = (await personOf(employer.employerId, adminEmail))!;
    const before = sentMail.length;
    for (const [path, form] of [
      ["/employer/people", undefined],
      ["/employer/people", { email: address(), role: "admin" }],
      [`/employer/people/${id}/role`, { role: "recruiter" }],
      [`/employer/people/${id}/remove`, {}],
    ] as const) {
      const res = await call(path, { cookie: recruiter, form });
      expect(res.status, path).toBe(403);
      expect(await res.text()).toContain("For administrators only");
    }
    expect(sentMail.length).toBe(before);
    expect(await personOf(employer.employerId, adminEmail)).toMatchObject({ role: "admin" });
  });

  it("a POST whose Origin is foreign: 403, and nothing changed (no invitation, role or removal)", async () => {
    const { employer, admin } = await team();
    const email = address();
    const cookie = await signedIn(employer.employerId, email, { role: "recruiter" });
    const { id } = (await personOf(employer.employerId, email))!;
    const evil = "https://evil.example";
    const before = sentMail.length;
    expect((await call("/employer/people", { cookie: admin, form: { email: address(), role: "admin" }, origin: evil })).status).toBe(403);
    expect((await call(`/employer/people/${id}/role`, { cookie: admin, form: { role: "admin" }, origin: evil })).status).toBe(403);
    expect((await call(`/employer/people/${id}/remove`, { cookie: admin, form: {}, origin: evil })).status).toBe(403);
    expect(sentMail.length).toBe(before);
    expect((await invitationsOf(employer.employerId)).results).toHaveLength(0);
    expect(await personOf(employer.employerId, email)).toMatchObject({ role: "recruiter" });
    expect((await call("/employer", { cookie })).status).toBe(200);
  });

  it("in French for a French-speaking admin: the page, and the invitation email (subject \"Invitation\") whose link opens in French", async () => {
    const { admin, adminEmail } = await team({ lang: "fr", name: "Boulangerie Ltée" });
    const page = await (await call("/employer/people", { cookie: admin })).text();
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain("<h1>Personnes</h1>");
    expect(page).toContain(`<td>${adminEmail} (vous)</td><td>Administrateur</td>`);
    expect(page).toContain("Envoyer l&#39;invitation");

    const email = address();
    expect((await call("/employer/people", { cookie: admin, form: { email, role: "admin" } })).status).toBe(303);
    const mail = sentMail.findLast((m) => m.to === email)!;
    expect(mail.subject).toMatch(/^Invitation/);
    expect(mail.text).toContain(`${adminEmail} vous invite à la console employeur de Boulangerie Ltée à titre d'administrateur.`);
    const link = invitationLinkIn(email);
    expect(link).toMatch(/\?lang=fr$/);
    expect(await (await call(link)).text()).toContain("Accepter et me connecter");
    const invalid = await (await call("/employer/people", { cookie: admin, form: { email: "x", role: "admin" } })).text();
    expect(invalid).toContain("Entrez une adresse courriel valide.");
  });
});
