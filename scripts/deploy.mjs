#!/usr/bin/env node
// npm run deploy: the remote migrations of every D1 database — each shard of the employer side
// (claimed once as its shard: DESIGN 22), the board's, job alerts' (ALERTS_DB) and the console's (ACCOUNTS_DB) — then `wrangler deploy`.
import { applyMigrations } from "./lib/migrations.mjs";
import { startWrangler } from "./lib/wrangler.mjs";
import { writeDocument } from "./openapi.mjs";

// The OpenAPI document the Worker serves, from this code (before anything remote is touched).
await writeDocument();
applyMigrations(true);
const deploy = startWrangler(["deploy"]);
deploy.on("exit", (code) => process.exit(code ?? 1));
