// Browser test of the /docs reference page: starts the Worker with `wrangler dev` (static
// assets included) on a free port, opens /docs in Chromium and checks that the operations and
// an example request are shown, and that the page fetched nothing from any other origin.
// Saves a screenshot to docs/reference-page.png. Prints "N passed, M failed"; exits 1 on failure.
//
//   npm run test:browser              (needs Chromium: apt-get install -y chromium)
//   CHROMIUM=/path/to/chrome DOCS_SCREENSHOT=/tmp/page.png npm run test:browser
//   npm run test:browser -- --report .ci/reports/browser.json   (counts, vitest JSON fields)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { checks } from "./checks.mjs";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const SCREENSHOT = process.env.DOCS_SCREENSHOT ?? join(root, "docs/reference-page.png");
const OPERATIONS = [
  "Create a job",
  "Read one job",
  "List your jobs",
  "Partially update a job",
  "Delete a job",
  "List position types",
  "Search locations",
];

const { check, finish } = checks();

const state = mkdtempSync(join(tmpdir(), "docs-page-state-"));
const profile = mkdtempSync(join(tmpdir(), "docs-page-profile-"));
let worker;
let context;
try {
  worker = await startDevServer(state);
  const local = new URL(worker.origin);
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });

  // Every request the page makes goes through here: only this deployment is allowed.
  const foreign = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.origin === local.origin) return route.continue();
    foreign.push(url.href);
    return route.abort("blockedbyclient");
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const policyViolations = [];
  const pageErrors = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));

  const response = await page.goto(`${worker.origin}/docs`, { waitUntil: "networkidle" });
  check("GET /docs answers 200 with HTML", response?.status() === 200 && /text\/html/.test(response.headers()["content-type"] ?? ""));

  const listed = [];
  for (const summary of OPERATIONS) {
    const visible = await page
      .getByText(summary, { exact: true })
      .first()
      .waitFor({ state: "attached", timeout: 20_000 })
      .then(() => true, () => false);
    if (visible) listed.push(summary);
  }
  const missing = OPERATIONS.filter((summary) => !listed.includes(summary));
  check(`the operations are listed (${OPERATIONS.join(", ")})`, missing.length === 0, `missing: ${missing.join(", ")}`);

  // Open "Create a job": its example request (curl against this deployment) must show.
  await page.getByText("Create a job", { exact: true }).first().click().catch(() => {});
  const example = page.locator("text=/curl/").first();
  const exampleShown = await example.waitFor({ state: "visible", timeout: 20_000 }).then(() => true, () => false);
  const text = await page.locator("body").innerText();
  check(
    "an example request is shown, addressed to this deployment",
    exampleShown && text.includes(`${worker.origin}/api/v1.1/jobs`),
    exampleShown ? `no ${worker.origin}/api/v1.1/jobs in the page` : "no curl example visible",
  );

  // Let late requests (fonts, lazy chunks) happen before judging; a page that never goes idle
  // is judged by what it requested so far.
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
  check("no request left this deployment", foreign.length === 0, foreign.slice(0, 10).join("\n    "));
  check("no Content-Security-Policy violation", policyViolations.length === 0, policyViolations.slice(0, 5).join("\n    "));
  check("no uncaught error in the page", pageErrors.length === 0, pageErrors.slice(0, 5).join("\n    "));

  await page.screenshot({ path: SCREENSHOT });
  console.log(`screenshot: ${SCREENSHOT}`);
} catch (error) {
  check("the browser test ran to the end", false, error instanceof Error ? error.stack : String(error));
} finally {
  await context?.close().catch(() => {});
  worker?.stop();
  rmSync(profile, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
}

finish();
