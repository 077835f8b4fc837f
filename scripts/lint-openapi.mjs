#!/usr/bin/env node
// npm run lint:openapi: lints the OpenAPI document the Worker serves (GET /api/v1.1/openapi.json
// from `wrangler dev`, not a copy) with Spectral's `spectral:oas` and OWASP rulesets, as
// configured in .spectral.yaml (every rule switched off there says why). Fails on any error.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "./lib/dev-server.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const SPECTRAL = join(dirname(require.resolve("@stoplight/spectral-cli/package.json")), "dist", "index.js");

const state = mkdtempSync(join(tmpdir(), "openapi-lint-"));
let server;
let status = 1;
try {
  // As deployed: the document names the public https origin, not the local one.
  server = await startDevServer(state, { args: ["--var", "BASE_URL:https://jobs-api.example.com"] });
  const document = await (await fetch(`${server.origin}/api/v1.1/openapi.json`)).text();
  const file = join(state, "openapi.json");
  writeFileSync(file, document);
  const result = spawnSync(
    process.execPath,
    [SPECTRAL, "lint", file, "--ruleset", join(root, ".spectral.yaml"), "--fail-severity", "error", ...process.argv.slice(2)],
    { cwd: root, stdio: "inherit" },
  );
  status = result.status ?? 1;
} finally {
  server?.stop();
  rmSync(state, { recursive: true, force: true });
}
process.exit(status);
