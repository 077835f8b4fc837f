// `npm run bench`: the API in workerd with fresh state, next to a floor worker, under fixed
// concurrency, row by row (bench/lib/rows.mjs). Writes docs/benchmarks.md and
// bench/results/latest.json; exits non-zero when any operation answered with a status it should not have.
// `npm run bench -- --list`: the rows, one a line, with what each measures.
// `npm run bench -- --only <row>[,<row>…]` (repeatable): those rows alone, each with the setup it
// needs, in a full run's order; their results replace theirs in latest.json and the report is
// rendered again from it, each row saying when it ran. An unknown row: exit 2.
// `npm run bench -- --report-only`: docs/benchmarks.md again from bench/results/latest.json,
// measuring nothing (for a change to the report, not to what is measured).
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeDocument } from "../scripts/openapi.mjs";
import { bundleBoardMissVariants } from "./lib/board-misses.mjs";
import { bundleWithoutPostingRules, bundleWithoutViewCounting, bundleWorker, measureBundleRow } from "./lib/build.mjs";
import { renderReport } from "./lib/report.mjs";
import { context, ROWS } from "./lib/rows.mjs";
import { QUICK, SIZES as S } from "./lib/sizes.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const build = `${root}bench/.build`;
// BENCH_OUTPUT_DIR=dir: latest.json and benchmarks.md go there instead (e.g. for a quick run
// that must not replace the committed report).
const outputDir = process.env.BENCH_OUTPUT_DIR;
const resultsFile = outputDir ? `${outputDir}/latest.json` : `${root}bench/results/latest.json`;
const reportFile = outputDir ? `${outputDir}/benchmarks.md` : `${root}docs/benchmarks.md`;

const USAGE = `Usage: npm run bench [-- --list | --only <row>[,<row>…] … | --report-only]`;
let args;
try {
  args = parseArgs({ options: { list: { type: "boolean" }, only: { type: "string", multiple: true }, "report-only": { type: "boolean" } } }).values;
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}

if (args.list) {
  const width = Math.max(...ROWS.map((row) => row.name.length));
  for (const row of ROWS) console.log(`${row.name.padEnd(width)}  ${row.about}`);
  process.exit(0);
}
if (args["report-only"]) {
  await writeFile(reportFile, renderReport(JSON.parse(await readFile(resultsFile, "utf8"))));
  console.log(`wrote ${reportFile} from ${resultsFile}`);
  process.exit(0);
}
const only = args.only?.flatMap((value) => value.split(",")).map((name) => name.trim()).filter(Boolean);
const unknown = only?.filter((name) => !ROWS.some((row) => row.name === name)) ?? [];
if (unknown.length || only?.length === 0) {
  console.error(`No such row: ${unknown.join(", ") || "(none given)"}. The rows (npm run bench -- --list):\n${ROWS.map((row) => `  ${row.name}`).join("\n")}`);
  process.exit(2);
}
const selected = only ? ROWS.filter((row) => only.includes(row.name)) : ROWS;
const builds = new Set(selected.flatMap((row) => row.builds ?? []));

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
const step = (message) => console.log(`[bench ${elapsed().padStart(6)}] ${message}`);
const problems = [];

const loadAtStart = os.loadavg();
step(`${only ? `rows ${selected.map((row) => row.name).join(", ")} alone` : "every row"}${QUICK ? " (BENCH_QUICK=1)" : ""}; building on Node ${process.version}, ${os.cpus().length} cores, load ${loadAtStart[0].toFixed(2)}`);
await rm(build, { recursive: true, force: true });
await mkdir(build, { recursive: true });
await writeDocument(); // the OpenAPI document the Worker serves, from this code (scripts/openapi.mjs)
const [apiScript, probeScript, noRulesScript, noViewsScript, bundle, variants] = await Promise.all([
  bundleWorker(root, `${build}/api`),
  bundleWorker(root, `${build}/probe`, { entry: "bench/probe-worker.ts" }),
  builds.has("noRules") ? bundleWithoutPostingRules(root, `${build}/norules`) : undefined,
  builds.has("noViews") ? bundleWithoutViewCounting(root, `${build}/noviews`) : undefined,
  builds.has("bundle") ? measureBundleRow(root, `${build}/min`) : undefined,
  // The API with one piece of the board's miss path taken out, each (bench/lib/board-misses.mjs).
  builds.has("boardMissVariants") ? bundleBoardMissVariants(root, build) : [],
]);
if (bundle) step(`bundle: ${(bundle.gzipBytes / 1024).toFixed(1)} KiB gzip (${(bundle.minifiedBytes / 1024).toFixed(1)} KiB minified)`);

