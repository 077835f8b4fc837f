#!/usr/bin/env node
// npm run dev: local migrations, a demo employer and key, then wrangler dev on PORT (8787), with
// the passkeys Worker alongside (APP_CONFIGS).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, watch, writeFileSync } from "node:fs";
import { ensureStandInKey, standInSettings } from "./lib/dev-access.mjs";
import { createEmployerWithKey, findKey } from "./lib/employers.mjs";
import { applyMigrations } from "./lib/migrations.mjs";
import { APP_CONFIGS, startWrangler } from "./lib/wrangler.mjs";
import { ensureEditorAsset } from "./editor-script.mjs";
import { writeDocument } from "./openapi.mjs";

const port = process.env.PORT ?? "8787";
// Local only (.wrangler/ is git-ignored): lets every `npm run dev` print the same demo key.
const DEMO_KEY_FILE = ".wrangler/demo-api-key";

async function demoApiKey() {
  if (existsSync(DEMO_KEY_FILE)) {
    const saved = readFileSync(DEMO_KEY_FILE, "utf8").trim();
    if (await findKey(saved)) return saved;
  }
  const { apiKey } = await createEmployerWithKey({ name: "Demo Employer", plan: "unlimited" });
  mkdirSync(".wrangler", { recursive: true });
  writeFileSync(DEMO_KEY_FILE, `${apiKey}\n`, { mode: 0o600 });
  return apiKey;
}

// Worker secrets, each base64 of 32 random bytes; deployments set theirs with `wrangler secret put
// NAME`. Locally they live in .dev.vars (git-ignored). WEBHOOK_ENCRYPTION_KEY encrypts webhook
// signing secrets; ALERTS_TOKEN_KEY derives job alerts' link tokens (DESIGN 23, src/alerts/tokens.ts).
function ensureSecretKey(name) {
  const file = ".dev.vars";
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (new RegExp(`^${name}=`, "m").test(current)) return;
  const line = `${name}=${randomBytes(32).toString("base64")}\n`;
  appendFileSync(file, current && !current.endsWith("\n") ? `\n${line}` : line, { mode: 0o600 });
  console.log(`Wrote a random ${name} to .dev.vars.`);
}

/**
 * The OpenAPI document is built from the route definitions (scripts/openapi.mjs): built now, and
 * again whenever src/ changes, so that wrangler dev's reload serves the changed document too.
 */
async function keepDocumentBuilt() {
  await writeDocument();
  let timer;
  watch("src", { recursive: true }, (_event, file) => {
    if (!file || file.startsWith("generated") || file.startsWith("static")) return;
    clearTimeout(timer);
    // A process per build: each build's bundle would otherwise stay in this process's module cache.
    timer = setTimeout(() => execFile(process.execPath, ["scripts/openapi.mjs"], (error) => error && console.error(`openapi: ${error.message}`)), 300);
  });
}

await keepDocumentBuilt();
// The description editor's script, built from this checkout (npm install built it from the last).
await ensureEditorAsset({ writeModule: true });
ensureSecretKey("WEBHOOK_ENCRYPTION_KEY");
ensureSecretKey("ALERTS_TOKEN_KEY");
// DESIGN 26a: the dev stand-in of Cloudflare Access, for the operator's console (local only).
if (ensureStandInKey()) console.log("Wrote the dev stand-in of Access's key (ACCESS_DEV_PRIVATE_JWK) to .dev.vars.");
console.log("Applying local D1 migrations…");
applyMigrations(false);
const apiKey = await demoApiKey();
const demoEmployer = (await findKey(apiKey))?.employerId ?? 1;
console.log(`
Demo employer (unlimited plan) API key: ${apiKey}
Try:
  curl -s http://localhost:${port}/api/v1.1/jobs -H 'API-Key: ${apiKey}'
  curl -s 'http://localhost:${port}/api/v1.1/locations?q=van'
Webhooks to a receiver on this machine (http:// and loopback are allowed locally):
  curl -s http://localhost:${port}/api/v1.1/webhooks -H 'API-Key: ${apiKey}' -H 'Content-Type: application/json' -d '{"url":"http://127.0.0.1:9999/hooks"}'
Reference page: http://localhost:${port}/docs
Employer console (docs/console.md): npm run people -- invite --employer ${demoEmployer} --email you@example.com, then open the printed link
Operator console (docs/operator.md): npm run operator -- sign-in --email you@example.com, then open the printed link
Run the hourly cron now: curl 'http://localhost:${port}/cdn-cgi/local/scheduled?cron=0+*+*+*+*'  (add &time=<epoch ms> to pick "now")
`);

const child = startWrangler(["dev", ...APP_CONFIGS, "--env", "dev", "--port", port, "--ip", "127.0.0.1", "--test-scheduled", "--show-interactive-dev-session=false", ...standInSettings(port)]);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
