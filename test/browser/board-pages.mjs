// Browser test of the board's pages (DESIGN 18): the site with two jobs (site.mjs), then Chromium
// (Playwright's library, the system's Chromium) searches by word and by place and radius, opens a job, applies with a PDF and sees
// the confirmation, applies with errors and sees them, does it all again with JavaScript off,
// reads the French pages, and runs axe-core (WCAG 2.1 AA) on every page type; html-validate checks
// each page type's HTML as served against the HTML standard. Saves screenshots.
// Job alerts (DESIGN 23, issue 36): at 1280 × 800 the search page's first result is on the first
// screen (English and French), the folded filters open by keyboard and without JavaScript; the
// alert form and every alert page (check your mailbox, confirm, confirmed, decline, declined,
// manage, unsubscribe, unsubscribed, already unsubscribed, a link that does not work), in English
// and French, keyboard only and with JavaScript off, each with axe-core and html-validate.
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
    await validHtmlOf(name, await fetch(`${site.origin}${path}`, init).then((res) => res.text()));
  }
  async function validHtmlOf(name, html) {
    const report = await validator.validateString(html);
    const messages = report.results.flatMap((result) => result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
    // A whole document: an empty answer would pass the rules vacuously.
    const whole = /^<!DOCTYPE html>/i.test(html);
    check(`valid HTML: ${name}`, report.valid && whole, whole ? messages.join("\n    ") : `not an HTML document: ${JSON.stringify(html.slice(0, 80))}`);
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
  // The distance is among the folded filters (issue 36): open them as a person does.
  await page.click("details.filters summary");
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
    ["a search with a folded filter set (its <details> open)", "/?province=BC"],
    ["the French alert form with errors", "/fr/alertes", { method: "POST", body: new URLSearchParams({ q: "comptable", email: "", frequency: "daily", consent: "yes" }) }],
    ["the check-your-mailbox page", "/alerts/check-your-mailbox"],
    ["the French check-your-mailbox page", "/fr/alertes/verifiez-vos-courriels"],
    ["an alert link that does not work", `/alerts/manage/${"x".repeat(43)}`],
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

  // Job alerts' pages (DESIGN 23, issue 36).
  // The first screen at 1280 × 800: keywords and place in one row, the first result's top on screen.
  const screen = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const first = await screen.newPage();
  for (const [name, path] of [
    ["the search page", "/"],
    ["the results page", "/?q=warehouse"],
    ["a search with its folded filters open", "/?province=BC&salaryMin=1000"],
    ["the French search page", "/fr/"],
    ["the French results page with its filters open", "/fr/?province=BC"],
  ]) {
    await first.goto(`${site.origin}${path}`);
    const box = await first.locator("ol.results li").first().boundingBox();
    check(`1280 × 800: the first result's top is within the viewport on ${name}`, box !== null && box.y >= 0 && box.y < 800, JSON.stringify(box));
    const [q, place] = await Promise.all([first.locator("#q").boundingBox(), first.locator("#place").boundingBox()]);
    check(`1280 × 800: keywords and place in one row on ${name}`, q !== null && place !== null && Math.abs(q.y - place.y) < 2 && place.x > q.x, JSON.stringify([q, place]));
  }
  await first.goto(`${site.origin}/?q=warehouse`);
  check("the other filters are folded when none is set", (await first.locator("details.filters").getAttribute("open")) === null && !(await first.locator("#province").isVisible()));
  await first.screenshot({ path: join(SCREENSHOTS, "board-search-first-screen.png") });
  await screen.close();

  /** Tab (at most 80 times) until the focused element matches `selector`. */
  async function tabTo(on, selector) {
    for (let i = 0; i < 80; i++) {
      await on.keyboard.press("Tab");
      if (await on.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
    }
    return false;
  }
  /**
   * Runs `act` (a key press, a click) that submits a form; resolves once the page it leads to has
   * loaded, with the form's answer: its status (303 when redirected) and the HTML as served.
   */
  async function submitting(on, act) {
    const [response] = await Promise.all([on.waitForNavigation({ waitUntil: "load" }), act()]);
    const redirect = response?.request().redirectedFrom();
    const status = redirect ? (await redirect.response())?.status() : response?.status();
    return { status, html: (await response?.text()) ?? "" };
  }
  const h1 = (on) => on.locator("h1").innerText();
  const stamp = Date.now().toString(36);
  const TITLES = {
    en: { check: "Check your mailbox", confirm: "Confirm your job alert", confirmed: "Your job alert is on", manage: "Your job alerts", paused: "(Paused)",
      unsubscribe: "Unsubscribe", unsubscribed: "You are unsubscribed", decline: "Delete this alert request", declined: "Request deleted", none: "You have no job alerts." },
    fr: { check: "Vérifiez votre boîte de réception", confirm: "Confirmez votre alerte emploi", confirmed: "Votre alerte emploi est active", manage: "Vos alertes emploi", paused: "(Suspendue)",
      unsubscribe: "Se désabonner", unsubscribed: "Vous êtes désabonné", decline: "Supprimer cette demande d'alerte", declined: "Demande supprimée", none: "Vous n'avez aucune alerte emploi." },
  };
  // Each alert form POST counts against the client's 10 a minute (DESIGN 23): this test makes 8.

  // Keyboard only (JavaScript on, as people use it), English and French: the folded filters, then
  // the alert form and each page its links open; axe-core on each, html-validate on each answer.
  for (const lang of ["en", "fr"]) {
    const t = TITLES[lang];
    const home = lang === "fr" ? "/fr/" : "/";
    await page.goto(`${site.origin}${home}`);
    check(`keyboard (${lang}): Tab reaches the folded filters' summary`, await tabTo(page, "details.filters summary"));
    await page.keyboard.press("Enter");
    check(`keyboard (${lang}): Enter opens the folded filters, Tab reaches their first field`, (await page.locator("details.filters").getAttribute("open")) !== null && (await tabTo(page, "#radiusKm")));
    await page.goto(`${site.origin}${home}?q=warehouse`);
    check(`keyboard (${lang}): Tab reaches the alert form's email field`, await tabTo(page, "#alert-email"));
    const email = `keys.${lang}.${stamp}@example.com`;
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    check(`keyboard (${lang}): then the frequency`, await page.evaluate(() => document.activeElement?.id === "alert-frequency"));
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    check(`keyboard (${lang}): Space checks the consent box (never checked beforehand)`, await page.isChecked("#alert-consent"));
    await page.keyboard.press("Tab");
    const asked = await submitting(page, () => page.keyboard.press("Enter"));
    check(`keyboard (${lang}): the alert form answers 303 to the check-your-mailbox page`, asked.status === 303 && (await h1(page)) === t.check, `${asked.status} ${page.url()}`);
    await accessible(page, `the check-your-mailbox page (${lang})`);
    await validHtmlOf(`the check-your-mailbox page (${lang})`, asked.html);

    const links = await site.alertLinks(email);
    await page.goto(`${site.origin}${links.decline}`);
    check(`the decline page (${lang}): a GET shows the button`, (await h1(page)) === t.decline && (await page.locator("html").getAttribute("lang")) === lang);
    await accessible(page, `the decline page (${lang})`);
    await validHtml(`the decline page (${lang})`, links.decline);

    await page.goto(`${site.origin}${links.confirm}`);
    check(`the confirm page (${lang}): a GET shows the button`, (await h1(page)) === t.confirm && (await page.locator("html").getAttribute("lang")) === lang);
    await accessible(page, `the confirm page (${lang})`);
    await validHtml(`the confirm page (${lang})`, links.confirm);
    check(`keyboard (${lang}): Tab reaches the confirm button`, await tabTo(page, "main form button"));
    const confirmed = await submitting(page, () => page.keyboard.press("Enter"));
    check(`keyboard (${lang}): Enter confirms the alert`, confirmed.status === 200 && (await h1(page)) === t.confirmed, `${confirmed.status} ${await h1(page)}`);
    await accessible(page, `the confirmed page (${lang})`);
    await validHtmlOf(`the confirmed page (${lang})`, confirmed.html);

    await page.goto(`${site.origin}${links.manage}`);
    check(`the manage page (${lang}): the address's one alert`, (await h1(page)) === t.manage && (await page.locator("main section").count()) === 1);
    await accessible(page, `the manage page (${lang})`);
    await validHtml(`the manage page (${lang})`, links.manage);
    check(`keyboard (${lang}): Tab reaches the frequency`, await tabTo(page, 'select[name="frequency"]'));
    await page.keyboard.press("ArrowDown");
    check(`keyboard (${lang}): an arrow key picks the next frequency`, (await page.inputValue('select[name="frequency"]')) === "weekly");
    check(`keyboard (${lang}): Tab reaches Save`, await tabTo(page, 'form:has(select[name="frequency"]) button'));
    const saved = await submitting(page, () => page.keyboard.press("Enter"));
    check(`keyboard (${lang}): Save answers 303 back to the page, the change kept`, saved.status === 303 && (await page.inputValue('select[name="frequency"]')) === "weekly", String(saved.status));
    check(`keyboard (${lang}): Tab reaches Pause`, await tabTo(page, 'form:has(input[name="action"][value="pause"]) button'));
    await submitting(page, () => page.keyboard.press("Enter"));
    check(`keyboard (${lang}): Pause pauses the alert`, (await page.locator("main h2").first().innerText()).endsWith(t.paused));
    await accessible(page, `the manage page with a paused alert (${lang})`);

    await page.goto(`${site.origin}${links.unsubscribe}`);
    check(`the unsubscribe page (${lang}): a GET shows the buttons`, (await h1(page)) === t.unsubscribe);
    await accessible(page, `the unsubscribe page (${lang})`);
    await validHtml(`the unsubscribe page (${lang})`, links.unsubscribe);
    check(`keyboard (${lang}): Tab reaches "unsubscribe from this alert"`, await tabTo(page, "main form button"));
    const unsubscribed = await submitting(page, () => page.keyboard.press("Enter"));
    check(`keyboard (${lang}): Enter unsubscribes (200, no redirect)`, unsubscribed.status === 200 && (await h1(page)) === t.unsubscribed, String(unsubscribed.status));
    await accessible(page, `the unsubscribed page (${lang})`);
    await validHtmlOf(`the unsubscribed page (${lang})`, unsubscribed.html);

    await page.goto(`${site.origin}${links.unsubscribe}`);
    check(`the already-unsubscribed page (${lang}): the link still answers a page`, (await h1(page)) === t.unsubscribed);
    await accessible(page, `the already-unsubscribed page (${lang})`);
    await validHtml(`the already-unsubscribed page (${lang})`, links.unsubscribe);
    await page.goto(`${site.origin}${links.manage}`);
    check(`the manage page of an address with no alert left (${lang})`, (await page.locator("main").innerText()).includes(t.none));
    await accessible(page, `the manage page with no alert (${lang})`);
    await validHtml(`the manage page with no alert (${lang})`, links.manage);
  }

  // "This was not me", keyboard only (French): the request deleted.
  const declinedEmail = `declined.${stamp}@example.com`;
  await page.goto(`${site.origin}/fr/?q=warehouse`);
  await page.fill("#alert-email", declinedEmail);
  await page.check("#alert-consent");
  await submitting(page, () => page.click('form[action="/fr/alertes"] button[type=submit]'));
  await page.goto(`${site.origin}${(await site.alertLinks(declinedEmail)).decline}`);
  check("keyboard (fr): Tab reaches the decline button", await tabTo(page, "main form button"));
  const declined = await submitting(page, () => page.keyboard.press("Enter"));
  check("the declined page (fr): the request deleted", declined.status === 200 && (await h1(page)) === TITLES.fr.declined, `${declined.status} ${await h1(page)}`);
  await accessible(page, "the declined page (fr)");
  await validHtmlOf("the declined page (fr)", declined.html);

  // The alert form with its problems (the browser's own checks set aside, as an old browser would).
  await page.goto(`${site.origin}/?q=warehouse`);
  await page.fill("#alert-email", "not-an-address");
  await page.evaluate(() => (document.querySelector('form[action="/alerts"]').noValidate = true));
  const refused = await submitting(page, () => page.click('form[action="/alerts"] button[type=submit]'));
  check("the alert form with errors: 400, each message tied to its field", refused.status === 400 && (await page.getAttribute("#alert-email", "aria-invalid")) === "true" && (await page.locator("#alert-consent-error").count()) === 1, String(refused.status));
  await accessible(page, "the alert form with errors");
  await validHtmlOf("the alert form with errors", refused.html);
  await page.goto(`${site.origin}/alerts/confirm/${"x".repeat(43)}`);
  await accessible(page, "an alert link that does not work");

  // JavaScript off, English and French: the folded filters, subscribe, confirm, change, unsubscribe
  // (and, in English, "this was not me") — by pointer, with no script on any page.
  const noJsAlerts = await browser.newContext({ javaScriptEnabled: false });
  const bare = await noJsAlerts.newPage();
  const cspViolations = [];
  bare.on("console", (message) => /Content Security Policy/i.test(message.text()) && cspViolations.push(message.text()));
  const withScripts = [];
  const visited = async () => (await bare.locator("script").count()) && withScripts.push(bare.url());
  for (const lang of ["en", "fr"]) {
    const t = TITLES[lang];
    const home = lang === "fr" ? "/fr/" : "/";
    await bare.goto(`${site.origin}${home}`);
    await bare.click("details.filters summary");
    check(`JavaScript off (${lang}): the folded filters open`, await bare.locator("#province").isVisible());
    await bare.selectOption("#province", "BC");
    await submitting(bare, () => bare.click("details.filters button[type=submit]"));
    check(`JavaScript off (${lang}): a folded filter searches, and its <details> stays open`, new URL(bare.url()).searchParams.get("province") === "BC" && (await bare.locator("details.filters").getAttribute("open")) !== null);
    const subscribe = async (email) => {
      await bare.goto(`${site.origin}${home}?q=warehouse`);
      await bare.fill("#alert-email", email);
      await bare.check("#alert-consent");
      await submitting(bare, () => bare.click(`form[action="${lang === "fr" ? "/fr/alertes" : "/alerts"}"] button[type=submit]`));
      await visited();
      return (await h1(bare)) === t.check;
    };
    /** An alert link's page, its one button pressed: the heading of the page that answers. */
    const pressOn = async (path) => {
      await bare.goto(`${site.origin}${path}`);
      await visited();
      await submitting(bare, () => bare.click("main form button"));
      await visited();
      return h1(bare);
    };
    if (lang === "en") {
      const declining = `nojs.decline.${stamp}@example.com`;
      check("JavaScript off (en): the alert form works", await subscribe(declining));
      check('JavaScript off (en): "this was not me" deletes the request', (await pressOn((await site.alertLinks(declining)).decline)) === t.declined);
    }
    const kept = `nojs.${lang}.${stamp}@example.com`;
    check(`JavaScript off (${lang}): the alert form works`, await subscribe(kept));
    const links = await site.alertLinks(kept);
    check(`JavaScript off (${lang}): confirm`, (await pressOn(links.confirm)) === t.confirmed);
    await bare.goto(`${site.origin}${links.manage}`);
    await visited();
    await bare.selectOption('select[name="frequency"]', "instant");
    await submitting(bare, () => bare.click('form:has(select[name="frequency"]) button'));
    check(`JavaScript off (${lang}): the manage page changes the frequency`, (await bare.inputValue('select[name="frequency"]')) === "instant");
    check(`JavaScript off (${lang}): unsubscribe`, (await pressOn(links.unsubscribe)) === t.unsubscribed);
    await bare.goto(`${site.origin}${links.confirm}`);
    await visited();
    check(`JavaScript off (${lang}): an ended alert's confirm link says "unsubscribed"`, (await h1(bare)) === t.unsubscribed);
  }
  check("JavaScript off: no alert page holds a script", withScripts.length === 0, withScripts.join("\n    "));
  check("JavaScript off: no Content-Security-Policy violation on the alert pages", cspViolations.length === 0, cspViolations.join("\n    "));
  await noJsAlerts.close();
} catch (error) {
  check("the browser test ran to the end", false, error instanceof Error ? error.stack : String(error));
} finally {
  await browser?.close().catch(() => {});
  site?.stop();
}

finish();
