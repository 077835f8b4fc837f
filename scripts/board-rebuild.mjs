#!/usr/bin/env node
// npm run board:rebuild [-- --remote]: the board's database rebuilt from the jobs (DESIGN 17).
// The Worker's own code does it (src/board/reconcile.ts rebuildBoard, bounded in memory: one page
// at a time): this starts the Worker with `wrangler dev` on the chosen state and invokes its
// scheduled handler under the name "board:rebuild", which no Cron Trigger uses.
//   local (default): the state `npm run dev` serves (.wrangler/state), migrated first.
//   --remote: `wrangler dev --remote`, the Worker running on Cloudflare against the deployed
//   databases (their migrations are `npm run deploy`'s; none are applied here).
import { parseArgs } from "node:util";
import { startDevServer } from "./lib/dev-server.mjs";
import { applyMigrations } from "./lib/wrangler.mjs";

const { values } = parseArgs({ options: { remote: { type: "boolean", default: false } } });
const STATE = ".wrangler/state";

if (!values.remote) applyMigrations(false);
const server = await startDevServer(STATE, {
  readyPath: "/api/v1.1/positiontypes",
  args: [...(values.remote ? ["--remote"] : ["--env", "dev"]), "--test-scheduled"],
  timeoutMs: 180_000,
});
try {
  const started = Date.now();
  const res = await fetch(`${server.origin}/__scheduled?cron=${encodeURIComponent("board:rebuild")}`);
  if (!res.ok) throw new Error(`the rebuild failed (${res.status}): ${await res.text()}`);
  console.log(`Board rebuilt ${values.remote ? "(remote)" : "(local)"} in ${((Date.now() - started) / 1000).toFixed(1)} s; the Worker's log line "board-rebuild" has the counts.`);
} finally {
  server.stop();
}
