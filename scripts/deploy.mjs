#!/usr/bin/env node
// npm run deploy: the remote migrations of every D1 database — each shard of the employer side
// (claimed once as its shard: DESIGN 22), the board's, job alerts' (ALERTS_DB) and the console's (ACCOUNTS_DB) — then
// `wrangler deploy` of the passkeys Worker (workers/passkeys), then of the main Worker, whose
// service binding PASSKEYS names it (a binding to a Worker not yet deployed fails the deploy).
import { applyMigrations } from "./lib/migrations.mjs";
import { startWrangler } from "./lib/wrangler.mjs";
import { ensureEditorAsset } from "./editor-script.mjs";
import { writeDocument } from "./openapi.mjs";

// The OpenAPI document the Worker serves, from this code (before anything remote is touched).
await writeDocument();
await ensureEditorAsset({ writeModule: false });
applyMigrations(true);
const passkeys = startWrangler(["deploy", "-c", "workers/passkeys/wrangler.toml"]);
passkeys.on("exit", (code) => {
  if (code !== 0) process.exit(code ?? 1);
  const deploy = startWrangler(["deploy"]);
  deploy.on("exit", (mainCode) => process.exit(mainCode ?? 1));
});
