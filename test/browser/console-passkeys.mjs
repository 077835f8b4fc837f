// Browser test of the console's passkeys (DESIGN 25, 25a): `wrangler dev` on fresh local state with
// one employer and an invitation, then Chromium (Playwright's library, the system's Chromium) with
// a virtual WebAuthn authenticator (CDP WebAuthn: CTAP2, internal, resident keys, user
// verification) signs in by the invitation, adds a passkey, signs out, signs in with the passkey
// and no email, and lands on /employer — under the console's own CSP, which must refuse nothing.
// axe-core (WCAG 2.1 AA) and html-validate judge the passkeys and sign-in pages; with JavaScript
// off, nothing of passkeys shows and the emailed-link form still does.
// Prints "N passed, M failed"; exits 1 on failure.
//
//   npm run test:console-passkeys [-- --report file.json]   (CHROMIUM=/path, SCREENSHOTS=dir)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HtmlValidate } from "html-validate";
import { chromium } from "playwright-core";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { shardNumbers } from "../../scripts/lib/shards.mjs";
import { ACCOUNTS_DATABASE, query, sqlString, wrangler } from "../../scripts/lib/wrangler.mjs";
import { hashToken, newToken } from "../../src/accounts/tokens.ts";
import { claimShardSql, shardBinding } from "../../src/shards/identity.ts";
import { checks } from "./checks.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const EMAIL = "passkey.person@example.com";

const { check, finish } = checks();