const scripts = { apiScript, probeScript, noRulesScript, noViewsScript, floorScript: `${root}bench/floor-worker.js` };
const ctx = context({ root, scripts, variants, bundle, problems, step });
const measured = {};
const rows = {};
try {
  for (const row of selected) {
    const rowStarted = new Date();
    const before = problems.length;
    step(`--- ${row.name}: ${row.about}`);
    try {
      Object.assign(measured, await row.run(ctx));
    } catch (error) {
      // The rows after it still run (those standing on what it failed to make fail in turn): a
      // late row's bug costs its own numbers, not the whole run's.
      problems.push(`${row.name}: stopped by ${error.stack ?? error}`);
      step(`--- ${row.name} stopped: ${error.message ?? error}`);
    }
    rows[row.name] = { date: rowStarted.toISOString(), seconds: (Date.now() - rowStarted) / 1000, quick: QUICK, problems: problems.slice(before) };
    step(`--- ${row.name} took ${rows[row.name].seconds.toFixed(0)} s`);
  }
} finally {
  if (ctx.main.started()) await ctx.main().then((main) => main.mf.dispose(), () => {});
}

const conditions = {
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  loadAverageAtStart: loadAtStart,
  loadAverageAtEnd: os.loadavg(),
  connections: S.CONNECTIONS,
  sliceSeconds: S.SLICE_SECONDS,
  rounds: S.ROUNDS,
  warmupSeconds: S.WARMUP_SECONDS,
  quick: QUICK,
  jobs: { small: S.SMALL, large: S.LARGE, writes: S.WRITE_POOL, deletes: S.DELETE_POOL, cron: S.CRON_JOBS },
  alerts: { small: S.ALERTS_SMALL, large: S.ALERTS_LARGE, digests: S.ALERTS_DIGESTS, samples: S.ALERTS_SAMPLES, dayJobs: S.ALERTS_DAY_JOBS },
};
const thisRun = { ...ctx.setup, ...measured };
let results;
if (only) {
  // The rows run replace theirs in the last results; everything else stays as that run measured it.
  const base = existsSync(resultsFile) ? JSON.parse(await readFile(resultsFile, "utf8")) : {};
  const merged = { ...base, ...thisRun, rows: { ...base.rows, ...Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, { ...row, alone: true, conditions }])) } };
  // Problems by row once every row has its own; a file from before rows kept its run's list.
  const rowProblems = Object.values(merged.rows).flatMap((row) => row.problems ?? []);
  merged.problems = base.rows ? rowProblems : [...(base.problems ?? []), ...problems];
  results = merged;
} else {
  results = { date: new Date().toISOString(), durationSeconds: (Date.now() - started) / 1000, conditions, rows, ...thisRun, problems };
}
await mkdir(dirname(resultsFile), { recursive: true });
await mkdir(dirname(reportFile), { recursive: true });
await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
if (!results.date) {
  // Rows run alone with no full run's results to set them in: the report needs every row.
  step(`wrote ${resultsFile} in ${elapsed()}; no report, since it holds no full run (npm run bench) for the other rows`);
} else {
  try {
    await writeFile(reportFile, renderReport(results));
    step(`wrote ${reportFile} and ${resultsFile} in ${elapsed()}`);
  } catch (error) {
    // A row that stopped left its keys out; the results are kept for --only to complete.
    problems.push(`report: not rendered (${error.message}); ${resultsFile} holds what was measured`);
  }
}

if (problems.length) {
  console.error(`\n${problems.length} operation(s) answered unexpectedly:\n${problems.join("\n")}`);
  process.exit(1);
}
