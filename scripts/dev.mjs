#!/usr/bin/env node
// npm run dev: local migrations, a demo employer and key, then wrangler dev on PORT (8787).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createEmployerWithKey, findKey } from "./lib/employers.mjs";
import { applyMigrations, startWrangler } from "./lib/wrangler.mjs";

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

console.log("Applying local D1 migrations…");
applyMigrations(false);
const apiKey = await demoApiKey();
console.log(`
Demo employer (unlimited plan) API key: ${apiKey}
Try:
  curl -s http://localhost:${port}/api/v1.1/jobs -H 'API-Key: ${apiKey}'
  curl -s 'http://localhost:${port}/api/v1.1/locations?q=van'
Reference page: http://localhost:${port}/docs
Run the hourly cron now: curl 'http://localhost:${port}/cdn-cgi/local/scheduled?cron=0+*+*+*+*'  (add &time=<epoch ms> to pick "now")
`);

const child = startWrangler(["dev", "--port", port, "--ip", "127.0.0.1", "--test-scheduled", "--show-interactive-dev-session=false"]);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
