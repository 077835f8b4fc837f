#!/usr/bin/env node
// npm run board:rebuild [-- --remote]: the board's database rebuilt from the jobs (DESIGN 17).
// The Worker's own code does it (src/board/reconcile.ts rebuildBoard, bounded in memory: one page
// at a time): this starts the Worker with `wrangler dev` on the chosen state and invokes its
// scheduled handler under the name "board:rebuild", which no Cron Trigger uses: it wipes the
// board (its tombstones stay), puts back the tombstones of the jobs that left the board (a board
// whose database was lost has none), and hands every job that should be on it to the board
// queue, whose consumer (in the same Worker) puts them back, each invocation within D1's query
// budget. This waits for that.
//   local (default): the state `npm run dev` serves (.wrangler/state), migrated first.
//   --remote: `wrangler dev --remote`, the Worker running on Cloudflare against the deployed
//   databases (their migrations are `npm run deploy`'s; none are applied here).
import { parseArgs } from "node:util";
import { openBoardJobsCountSql } from "../src/board/open-jobs.ts";
import { onBoardCountSql } from "../src/jobs/on-board.ts";
import { startDevServer } from "./lib/dev-server.mjs";
import { applyMigrations } from "./lib/migrations.mjs";
import { queryEveryShard } from "./lib/shards.mjs";
import { BOARD_DATABASE, query } from "./lib/wrangler.mjs";

const { values } = parseArgs({ options: { remote: { type: "boolean", default: false } } });
const STATE = ".wrangler/state";

if (!values.remote) applyMigrations(false);
const server = await startDevServer(STATE, {
  readyPath: "/api/v1.1/positiontypes",
  args: [...(values.remote ? ["--remote"] : ["--env", "dev"]), "--test-scheduled"],
  timeoutMs: 180_000,
});
const WAIT_MS = 60 * 60 * 1000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Both sides counted at one moment with the Worker's own definitions: the jobs of every shard
 * that belong on the board (live, active, open: never a test job, a draft or a job past its
 * closeDate) and the board's open rows. A job that closes, or changes, while this waits leaves
 * or joins both.
 */
function progress() {
  const now = Math.floor(Date.now() / 1000);
  const expected = queryEveryShard(onBoardCountSql(now), values.remote).reduce((sum, { rows: [{ jobs }] }) => sum + jobs, 0);
  const [{ jobs: onBoard }] = query(openBoardJobsCountSql(now), values.remote, BOARD_DATABASE);
  return { expected, onBoard };
}
try {
  const started = Date.now();
  const res = await fetch(`${server.origin}/__scheduled?cron=${encodeURIComponent("board:rebuild")}`);
  if (!res.ok) throw new Error(`the rebuild failed (${res.status}): ${await res.text()}`);
  console.log(`Board wiped; putting back ${progress().expected} jobs through the board queue…`);
  for (;;) {
    const { expected, onBoard } = progress();
    if (onBoard >= expected) break;
    if (Date.now() - started > WAIT_MS) throw new Error(`after ${WAIT_MS / 60_000} min the board holds ${onBoard} of ${expected} jobs; the next cron run repairs the rest`);
    await sleep(2_000);
  }
  console.log(`Board rebuilt ${values.remote ? "(remote)" : "(local)"} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  server.stop();
}
