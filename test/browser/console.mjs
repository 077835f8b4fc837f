// Browser test of the employer console (DESIGN 25, 25a): the site (site.mjs) with its employer,
// people invited as `npm run people -- invite` does, then Chromium (Playwright's library, the
// system's Chromium): an invitation accepted, sign-in by emailed link with JavaScript on and off,
// every console page in English and French — its errors shown too — with axe-core (WCAG 2.2 AA
// rules), html-validate and the W3C Nu Html Checker on the HTML as served; a job created with the keyboard alone and one
// with JavaScript off; the description editor under the console's own CSP (what it writes is what
// is saved); a recruiter refused the admins' pages. Screenshots for docs/console.md.
// The operator's console (DESIGN 26) too: behind an Access of this test's own (its keys served on
// a local port as a team domain serves them, a token signed here), every page in both languages.
// Prints "N passed, M failed"; exits 1 on failure.
//
//   node test/browser/console.mjs [--report file.json]   (CHROMIUM=/path, SCREENSHOTS=dir)
import { generateKeyPairSync } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HtmlValidate } from "html-validate";
import { importJWK, SignJWT } from "jose";
import { chromium } from "playwright-core";
import { wrangler, sqlString } from "../../scripts/lib/wrangler.mjs";
import { hashToken, newToken } from "../../src/accounts/tokens.ts";
import { checks } from "./checks.mjs";
import { startSite } from "./site.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const SCREENSHOTS = process.env.SCREENSHOTS ?? join(root, "docs");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

const { check, finish } = checks();