const state = mkdtempSync(join(tmpdir(), "console-passkeys-state-"));
let worker;
let browser;
try {
  const local = ["--local", "--persist-to", state];
  for (const shard of shardNumbers(true)) {
    wrangler(["d1", "migrations", "apply", shardBinding(shard), ...local]);
    wrangler(["d1", "execute", shardBinding(shard), ...local, "--command", claimShardSql(shard)]);
  }
  wrangler(["d1", "migrations", "apply", ACCOUNTS_DATABASE, ...local]);
  const persist = ["--persist-to", state];
  const [{ id: employerId }] = query("INSERT INTO employers (name, plan, created_at) VALUES ('Passkey Test Ltd.', 'standard', unixepoch()) RETURNING id", false, "DB", persist);
  // An invitation as `npm run people -- invite` writes it.
  const token = newToken();
  const now = Date.now();
  query(
    `INSERT INTO invitations (token_hash, employer_id, email, role, invited_by, created_at, expires_at) VALUES (${sqlString(await hashToken(token))}, ${employerId}, ${sqlString(EMAIL)}, 'admin', 'operator', ${now}, ${now + 86_400_000})`,
    false,
    ACCOUNTS_DATABASE,
    persist,
  );
  worker = await startDevServer(state);
  // WebAuthn takes a domain as the relying party's id, never an IP address: localhost, as a person opens it.
  const origin = worker.origin.replace("127.0.0.1", "localhost");

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const refused = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));

  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  // Signed in by the invitation.
  await page.goto(`${origin}/employer/invitations/${token}`);
  await Promise.all([page.waitForURL(`${origin}/employer`), page.getByRole("button", { name: "Accept and sign in" }).click()]);
  check("signed in by the invitation: on /employer", (await page.locator("h1").innerText()) === "Employer console · Passkey Test Ltd.");

  // Adding a passkey.
  await page.goto(`${origin}/employer/passkeys`);
  check("the passkeys page: the add form shows with JavaScript, the note for browsers without it does not", (await page.isVisible("#passkey-add")) && !(await page.isVisible("[data-passkeys-need-script]")));
  await page.getByLabel("Name of this passkey").fill("Test laptop");
  await Promise.all([page.waitForURL(`${origin}/employer/passkeys?added`), page.getByRole("button", { name: "Add a passkey" }).click()]);
  check("added: the notice says so", (await page.getByRole("status").first().innerText()) === "Passkey added. Next time, sign in with it.");
  const row = await page.locator("tbody tr").allInnerTexts();
  check("added: listed with its name, never used yet", row.length === 1 && /^Test laptop\t.+\tNever\t/.test(row[0]), row.join(" | "));
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  check("the authenticator holds one discoverable credential of this console", credentials.length === 1 && credentials[0].isResidentCredential && credentials[0].rpId === "localhost", JSON.stringify(credentials.map(({ rpId, isResidentCredential }) => ({ rpId, isResidentCredential }))));

  // Signed out, then in again with the passkey and no email.
  await Promise.all([page.waitForURL(/\/employer\/sign-in/), page.getByRole("button", { name: "Sign out" }).click()]);
  check("signed out: the sign-in page shows the passkey button", await page.isVisible("#passkey-sign-in"));
  await Promise.all([page.waitForURL(`${origin}/employer`), page.getByRole("button", { name: "Sign in with a passkey" }).click()]);
  check("signed in with the passkey: on /employer, as the person", (await page.locator("main p").first().innerText()) === `Signed in as ${EMAIL}, administrator.`);
  await page.goto(`${origin}/employer/passkeys`);
  check("the list says when the passkey was last used", !(await page.locator("tbody tr").first().innerText()).includes("Never"));
  if (process.env.SCREENSHOTS) await page.screenshot({ path: join(process.env.SCREENSHOTS, "console-passkeys.png"), fullPage: true });

  // A next page asked for before sign-in is where the passkey lands.
  await Promise.all([page.waitForURL(/\/employer\/sign-in/), page.getByRole("button", { name: "Sign out" }).click()]);
  await page.goto(`${origin}/employer/passkeys`);
  await Promise.all([page.waitForURL(`${origin}/employer/passkeys`), page.getByRole("button", { name: "Sign in with a passkey" }).click()]);
  check("signing in with a passkey from /employer/sign-in?next=/employer/passkeys lands there", (await page.locator("h1").innerText()) === "Passkeys");

  check("no script was refused by the console's Content-Security-Policy", refused.length === 0, refused.join("\n    "));
  check("no script error", errors.length === 0, errors.join("\n    "));

  // Accessibility and valid HTML of the two pages, as served and as shown.
  const axeContext = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  await axeContext.addCookies(await context.cookies());
  const axePage = await axeContext.newPage();
  const validator = new HtmlValidate({ extends: ["html-validate:standard"] });
  const cookie = (await context.cookies()).map(({ name, value }) => `${name}=${value}`).join("; ");
  for (const [name, path] of [
    ["the passkeys page", "/employer/passkeys"],
    ["the sign-in page", "/employer/sign-in"],
  ]) {
    await axePage.goto(`${origin}${path}`);
    await axePage.addScriptTag({ content: AXE });
    const violations = await axePage.evaluate(async () => {
      const result = await globalThis.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    });
    check(`axe-core: no WCAG 2.2 AA violation on ${name}`, violations.length === 0, violations.join("\n    "));
    const html = await fetch(`${origin}${path}`, { headers: { Cookie: cookie } }).then((res) => res.text());
    const report = await validator.validateString(html);
    const messages = report.results.flatMap((result) => result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
    check(`valid HTML: ${name}`, report.valid && /^<!DOCTYPE html>/i.test(html), messages.join("\n    "));
  }
  await axeContext.close();

  // JavaScript off: nothing of passkeys shows; the emailed link's form does.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const bare = await noScript.newPage();
  await bare.goto(`${origin}/employer/sign-in`);
  check("JavaScript off: no passkey button on the sign-in page, the email form is there", !(await bare.isVisible("#passkey-sign-in")) && (await bare.isVisible("#email")));
  await bare.fill("#email", EMAIL);
  await Promise.all([bare.waitForURL(/\/employer\/sign-in\?sent/), bare.getByRole("button", { name: "Email me a sign-in link" }).click()]);
  check("JavaScript off: the sign-in form still answers", (await bare.locator("h1").innerText()) === "Check your mailbox");
  await noScript.close();
} catch (error) {
  check("the browser test ran to the end", false, error instanceof Error ? error.stack : String(error));
} finally {
  await browser?.close().catch(() => {});
  worker?.stop();
  rmSync(state, { recursive: true, force: true });
}

finish();
