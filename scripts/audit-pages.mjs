// `npm run audit:pages`: the board's pages judged by the tools the web uses (DESIGN 18a), on
// demand, not in CI (they are large downloads and need Java): the W3C Nu Html Checker on every
// page type as served, and Lighthouse (mobile defaults) on the search page and job pages in both
// languages. Needs Java 11+ and Chromium (CHROMIUM=/path); fetches the pinned versions with npx.
// Job alerts' pages (the form with its errors and every page an alert's links open, English and
// French) go through the Nu Html Checker too.
// Exits 1 when the checker finds an error or a score is under its target.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSite } from "../test/browser/site.mjs";

const VNU = "vnu-jar@26.9.27";
const LIGHTHOUSE = "lighthouse@13.5.0";
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** DESIGN 18a: accessibility, best practices and SEO 100; performance at least 95. */
const TARGETS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 };

const npx = (args, options = {}) => execFileSync("npx", ["--yes", ...args], { encoding: "utf8", ...options });
const out = mkdtempSync(join(tmpdir(), "audit-pages-"));
const failures = [];
const site = await startSite();
try {
  const { origin, emailJob, urlJob } = site;
  const job = `/jobs/${emailJob.body.id}-warehouse-lead`;
  const application = new FormData();
  for (const [name, value] of Object.entries({ name: "Ada", email: "ada@example", "answers[permit]": "true" })) application.append(name, value);
  const pages = {
    search: ["/"], results: ["/?q=warehouse&place=Burnaby&radiusKm=25"], "search-errors": ["/?radiusKm=9000&salaryMin=abc"],
    job: [job], "job-url": [`/jobs/${urlJob.body.id}-senior-accountant`], "apply-errors": [job, { method: "POST", body: application }],
    sent: [`${job}/sent`], report: [`${job}/report`], "fraud-policy": ["/fraud-policy"], "fr-job": [`/fr/emplois/${urlJob.body.id}-comptable-principal`],
    "fr-search": ["/fr/?q=comptable"], "fr-fraud-policy": ["/fr/politique-fraude"], missing: ["/jobs/999999"],
  };
  for (const [name, [path, init]] of Object.entries(pages)) writeFileSync(join(out, `${name}.html`), await fetch(`${origin}${path}`, init).then((res) => res.text()));
  // Job alerts' pages (DESIGN 23, issue 36), English and French: each page an alert's links open,
  // through its life (the links as the Worker derives them: test/browser/site.mjs).
  const html = (path, init) => fetch(`${origin}${path}`, init).then((res) => res.text());
  const post = (fields = {}) => ({ method: "POST", body: new URLSearchParams(fields) });
  const stamp = Date.now().toString(36);
  for (const [lang, form, check] of [["en", "/alerts", "/alerts/check-your-mailbox"], ["fr", "/fr/alertes", "/fr/alertes/verifiez-vos-courriels"]]) {
    const email = `audit.${lang}.${stamp}@example.com`;
    const declined = `audit.decline.${lang}.${stamp}@example.com`;
    const alertPages = { [`alert-form-errors-${lang}`]: await html(form, post({ q: "warehouse", email: "not-an-address", frequency: "daily" })) };
    for (const address of [email, declined]) await html(form, post({ q: "warehouse", email: address, frequency: "daily", consent: "yes" }));
    const links = await site.alertLinks(email);
    const declining = await site.alertLinks(declined);
    Object.assign(alertPages, {
      [`alert-check-${lang}`]: await html(check),
      [`alert-decline-${lang}`]: await html(declining.decline),
      [`alert-declined-${lang}`]: await html(declining.decline, post()),
      [`alert-confirm-${lang}`]: await html(links.confirm),
      [`alert-confirmed-${lang}`]: await html(links.confirm, post()),
      [`alert-manage-${lang}`]: await html(links.manage),
      [`alert-unsubscribe-${lang}`]: await html(links.unsubscribe),
      [`alert-unsubscribed-${lang}`]: await html(links.unsubscribe, post()),
      [`alert-already-unsubscribed-${lang}`]: await html(links.unsubscribe),
    });
    for (const [name, page] of Object.entries(alertPages)) {
      writeFileSync(join(out, `${name}.html`), page);
      pages[name] = [name];
    }
  }
  writeFileSync(join(out, "alert-link-not-working.html"), await html(`/alerts/manage/${"x".repeat(43)}`));
  pages["alert-link-not-working"] = ["alert-link-not-working"];

  // The Nu Html Checker: errors only (warnings are advice), on each page as served.
  // npx puts the package's node_modules/.bin first on PATH; the jar is beside it.
  const bin = npx(["-p", VNU, "node", "-e", "console.log(process.env.PATH.split(':')[0])"]).trim();
  const jar = join(bin, "..", "vnu-jar", "build", "dist", "vnu.jar");
  try {
    execFileSync("java", ["-jar", jar, "--errors-only", "--skip-non-html", out], { stdio: ["ignore", "pipe", "pipe"] });
    console.log(`✓ Nu Html Checker: no error on ${Object.keys(pages).length} page types`);
  } catch (error) {
    failures.push("Nu Html Checker");
    console.log(`✗ Nu Html Checker:\n${error.stderr}`);
  }

  for (const [name, path] of Object.entries({ search: "/", job, "fr-job": pages["fr-job"][0], "fr-search": "/fr/" })) {
    const report = join(out, `lighthouse-${name}.json`);
    npx([LIGHTHOUSE, `${origin}${path}`, "--quiet", "--output=json", `--output-path=${report}`, "--chrome-flags=--headless=new --no-sandbox --disable-gpu", `--only-categories=${Object.keys(TARGETS).join(",")}`], {
      env: { ...process.env, CHROME_PATH: CHROMIUM },
      stdio: "inherit",
    });
    const scores = Object.fromEntries(Object.entries(JSON.parse(readFileSync(report, "utf8")).categories).map(([id, category]) => [id, Math.round(category.score * 100)]));
    const low = Object.entries(TARGETS).filter(([id, target]) => scores[id] < target);
    if (low.length) failures.push(`Lighthouse ${name}`);
    console.log(`${low.length ? "✗" : "✓"} Lighthouse ${name} (${path}): ${JSON.stringify(scores)}`);
  }
} finally {
  site.stop();
  rmSync(out, { recursive: true, force: true });
}
console.log(failures.length ? `failed: ${failures.join(", ")}` : "every page meets DESIGN 18a's quality targets");
process.exit(failures.length ? 1 : 0);
