#!/usr/bin/env node
// `npm run dev` enforces exactly what production enforces (DESIGN 5), so a client tried against
// it meets the 429s it will meet in production. Checks that wrangler.toml's [env.dev] has the top
// level's rate limits and JOB_RATE_LIMIT, then that a dev server (`--env dev`, fresh state)
// answers the 11th application from one address within 60 s with 429 and Retry-After (DESIGN 15).
// Exits non-zero on any difference. CI runs it (.ci/run).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { startDevServer } from "./lib/dev-server.mjs";
import { applyMigrations } from "./lib/migrations.mjs";

const config = fileURLToPath(new URL("../wrangler.toml", import.meta.url));
const APPLICATIONS_PER_MINUTE = 10;

/** What a client can run into: every limiter's limit and period, and the limit the header tells. */
function limitsOf(environment) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(config, environment);
  const limiters = Object.entries(workerOptions.ratelimits ?? {}).map(([name, { simple }]) => `${name} ${simple.limit}/${simple.period} s`);
  return [...limiters.sort(), `JOB_RATE_LIMIT ${workerOptions.bindings?.JOB_RATE_LIMIT}`].join(", ");
}

function checkConfig() {
  const production = limitsOf(undefined);
  const dev = limitsOf("dev");
  if (dev !== production) throw new Error(`[env.dev] limits differ from the top level's:\n  top level ${production}\n  [env.dev]  ${dev}`);
  console.log(`[env.dev] limits are the top level's: ${dev}`);
}

async function checkApplyLimit() {
  const state = mkdtempSync(join(tmpdir(), "dev-limits-"));
  let server;
  try {
    applyMigrations(false, ["--persist-to", state]);
    server = await startDevServer(state, { args: ["--env", "dev"] });
    // No such job: each attempt is refused with a 404 after the limiter has counted it.
    const statuses = [];
    let last;
    for (let i = 0; i <= APPLICATIONS_PER_MINUTE; i++) {
      last = await fetch(`${server.origin}/api/v1.1/board/jobs/1/applications`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: `Applicant ${i + 1}`, email: `applicant${i + 1}@example.com` }),
      });
      statuses.push(last.status);
    }
    const retryAfter = last.headers.get("Retry-After");
    const early = statuses.slice(0, -1).filter((status) => status === 429).length;
    if (early || last.status !== 429 || !retryAfter) {
      throw new Error(`expected ${APPLICATIONS_PER_MINUTE} answers then 429 with Retry-After; got ${statuses.join(", ")} (Retry-After: ${retryAfter})`);
    }
    console.log(`npm run dev's limits: applications from one address answered ${statuses.join(", ")} (Retry-After: ${retryAfter})`);
  } finally {
    server?.stop();
    rmSync(state, { recursive: true, force: true });
  }
}

try {
  checkConfig();
  await checkApplyLimit();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
