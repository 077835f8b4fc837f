// Browser test of the board's pages (DESIGN 18): the site with two jobs (site.mjs), then Chromium
// (Playwright's library, the system's Chromium) searches by word and by place and radius, opens a job, applies with a PDF and sees
// the confirmation, applies with errors and sees them, does it all again with JavaScript off,
// reads the French pages, and runs axe-core (WCAG 2.1 AA) on every page type; html-validate checks
// each page type's HTML as served against the HTML standard. Saves screenshots.
// Prints "N passed, M failed"; exits 1 on failure.
//
//   node test/browser/board-pages.mjs [--report file.json]   (CHROMIUM=/path, SCREENSHOTS=dir)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HtmlValidate } from "html-validate";
import { chromium } from "playwright-core";
import { checks } from "./checks.mjs";
import { startSite } from "./site.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const SCREENSHOTS = process.env.SCREENSHOTS ?? join(root, "docs");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const { check, finish } = checks();

let site;
let browser;
try {
  site = await startSite();
  const { api, emailJob, urlJob } = site;
  check("two jobs made through the API", emailJob.status === 201 && urlJob.status === 201, JSON.stringify([emailJob, urlJob]).slice(0, 300));

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  const axeContext = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  const pageWithJs = await axeContext.newPage();

  /** axe-core's WCAG 2.1 A and AA rules on the page as it is now. */
  async function accessible(page, name) {
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => {
      const result = await globalThis.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    });
    check(`axe-core: no WCAG 2.1 AA violation on ${name}`, violations.length === 0, violations.join("\n    "));
  }
  /** The HTML as served (not the browser's DOM), against the HTML standard's rules. */
  const validator = new HtmlValidate({ extends: ["html-validate:standard"] });
  async function validHtml(name, path, init) {
    const html = await fetch(`${site.origin}${path}`, init).then((res) => res.text());
    const report = await validator.validateString(html);
    const messages = report.results.flatMap((result) => result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
    check(`valid HTML: ${name}`, report.valid, messages.join("\n    "));
  }
  const shot = (page, file) => page.screenshot({ path: join(SCREENSHOTS, file), fullPage: true });

  // Search by word, keyboard only.
  const page = pageWithJs;
  await page.goto(`${site.origin}/`);
  await accessible(page, "the search page");
  await page.keyboard.press("Tab"); // the site link
  await page.keyboard.press("Tab"); // the language link
  await page.keyboard.press("Tab"); // keywords
  check("keyboard: Tab reaches the keywords field", await page.evaluate(() => document.activeElement?.id === "q"));
  await page.keyboard.type("warehouse");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\?q=warehouse/);
  check("search by word: the address keeps the query", new URL(page.url()).searchParams.get("q") === "warehouse");
  check("search by word: the job is found", (await page.locator("ol.results li").count()) === 1 && (await page.getByRole("link", { name: "Warehouse Lead" }).count()) === 1);
  await accessible(page, "the results page");
  await shot(page, "board-search.png");

  // Search by place and radius.
  await page.goto(`${site.origin}/`);
  await page.fill("#place", "Burnaby");
  await page.fill("#radiusKm", "25");
  await page.click("button[type=submit]");
  await page.waitForLoadState("load");
  const near = await page.locator("ol.results li").allInnerTexts();
  check("search by place and radius: the Vancouver job within 25 km of Burnaby, with its distance", near.length === 1 && /Warehouse Lead/.test(near[0]) && /\d+(\.\d)? km/.test(near[0]), near.join(" | "));

  // Open the job, apply with errors, then with a PDF.
  await page.goto(`${site.origin}/`);
  await page.getByRole("link", { name: "Warehouse Lead" }).click();
  await page.waitForLoadState("load");
  check("open a job: its page, canonical address", /\/jobs\/\d+-warehouse-lead$/.test(page.url()));
  const jobAddress = new URL(page.url()).pathname;
  check("the job page holds a JobPosting", (await page.locator('script[type="application/ld+json"]').count()) === 1);
  await accessible(page, "a job page");
  await shot(page, "board-job.png");
  await page.fill("#apply-name", "Ada Lovelace");
  await page.fill("#apply-email", "ada@example"); // the browser accepts it; the API's rules do not
  await page.check('input[name="answers[permit]"][value="true"]');
  await page.click("form[enctype] button[type=submit]");
  await page.waitForLoadState("load");
  check("apply with errors: the form again, values kept", (await page.inputValue("#apply-name")) === "Ada Lovelace");
  check("apply with errors: the message tied to its field", (await page.getAttribute("#apply-email", "aria-invalid")) === "true" && (await page.locator("#apply-email-error").count()) === 1);
  await accessible(page, "the apply form with errors");
  await page.fill("#apply-email", "ada@example.com");
  await page.check('input[name="answers[permit]"][value="true"]');
  await page.setInputFiles("#apply-resume", { name: "cv.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7\n%%EOF\n") });
  await page.click("form[enctype] button[type=submit]");
  await page.waitForLoadState("load");
  check("apply with a PDF: the confirmation page", /\/sent$/.test(page.url()) && (await page.locator("h1").innerText()) === "Application sent");
  await accessible(page, "the confirmation page");
  const applications = await api(`/jobs/${emailJob.body.id}/applications`);
  check("the employer has the application with its résumé", applications.body?.data?.[0]?.resume?.filename === "cv.pdf", JSON.stringify(applications.body).slice(0, 200));

  // French pages.
  await page.goto(`${site.origin}/fr/emplois/${urlJob.body.id}`);
  check("French job page: the French version, French interface", (await page.locator("h1").innerText()) === "Comptable principal" && (await page.locator("html").getAttribute("lang")) === "fr");
  await accessible(page, "a French job page");
  await page.goto(`${site.origin}/fr/?q=comptable`);
  await accessible(page, "the French search page");

  // Every page type, as served.
  const badApplication = new FormData();
  for (const [name, value] of Object.entries({ name: "Ada", email: "ada@example", "answers[permit]": "true" })) badApplication.append(name, value);
  for (const [name, path, init] of [
    ["the search page", "/"],
    ["the results page", "/?q=warehouse&place=Burnaby&radiusKm=25"],
    ["the search form with errors", "/?radiusKm=9000&salaryMin=abc"],
    ["a job page with the apply form", jobAddress],
    ["a job page with an application link", `/jobs/${urlJob.body.id}`],
    ["the apply form with errors", jobAddress, { method: "POST", body: badApplication }],
    ["the confirmation page", `${jobAddress}/sent`],
    ["the report form", `${jobAddress}/report`],
    ["the fraud policy", "/fraud-policy"],
    ["a French job page", `/fr/emplois/${urlJob.body.id}`],
    ["the French search page", "/fr/?q=comptable"],
    ["the French fraud policy", "/fr/politique-fraude"],
    ["the page of an unknown job", "/jobs/999999"],
  ]) {
    await validHtml(name, path, init);
  }

  // JavaScript off: the same paths work, and no page runs a script.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  const violations = [];
  plain.on("console", (message) => /Content Security Policy/i.test(message.text()) && violations.push(message.text()));
  await plain.goto(`${site.origin}/?q=warehouse`);
  await plain.getByRole("link", { name: "Warehouse Lead" }).click();
  await plain.waitForLoadState("load");
  await plain.fill("#apply-name", "Grace Hopper");
  await plain.fill("#apply-email", "grace@example.com");
  await plain.check('input[name="answers[permit]"][value="true"]');
  await plain.click("form[enctype] button[type=submit]");
  await plain.waitForLoadState("load");
  check("JavaScript off: search, open the job and apply", /\/sent$/.test(plain.url()));
  check("no Content-Security-Policy violation", violations.length === 0, violations.join("\n    "));
  await noJs.close();
} catch (error) {
  check("the browser test ran to the end", false, error instanceof Error ? error.stack : String(error));
} finally {
  await browser?.close().catch(() => {});
  site?.stop();
}

finish();
