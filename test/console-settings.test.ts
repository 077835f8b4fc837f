import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createEmployer, request, type TestEmployer } from "./support/api";
import { call, signedIn } from "./support/console";

// DESIGN 19, 25: the employer's settings in the console, for admins — the API's GET and PUT
// /employer through the same schema and service, driven over HTTP as a browser does.

let counter = 0;
const address = () => `settings${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;

async function admin(options: { lang?: "en" | "fr"; name?: string } = {}) {
  const employer = await createEmployer({ name: options.name });
  return { employer, cookie: await signedIn(employer.employerId, address(), { lang: options.lang }) };
}

const apiSettings = async (who: TestEmployer) => (await request("/employer", { apiKey: who.apiKey })).json<Record<string, unknown>>();

/** The opening tag of the element with this id (the test fails when there is none). */
function tagOf(html: string, id: string): string {
  const tag = html.match(new RegExp(`<[a-z]+ [^>]*\\bid="${id}"[^>]*>`))?.[0];
  expect(tag, `an element with id ${id}`).toBeDefined();
  return tag!;
}

const radioOf = (html: string, value: string) => html.match(new RegExp(`<input type="radio" name="postingRules" value="${value}"[^>]*>`))?.[0] ?? "";
const federalBoxOf = (html: string) => html.match(/<input type="checkbox" name="federallyRegulated"[^>]*>/)?.[0] ?? "";
const revisionOf = (html: string) => html.match(/<input type="hidden" name="revision" value="(\d+)"\/>/)![1];

/** The settings page's form as it is, with `changes`. */
async function formOf(cookie: string, changes: Record<string, string | undefined>) {
  const html = await (await call("/employer/settings", { cookie })).text();
  const fields: Record<string, string | undefined> = {
    revision: revisionOf(html),
    name: tagOf(html, "name").match(/value="([^"]*)"/)![1],
    ontarioEmployees: tagOf(html, "ontarioEmployees").match(/value="([^"]*)"/)![1],
    federallyRegulated: federalBoxOf(html).includes("checked") ? "yes" : undefined,
    postingRules: radioOf(html, "enforce").includes("checked") ? "enforce" : "warn",
    ...changes,
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

const renamedEvents = async (employerId: number) =>
  (await env.DB.prepare("SELECT data FROM events WHERE employer_id = ? AND type = 'employer.renamed' ORDER BY seq").bind(employerId).all<{ data: string }>()).results.map(
    (row) => JSON.parse(row.data),
  );

describe("the employer's settings in the console (DESIGN 19, 25)", () => {
  it("GET /employer/settings shows the settings the API has: name, employees in Ontario (empty: unknown), federally regulated, warn or enforce", async () => {
    const { employer, cookie } = await admin({ name: "Shown Ltd." });
    await request("/employer", { method: "PUT", apiKey: employer.apiKey, json: { ontarioEmployees: 40, postingRules: "enforce" } });
    const res = await call("/employer/settings", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>Settings</h1>");
    expect(tagOf(html, "name")).toContain('value="Shown Ltd."');
    expect(tagOf(html, "ontarioEmployees")).toContain('value="40"');
    expect(federalBoxOf(html)).not.toContain("checked");
    expect(radioOf(html, "enforce")).toContain("checked");
    expect(radioOf(html, "warn")).not.toContain("checked");
    expect(revisionOf(html)).toMatch(/^\d+$/);

    await request("/employer", { method: "PUT", apiKey: employer.apiKey, json: { ontarioEmployees: null, federallyRegulated: true } });
    const after = await (await call("/employer/settings", { cookie })).text();
    expect(tagOf(after, "ontarioEmployees")).toContain('value=""');
    expect(federalBoxOf(after)).toContain("checked");
  });

  it("POST /employer/settings saves every member as the API's PUT does (303, Saved.); the API agrees; a new name is evented as the API's", async () => {
    const { employer, cookie } = await admin({ name: "Before Ltd." });
    const saved = await call("/employer/settings", { cookie, form: await formOf(cookie, { name: "  After Ltd. ", ontarioEmployees: "12", federallyRegulated: "yes", postingRules: "enforce" }) });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toBe("/employer/settings?saved");
    expect(await apiSettings(employer)).toEqual({ id: employer.employerId, name: "After Ltd.", ontarioEmployees: 12, federallyRegulated: true, postingRules: "enforce" });
    expect(await renamedEvents(employer.employerId)).toEqual([{ name: "After Ltd." }]);
    expect(await (await call("/employer/settings?saved", { cookie })).text()).toContain('<p role="status">Saved.</p>');

    // An empty number is unknown again; an absent box is false.
    expect((await call("/employer/settings", { cookie, form: await formOf(cookie, { ontarioEmployees: "", federallyRegulated: undefined, postingRules: "warn" }) })).status).toBe(303);
    expect(await apiSettings(employer)).toMatchObject({ name: "After Ltd.", ontarioEmployees: null, federallyRegulated: false, postingRules: "warn" });
    expect(await renamedEvents(employer.employerId)).toHaveLength(1);
  });

  it("invalid input: 422 with each message beside its field (aria-invalid), what was typed kept, nothing saved", async () => {
    const { employer, cookie } = await admin({ name: "Kept Ltd." });
    for (const ontarioEmployees of ["2.5", "-1", "many", "10000001"]) {
      const res = await call("/employer/settings", { cookie, form: await formOf(cookie, { name: "   ", ontarioEmployees, federallyRegulated: "yes", postingRules: "block" }) });
      expect(res.status, ontarioEmployees).toBe(422);
      const html = await res.text();
      expect(tagOf(html, "name")).toContain('aria-invalid="true"');
      expect(html).toContain('<strong id="name-error" class="error">Enter a name of 1 to 128 characters.</strong>');
      expect(tagOf(html, "ontarioEmployees")).toContain('aria-invalid="true"');
      expect(tagOf(html, "ontarioEmployees")).toContain(`value="${ontarioEmployees}"`);
      expect(html).toContain('<strong id="ontarioEmployees-error" class="error">Enter a whole number from 0 to 10,000,000');
      expect(tagOf(html, "postingRules")).toContain('aria-invalid="true"');
      expect(federalBoxOf(html)).toContain("checked");
      expect(html).toContain('<p role="alert" class="error">Nothing was saved');
    }
    // One bad field keeps the others from being saved.
    expect((await call("/employer/settings", { cookie, form: await formOf(cookie, { ontarioEmployees: "x", federallyRegulated: "yes" }) })).status).toBe(422);
    expect(await apiSettings(employer)).toMatchObject({ name: "Kept Ltd.", ontarioEmployees: null, federallyRegulated: false, postingRules: "warn" });
  });

  it("a save against a newer version (changed through the API meanwhile): 409 showing both, nothing saved; saved again from there, it applies", async () => {
    const { employer, cookie } = await admin({ name: "Raced Ltd." });
    const opened = await formOf(cookie, { name: "Console Ltd.", ontarioEmployees: "30" });
    await request("/employer", { method: "PUT", apiKey: employer.apiKey, json: { name: "API Ltd.", postingRules: "enforce" } });
    const res = await call("/employer/settings", { cookie, form: opened });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("<h1>The settings changed meanwhile</h1>");
    expect(html).toContain("<dd>API Ltd.</dd>");
    expect(tagOf(html, "name")).toContain('value="Console Ltd."');
    expect(await apiSettings(employer)).toMatchObject({ name: "API Ltd.", ontarioEmployees: null, postingRules: "enforce" });

    const again = Object.fromEntries([...new URLSearchParams(opened)].map(([name, value]) => [name, name === "revision" ? revisionOf(html) : value]));
    expect((await call("/employer/settings", { cookie, form: again })).status).toBe(303);
    expect(await apiSettings(employer)).toMatchObject({ name: "Console Ltd.", ontarioEmployees: 30, postingRules: "warn" });
    // A form that names no revision is never taken for the current one.
    const { revision: _revision, ...unversioned } = await formOf(cookie, { name: "Blind Ltd." });
    expect((await call("/employer/settings", { cookie, form: unversioned })).status).toBe(409);
    expect((await apiSettings(employer)).name).toBe("Console Ltd.");
  });
});

describe("who may (DESIGN 25, 25a)", () => {
  it("a recruiter gets 403 on the settings page and its POST, and nothing changes", async () => {
    const employer = await createEmployer({ name: "Guarded Ltd." });
    const cookie = await signedIn(employer.employerId, address(), { role: "recruiter" });
    const page = await call("/employer/settings", { cookie });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("For administrators only");
    expect((await call("/employer/settings", { cookie, form: { revision: "0", name: "Taken Ltd.", postingRules: "enforce" } })).status).toBe(403);
    expect(await apiSettings(employer)).toMatchObject({ name: "Guarded Ltd.", postingRules: "warn" });
  });

  it("a POST from a foreign Origin: 403, nothing changed", async () => {
    const { employer, cookie } = await admin({ name: "Origin Ltd." });
    const res = await call("/employer/settings", { cookie, origin: "https://attacker.example", form: await formOf(cookie, { name: "Hijacked Ltd." }) });
    expect(res.status).toBe(403);
    expect((await apiSettings(employer)).name).toBe("Origin Ltd.");
  });
});

describe("in French (DESIGN 25: English and French on every page)", () => {
  it("a French-speaking admin reads the settings, the messages and the conflict in French", async () => {
    const { employer, cookie } = await admin({ lang: "fr" });
    const read = async (res: Response) => (await res.text()).replaceAll("&#39;", "'");
    const html = await read(await call("/employer/settings", { cookie }));
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain("<h1>Paramètres</h1>");
    expect(html).toContain("Employés en Ontario");
    expect(html).toContain("Exiger : refuser de publier");
    const refused = await read(await call("/employer/settings", { cookie, form: await formOf(cookie, { name: "", ontarioEmployees: "beaucoup" }) }));
    expect(refused).toContain("Entrez un nom de 1 à 128 caractères.");
    expect(refused).toContain("Entrez un nombre entier de 0 à 10 000 000");
    const opened = await formOf(cookie, { name: "Nouveau nom" });
    await request("/employer", { method: "PUT", apiKey: employer.apiKey, json: { ontarioEmployees: 5 } });
    const conflict = await read(await call("/employer/settings", { cookie, form: opened }));
    expect(conflict).toContain("<h1>Les paramètres ont changé entre-temps</h1>");
    expect(conflict).toContain("Rien n'a été enregistré.");
  });
});