let site;
let browser;
let access;
// Every page as served, for the W3C Nu Html Checker at the end (one Java run for them all).
const served_ = mkdtempSync(join(tmpdir(), "console-pages-"));
const servedNames = [];
let servedCount = 0;
try {
  // A stand-in of Cloudflare Access: its team domain is a local server publishing this key.
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = "browser-test";
  const certs = JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] });
  access = createServer((req, res) => res.writeHead(req.url === "/cdn-cgi/access/certs" ? 200 : 404, { "Content-Type": "application/json" }).end(certs));
  await new Promise((resolve) => access.listen(0, "127.0.0.1", resolve));
  const team = `http://127.0.0.1:${access.address().port}`;
  const audience = "browser-test-audience";
  site = await startSite({ args: ["--var", `ACCESS_TEAM_DOMAIN:${team}`, "--var", `ACCESS_AUD:${audience}`] });
  const accessToken = async (email) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email, type: "app" }).setProtectedHeader({ alg: "RS256", kid }).setIssuer(team).setAudience([audience]).setSubject(email).setIssuedAt(now).setExpirationTime(now + 3600)
      .sign(await importJWK({ ...privateKey.export({ format: "jwk" }), kid }, "RS256"));
  };

  /** An invitation as `npm run people -- invite` writes it; its address. */
  async function invitation(email, role) {
    const token = newToken();
    const now = Date.now();
    wrangler(["d1", "execute", "ACCOUNTS_DB", "--local", "--persist-to", site.state, "--command",
      `INSERT INTO invitations (token_hash, employer_id, email, role, invited_by, created_at, expires_at) VALUES (${sqlString(await hashToken(token))}, ${site.employerId}, ${sqlString(email)}, ${sqlString(role)}, 'operator', ${now}, ${now + 7 * 86_400_000})`]);
    return `${site.origin}/employer/invitations/${token}`;
  }

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  // axe is added to the page as a script: this context lets it past the console's CSP.
  const admin = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  const page = await admin.newPage();

  async function accessible(target, name) {
    await target.addScriptTag({ content: AXE });
    const violations = await target.evaluate(async (tags) => {
      const result = await globalThis.axe.run(document, { runOnly: { type: "tag", values: tags } });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    }, WCAG22_AA);
    check(`axe-core: no WCAG 2.2 AA violation on ${name}`, violations.length === 0, violations.join("\n    "));
  }
  const validator = new HtmlValidate({ extends: ["html-validate:standard"] });
  async function validHtmlOf(name, html) {
    writeFileSync(join(served_, `${String(++servedCount).padStart(3, "0")}.html`), html);
    servedNames.push(name);
    const report = await validator.validateString(html);
    const messages = report.results.flatMap((result) => result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
    const whole = /^<!DOCTYPE html>/i.test(html);
    check(`valid HTML: ${name}`, report.valid && whole, whole ? messages.join("\n    ") : `not an HTML document: ${JSON.stringify(html.slice(0, 80))}`);
  }
  /** The page as served to this browser (its cookie), not its DOM. */
  const served = async (target) => (await target.context().request.get(target.url())).text();
  /** Both checks on the page the browser shows now; its HTML as served by a GET of its address, or `html` (a POST's answer). */
  async function checked(target, name, html) {
    await accessible(target, name);
    await validHtmlOf(name, html ?? (await served(target)));
  }
  const shot = (target, file) => target.screenshot({ path: join(SCREENSHOTS, file), fullPage: true });

  // Invitation: a page with one button; its POST signs in.
  await page.goto(await invitation("admin@browser.example", "admin"));
  check("invitation: names the employer and the role", /Browser Test Ltd\./.test(await page.locator("main").innerText()) && /an administrator/.test(await page.locator("main").innerText()));
  await checked(page, "the invitation page");
  await page.getByRole("button", { name: "Accept and sign in" }).click();
  await page.waitForURL(/\/employer$/);
  check("invitation accepted: signed in on the console's home", (await page.locator("h1").innerText()).includes("Browser Test Ltd."));
  await checked(page, "the console's home");
  await shot(page, "console-home.png");

  // The console in French: the person's setting, through the header's button.
  await page.getByRole("button", { name: "Français" }).click();
  await page.waitForURL(/\/employer$/);
  check("French: the person's setting changes every page's language", (await page.locator("html").getAttribute("lang")) === "fr" && /Console employeur/.test(await page.locator("h1").innerText()));
  await checked(page, "the console's home in French");
  await page.getByRole("button", { name: "English" }).click();
  await page.waitForURL(/\/employer$/);

  // Sign-in by emailed link, JavaScript off (a browser that runs no script signs in the same way).
  const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const plain = await noScript.newPage();
  await plain.goto(`${site.origin}/employer/jobs`);
  check("without a session: 303 to the sign-in page, which comes back", /\/employer\/sign-in\?next=%2Femployer%2Fjobs$/.test(plain.url()));
  await validHtmlOf("the sign-in page", await served(plain));
  await plain.fill("#email", "ada@example"); // the browser accepts it; the console does not
  await plain.click("button[type=submit]");
  await plain.waitForLoadState("load");
  check("sign-in with a broken address: the message tied to the field", (await plain.getAttribute("#email", "aria-invalid")) === "true");
  await plain.fill("#email", "admin@browser.example");
  await plain.click("button[type=submit]");
  await plain.waitForURL(/\/employer\/sign-in\?sent/);
  let link;
  for (let i = 0; i < 40 && !link; i++) {
    link = site.emailsTo("admin@browser.example").at(-1)?.match(/https?:\/\/\S+\/employer\/sign-in\/\S+/)?.[0];
    if (!link) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  check("sign-in: the email holds the link", Boolean(link));
  if (link) {
    await plain.goto(link);
    await validHtmlOf("the sign-in link's page", await served(plain));
    await plain.getByRole("button", { name: "Sign in" }).click();
    await plain.waitForURL(/\/employer\/jobs$/);
    check("JavaScript off: signed in by the emailed link, back where the person was going", new URL(plain.url()).pathname === "/employer/jobs");
  }

  for (const lang of ["en", "fr"]) {
    const signIn = await browser.newContext({ bypassCSP: true });
    const p = await signIn.newPage();
    await p.goto(`${site.origin}/employer/sign-in?lang=${lang}`);
    await accessible(p, `the sign-in page (${lang})`);
    await p.fill("#email", "ada@example");
    const [answer] = await Promise.all([p.waitForResponse((res) => res.request().method() === "POST"), p.click("button[type=submit]")]);
    await checked(p, `the sign-in page with its error (${lang})`, await answer.text());
    await signIn.close();
  }

  // A job made with the keyboard alone: Tab to each field, type, Tab to Save, Enter.
  await page.goto(`${site.origin}/employer/jobs/new`);
  async function tabTo(target, matches, what) {
    for (let i = 0; i < 120; i++) {
      await target.keyboard.press("Tab");
      if (await target.evaluate(matches)) return true;
    }
    throw new Error(`Tab never reached ${what}`);
  }
  await tabTo(page, () => document.activeElement?.id === "title", "the title");
  await page.keyboard.type("Keyboard Clerk");
  await tabTo(page, () => document.activeElement?.id === "location-1", "the first place");
  await page.keyboard.type("Toronto, ON");
  await tabTo(page, () => document.activeElement?.getAttribute("name") === "category", "the first category");
  await page.keyboard.press("Space");
  // The description editor (JavaScript on): its toolbar is one stop, then the text.
  await tabTo(page, () => document.activeElement?.id === "description-editor", "the description's editor");
  await page.keyboard.type("Typed without a mouse, ");
  await page.keyboard.press("Control+b");
  await page.keyboard.type("in bold");
  await page.keyboard.press("Control+b");
  await page.keyboard.press("Enter");
  // Back to the toolbar (one stop), along it with the arrows, and a button pressed from there.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  const onListButton = await page.evaluate(() => document.activeElement?.textContent === "Bulleted list" && document.activeElement.closest("[role=toolbar]") !== null);
  check("keyboard: the editor's toolbar is one Tab stop, its buttons reached with the arrow keys", onListButton);
  await page.keyboard.press("Space");
  await page.keyboard.type("Listed");
  await tabTo(page, () => document.activeElement?.tagName === "BUTTON" && document.activeElement.textContent?.trim() === "Save", "Save");
  const focusVisible = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle !== "none");
  check("keyboard: the focused button shows its focus", focusVisible);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/employer\/jobs\/\d+(\?saved)?$/);
  const keyboardJob = Number(new URL(page.url()).pathname.split("/").at(-1));
  const made = await site.api(`/jobs/${keyboardJob}`);
  check("keyboard alone: the job is saved, as the API shows it", made.status === 200 && made.body.title === "Keyboard Clerk" && made.body.locations?.[0]?.description === "Toronto, ON", JSON.stringify(made).slice(0, 300));
  check("keyboard alone: the editor's text, its shortcut (Control+B) and its list saved", made.body?.description === "<p>Typed without a mouse, <strong>in bold</strong></p><ul><li>Listed</li></ul>", made.body?.description);
  await shot(page, "console-job.png");

  // The description editor under the console's own CSP (no bypass): what it writes is what is saved.
  const strict = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await strict.addCookies(await admin.cookies());
  const editing = await strict.newPage();
  const refusedByPolicy = [];
  editing.on("console", (message) => /Content Security Policy|Refused to/i.test(message.text()) && refusedByPolicy.push(message.text()));
  editing.on("pageerror", (error) => refusedByPolicy.push(String(error)));
  await editing.goto(`${site.origin}/employer/jobs/new`);
  const editors = editing.getByRole("toolbar");
  const description = editing.getByRole("textbox", { name: "Description", exact: true });
  check(
    "the editor (JavaScript on): a toolbar per description and a text box named by the field's label, the textareas hidden",
    (await editors.count()) === 2 && (await description.count()) === 1 && !(await editing.isVisible("#description")) && !(await editing.isVisible("#frDescription")),
    `${await editors.count()} toolbars, ${await description.count()} text boxes`,
  );
  check(
    "the editor: tied to the field's hint as the textarea was, in French for the French description",
    (await description.getAttribute("aria-describedby")) === "description-hint" && (await editing.getAttribute("#frDescription-editor", "lang")) === "fr",
  );
  check("the editor: the hint says what it keeps, not which HTML to type", (await editing.innerText("#description-hint")).startsWith("Kept: bold, italic"));
  await editing.fill("#title", "Editor Clerk");
  await editing.fill("#location-1", "Halifax, NS");
  await editing.check('input[name="category"][value="1"]');
  const toolbar = editing.getByRole("toolbar", { name: "Formatting: Description", exact: true });
  const bold = toolbar.getByRole("button", { name: "Bold" });
  await description.click();
  await editing.keyboard.type("Lead the team. ");
  await bold.click();
  check("the editor: Bold is pressed once chosen (aria-pressed)", (await bold.getAttribute("aria-pressed")) === "true");
  await editing.keyboard.type("Safety first");
  await bold.click();
  await editing.keyboard.press("Enter");
  await toolbar.getByRole("button", { name: "Bulleted list" }).click();
  await editing.keyboard.type("Forklift");
  await editing.keyboard.press("Enter");
  await editing.keyboard.type("First aid ");
  check("the editor: the list's button is pressed inside the list", (await toolbar.getByRole("button", { name: "Bulleted list" }).getAttribute("aria-pressed")) === "true");
  editing.once("dialog", (dialog) => dialog.accept("https://example.com/training"));
  await toolbar.getByRole("button", { name: "Link" }).click();
  await editing.locator("#description-editor").locator("xpath=ancestor::p[1]").screenshot({ path: join(SCREENSHOTS, "console-job-editor.png") });
  await editing.getByRole("button", { name: "Save", exact: true }).click();
  await editing.waitForURL(/\/employer\/jobs\/\d+(\?saved)?$/);
  const edited = await site.api(`/jobs/${new URL(editing.url()).pathname.split("/").at(-1)}`);
  check(
    "the editor: typing, bold, a list and a link save a description of the allowed HTML",
    edited.body?.description === '<p>Lead the team. <strong>Safety first</strong></p><ul><li>Forklift</li><li>First aid <a href="https://example.com/training">https://example.com/training</a></li></ul>',
    edited.body?.description,
  );
  check("the editor: the saved description shown again in the editor", (await editing.locator("#description-editor strong").innerText().catch(() => "")) === "Safety first");
  check("the editor: nothing refused by the console's CSP, no script error", refusedByPolicy.length === 0, refusedByPolicy.join("\n    "));
  // Pasted from elsewhere: only what the cleaner keeps comes into the text (the French one here),
  // and nothing pasted runs (its handlers are refused by the CSP too, which reports them).
  await editing.goto(`${site.origin}/employer/jobs/new`);
  await editing.locator("#frDescription-editor").click();
  const pasted = await editing.evaluate(async () => {
    const data = new DataTransfer();
    data.setData("text/html", '<h1 class="x">Titre</h1><p style="color:red" onmouseover="window.pastedRan=1">Texte <span>gardé</span> <a href="javascript:alert(1)">piège</a> <a href="https://ok.example/" target="_blank" title="t">lien</a></p><table><tr><td>cellule</td></tr></table><img src="x" onerror="window.pastedRan=1"><ol start="3"><li>trois</li></ol><script>window.pastedRan=1</script>');
    document.getElementById("frDescription-editor").dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    await new Promise((resolve) => setTimeout(resolve, 300)); // an image's error would have come by now
    const written = document.getElementById("frDescription").value;
    const holder = document.createElement("template");
    holder.innerHTML = written;
    const elements = [...holder.content.querySelectorAll("*")];
    return {
      written,
      allowed: elements.every((element) => ["P", "BR", "STRONG", "EM", "UL", "OL", "LI", "A"].includes(element.tagName)),
      attributes: elements.flatMap((element) => [...element.attributes].map((attribute) => `${element.tagName}[${attribute.name}=${attribute.value}]`)),
      text: holder.content.textContent,
      ran: "pastedRan" in window,
    };
  });
  check(
    "the editor: pasted HTML keeps only the allow-list's elements, no attribute but a safe link's href, and all of its text",
    pasted.allowed && pasted.attributes.join() === "A[href=https://ok.example/]" && ["Titre", "gardé", "piège", "lien", "cellule", "trois"].every((word) => pasted.text.includes(word)) && !pasted.text.includes("pastedRan") && !pasted.ran,
    JSON.stringify(pasted),
  );
  await strict.close();

  // A job made with JavaScript off: the description is the textarea, HTML typed by hand.
  await plain.goto(`${site.origin}/employer/jobs/new`);
  check("JavaScript off: the description is the plain textarea, no toolbar", (await plain.isVisible("#description")) && (await plain.getByRole("toolbar").count()) === 0);
  await plain.fill("#title", "Scriptless Clerk");
  await plain.fill("#location-1", "Ottawa, ON");
  await plain.fill("#description", "<p>No script needed.</p>");
  await plain.check('input[name="category"][value="1"]');
  await plain.getByRole("button", { name: "Save", exact: true }).click();
  await plain.waitForURL(/\/employer\/jobs\/\d+(\?saved)?$/);
  const plainJob = await site.api(`/jobs/${new URL(plain.url()).pathname.split("/").at(-1)}`);
  check("JavaScript off: a job made through the form", plainJob.status === 200 && plainJob.body.title === "Scriptless Clerk", JSON.stringify(plainJob).slice(0, 300));

  // An application to look at (the board's apply API, as a job seeker's browser sends it).
  const applied = await fetch(`${site.origin}/api/v1.1/board/jobs/${site.emailJob.body.id}/applications`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Grace Hopper", email: "grace@browser.example", answers: { permit: true } }),
  });
  const application = await applied.json().catch(() => ({}));
  check("an application through the board", applied.status === 201 && Number.isInteger(application.id), JSON.stringify(application).slice(0, 300));

  // Every console page, in English then French (the person's setting), each with axe-core and html-validate.
  const pages = [
    ["the console's home", "/employer"],
    ["the jobs list", "/employer/jobs"],
    ["a new job's form", "/employer/jobs/new"],
    ["a job's form", `/employer/jobs/${keyboardJob}`],
    ["a job's preview", `/employer/jobs/${keyboardJob}/preview`],
    ["a job's applications", `/employer/jobs/${site.emailJob.body.id}/applications`],
    ["all applications", "/employer/applications"],
    ["an application", `/employer/applications/${application.id}`],
    ["the webhooks", "/employer/webhooks"],
    ["the settings", "/employer/settings"],
    ["the API keys", "/employer/keys"],
    ["the people", "/employer/people"],
    ["the passkeys", "/employer/passkeys"],
    ["the choice of employer", "/employer/employers"],
  ];
  for (const lang of ["en", "fr"]) {
    if (lang === "fr") {
      await page.goto(`${site.origin}/employer`);
      await page.getByRole("button", { name: "Français" }).click();
      await page.waitForURL(/\/employer$/);
    }
    for (const [name, path] of pages) {
      const answer = await page.goto(`${site.origin}${path}`);
      check(`${name} (${lang}): 200`, answer?.status() === 200, `${path}: ${answer?.status()}`);
      if (path === "/employer/jobs/new" || path === `/employer/jobs/${keyboardJob}`) {
        check(`${name} (${lang}): the description editors are there for axe-core`, (await page.locator(".editor-area[role=textbox]").count()) === 2);
      }
      await checked(page, `${name} (${lang})`);
      if (lang === "en" && path === "/employer/jobs") await shot(page, "console-jobs.png");
    }
    // With errors shown: a job form saved empty, a webhook with a broken address.
    await page.goto(`${site.origin}/employer/jobs/new`);
    const [saved] = await Promise.all([page.waitForResponse((res) => res.request().method() === "POST"), page.locator("form button[type=submit]").filter({ hasText: lang === "en" ? "Save" : "Enregistrer" }).first().click()]);
    await page.waitForLoadState("load");
    // Each broken field names its message, which is on the page.
    const invalid = await page.locator("[aria-invalid=true]").evaluateAll((controls) =>
      controls.map((control) => [control.id, (control.getAttribute("aria-describedby") ?? "").split(" ").some((id) => document.getElementById(id)?.classList.contains("error"))]),
    );
    check(`a job form saved empty (${lang}): 422, each message tied to its field`, saved.status() === 422 && invalid.length >= 2 && invalid.every(([, tied]) => tied), `${saved.status()} ${JSON.stringify(invalid)}`);
    await checked(page, `a job form with its errors (${lang})`, await saved.text());
    if (lang === "en") await shot(page, "console-job-errors.png");
    await page.goto(`${site.origin}/employer/webhooks`);
    await page.fill("#url", "http://example.com/hook"); // plain http: refused outside local development
    const [hooked] = await Promise.all([page.waitForResponse((res) => res.request().method() === "POST"), page.locator("#url").press("Enter")]);
    check(`a webhook with a broken address (${lang}): 422`, hooked.status() === 422);
    await checked(page, `the webhooks with their errors (${lang})`, await hooked.text());
  }
  await page.goto(`${site.origin}/employer`);
  await page.getByRole("button", { name: "English" }).click();
  await page.waitForURL(/\/employer$/);

  // A recruiter: the admins' pages are refused.
  const recruiterContext = await browser.newContext({ bypassCSP: true });
  const recruiter = await recruiterContext.newPage();
  await recruiter.goto(await invitation("recruiter@browser.example", "recruiter"));
  await recruiter.getByRole("button", { name: "Accept and sign in" }).click();
  await recruiter.waitForURL(/\/employer$/);
  const refused = await recruiter.goto(`${site.origin}/employer/people`);
  check("a recruiter on an admin page: 403", refused?.status() === 403);
  await checked(recruiter, "the admins-only page");
  await recruiterContext.close();

  // The operator's console, signed in through Access (its cookie), every page in both languages.
  const operatorContext = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  await operatorContext.addCookies([{ name: "CF_Authorization", value: await accessToken("operator@browser.example"), url: site.origin }]);
  const operator = await operatorContext.newPage();
  const refusedOperator = await fetch(`${site.origin}/operator`);
  check("the operator's console without an Access token: 403", refusedOperator.status === 403);
  // A move to show (DESIGN 22b): an employer the console makes (in shard 0, the emptier), moved to shard 1.
  const asOperator = { "Cf-Access-Jwt-Assertion": await accessToken("operator@browser.example"), Origin: site.origin };
  const movers = await fetch(`${site.origin}/operator/employers`, {
    method: "POST",
    redirect: "manual",
    headers: { ...asOperator, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name: "Browser Movers Ltd.", plan: "standard", adminEmail: "movers@browser.example" }),
  });
  const movedId = new URL(movers.headers.get("Location") ?? "/", site.origin).searchParams.get("created");
  const moving = await fetch(`${site.origin}/operator/shards/moves`, {
    method: "POST",
    headers: { ...asOperator, "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ employerId: Number(movedId), to: 1 }),
  });
  check("operator: a move started (202)", moving.status === 202, `${movers.status} ${moving.status}`);
  const operatorPages = [
    ["the moderation queue", "/operator"],
    ["a job for moderation", `/operator/jobs/${site.emailJob.body.id}`],
    ["the employers' search", "/operator/employers?q=Browser"],
    ["an employer", `/operator/employers/${site.employerId}`],
    ["a job seeker's data", "/operator/people?email=grace%40browser.example"],
    ["the audit", "/operator/audit"],
    ["an employer being moved", `/operator/employers/${movedId}`],
    ["a move", `/operator/shards/moves/${movedId}`],
  ];
  for (const lang of ["en", "fr"]) {
    if (lang === "fr") {
      await operator.goto(`${site.origin}/operator`);
      await operator.getByRole("button", { name: "Français" }).click();
      await operator.waitForLoadState("load");
    }
    for (const [name, path] of operatorPages) {
      const answer = await operator.goto(`${site.origin}${path}`);
      check(`operator: ${name} (${lang}): 200`, answer?.status() === 200, `${path}: ${answer?.status()}`);
      await checked(operator, `operator: ${name} (${lang})`);
      if (lang === "en" && path === "/operator") await shot(operator, "operator-queue.png");
    }
  }
  await operatorContext.close();
} catch (error) {
  check("the console's browser test ran to its end", false, error.stack ?? String(error));
} finally {
  await browser?.close();
  site?.stop();
  access?.close();
}

// The W3C Nu Html Checker (vnu-jar, pinned; needs Java: .ci/run installs it) on every page above.
try {
  execFileSync("java", ["-jar", createRequire(import.meta.url).resolve("vnu-jar/build/dist/vnu.jar"), "--errors-only", "--skip-non-html", served_], { encoding: "utf8", stdio: "pipe" });
  check(`Nu Html Checker: no error on the ${servedNames.length} console and operator pages as served`, servedNames.length > 0);
} catch (error) {
  const report = String(error.stderr ?? error.message).replace(/"file:[^"]*\/(\d{3})\.html"/g, (_, n) => `"${servedNames[Number(n) - 1]}"`);
  check(`Nu Html Checker: no error on the ${servedNames.length} console and operator pages as served`, false, report.slice(0, 4000));
}
rmSync(served_, { recursive: true, force: true });
finish();
