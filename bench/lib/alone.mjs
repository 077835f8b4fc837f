// A measurement beside the bench's rows, run by itself (`node bench/lib/list-q.mjs`,
// `node bench/lib/board-misses.mjs`: experiments no full run makes; a row of the full run runs
// alone with `npm run bench -- --only <row>`): fresh bundles of the API and the probe in
// bench/.build-<row>, a runtime of its own with every database migrated as `npm run dev` has it,
// and a step logger. Sizes as bench/lib/sizes.mjs names them (BENCH_QUICK=1 for the quick ones).
import { mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { bundleWorker } from "./build.mjs";
import { migrateAll, startRuntime } from "./runtime.mjs";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export { QUICK, setting } from "./sizes.mjs";

/** `variants(build)` bundles variant Workers beside the API (bench/lib/build.mjs `bundlePatched`). */
async function startAlone(row, { variants = async () => [] } = {}) {
  // wrangler.toml and .dev.vars are read relative to the working directory, as under npm run.
  process.chdir(root);
  const build = `${root}bench/.build-${row}`;
  await rm(build, { recursive: true, force: true });
  await mkdir(build, { recursive: true });
  const started = Date.now();
  const step = (message) => console.log(`[${row} ${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${message}`);
  const [apiScript, probeScript, built] = await Promise.all([
    bundleWorker(root, `${build}/api`),
    bundleWorker(root, `${build}/probe`, { entry: "bench/probe-worker.ts" }),
    variants(build),
  ]);
  step(`built the API, the probe${built.length ? ` and ${built.length} variants` : ""}`);
  const runtime = await startRuntime(root, { apiScript, probeScript, floorScript: `${root}bench/floor-worker.js`, variants: built });
  const { shard1, alertsDb } = await migrateAll(runtime, root);
  step(`workerd up at ${runtime.origin}`);
  return { runtime, shard1, alertsDb, variants: built, step };
}

/**
 * The row `row` alone: `body` gets the runtime above and a list to push problems to, and returns
 * the row's outcome, printed as JSON with the problems; the runtime is then disposed of, and the
 * process exits 1 if there was any problem.
 */
export async function runAlone(row, body, options) {
  const started = await startAlone(row, options);
  const problems = [];
  try {
    const outcome = await body({ ...started, problems });
    console.log(JSON.stringify({ ...outcome, problems }, null, 2));
  } finally {
    await started.runtime.mf.dispose();
  }
  process.exit(problems.length ? 1 : 0);
}
