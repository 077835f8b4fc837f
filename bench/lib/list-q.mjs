// `q` of the employer's job list (DESIGN 6a, issue 38 item 1): its three targets, measured as
// bench/run.mjs measures them (the same slices in turn with floor (c), the same pairs one request
// at a time), and the upkeep of its search index (drizzle/0025): what one merge statement costs
// at each size, and the cron's chunks with the index's triggers and without.
// `node bench/lib/list-q.mjs` runs this alone in a runtime of its own (see the bottom).
import { combineSlices, inTurn, load, send, sequentialLatency } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";

/** Floor (c): one rate-limiter call and one `SELECT 1` (bench/floor-worker.js). */
export const FLOOR_C = { host: HOSTS.floor, path: "/floor/limited", expect: 200 };

/**
 * `q` against the same employer's page 1, one request at a time in turn, for the employer with
 * 1 000 jobs and the one with 100 000 (target: ≤ 1.2 × for the first); `requestOf(name)` is the
 * request of bench/lib/operations.mjs's operation `name`.
 */
export async function qAgainstPage1(origin, requestOf, samples) {
  const qVsPage1 = {};
  for (const [who, q, page] of [["small", "listQSmall", "listPage1Small"], ["large", "listQLarge", "listPage1Large"]]) {
    const [rq, rp] = await sequentialLatency(origin, [requestOf(q), requestOf(page)], samples);
    qVsPage1[who] = { q: rq, page1: rp, ratio: rq.p50 / rp.p50 };
  }
  return qVsPage1;
}

/**
 * The three targets of `q`, as the report computes them from a run's rows (bench/lib/report.mjs):
 * (a) `q` at 100 000 own jobs ≥ 0.5 × floor (c) in throughput (slices in turn, as run.mjs's
 * operations), (b) `q` at 1 000 jobs p50 ≤ 1.2 × its page 1 (qAgainstPage1), (c) `q` p50 at
 * 100 000 ≤ 2 × at 1 000 (run.mjs's sequential pair of the two).
 */
export async function measureListQ(origin, { ops, connections, seconds, warmupSeconds, rounds, samples, problems }) {
  const requestOf = (name) => ({ host: HOSTS.api, ...ops[name] });
  const [floorSlices, qSlices] = await inTurn(origin, FLOOR_C, [requestOf("listQLarge")], { connections, seconds, warmupSeconds, rounds });
  const floor = combineSlices("floor.limited", FLOOR_C, floorSlices, problems);
  const large = combineSlices("listQLarge", requestOf("listQLarge"), qSlices, problems);
  const [qSmall, qLarge] = await sequentialLatency(origin, [requestOf("listQSmall"), requestOf("listQLarge")], samples);
  const qVsPage1 = await qAgainstPage1(origin, requestOf, samples);
  return {
    throughput: { qRps: large.requestsPerSecond, floorCRps: floor.requestsPerSecond, ratio: large.requestsPerSecond / floor.requestsPerSecond, p50Ms: large.latencyMs.p50 },
    qVsPage1: { qP50Ms: qVsPage1.small.q.p50, page1P50Ms: qVsPage1.small.page1.p50, ratio: qVsPage1.small.ratio, large: qVsPage1.large },
    growth: { smallP50Ms: qSmall.p50, largeP50Ms: qLarge.p50, ratio: qLarge.p50 / qSmall.p50 },
  };
}

/**
 * The employer writes run.mjs measures before its `q` pairs (POST, both PUTs, DELETE), `seconds`
 * each under `connections`: each is a transaction of its own, so each adds b-trees to the search
 * index that only the next merge (hourly, or FTS5's automerge if on) takes away.
 */
export async function writeAsTheBenchDoes(origin, { ops, connections, seconds, problems }) {
  const written = {};
  for (const name of ["post", "putPartial", "putUpsert", "delete"]) {
    const result = await load(origin, { host: HOSTS.api, ...ops[name], connections, seconds });
    const bad = Object.keys(result.statuses).filter((code) => Number(code) !== ops[name].expect);
    if (bad.length) problems.push(`${name} (writes): ${JSON.stringify(result.statuses)}`);
    written[name] = result.requests;
  }
  return written;
}

/** The search index's b-trees and leaf pages (shadow tables of job_search, read from Node). */
export async function indexShape(db) {
  return db.prepare("SELECT (SELECT count(DISTINCT segid) FROM job_search_idx) AS btrees, (SELECT count(*) FROM job_search_data) AS pages").first();
}

/** One run of the cron's merge stage through the probe (src/jobs/search-index.ts): `pages` a statement (else its MERGE_PAGES), at most `max` statements. */
export async function mergeThroughProbe(origin, { pages, max, problems }) {
  const res = await send(origin, { host: HOSTS.probe, path: `/__probe/search-merge?max=${max}${pages ? `&pages=${pages}` : ""}` });
  if (res.status !== 200) problems.push(`search merge: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body);
}

/**
 * The cron's merge stage, run after run (each at most 40 statements, as MERGES_PER_RUN), until
 * nothing is left to merge: the index as the hourly cron keeps it after a bulk load (the seed
 * writes the index in bulk, as migration 0025 does).
 */
export async function mergeToEnd(origin, problems) {
  const merged = { runs: 0, statements: 0, callsMs: [] };
  for (let run = null; !run?.finished && merged.runs < 100; merged.runs++) {
    run = await mergeThroughProbe(origin, { max: 40, problems });
    merged.pages = run.pages;
    merged.statements += run.merges;
    merged.callsMs.push(...run.callsMs);
  }
  merged.medianMs = median(merged.callsMs);
  merged.maxMs = Math.max(...merged.callsMs);
  return merged;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * What one merge statement costs with each page count: `rounds` rounds of one statement per count,
 * in turn, on the index as it is (so each count meets the same state in each round).
 */
export async function measureMergeCost(origin, { pageCounts, rounds, problems }) {
  const times = Object.fromEntries(pageCounts.map((pages) => [pages, []]));
  let worked = 0;
  for (let round = 0; round < rounds; round++) {
    for (const pages of pageCounts) {
      const outcome = await mergeThroughProbe(origin, { pages, max: 1, problems });
      times[pages].push(outcome.callsMs[0]);
      if (!outcome.finished) worked++;
    }
  }
  return { rounds, worked, statements: rounds * pageCounts.length, byPages: Object.fromEntries(pageCounts.map((pages) => [pages, { medianMs: median(times[pages]), maxMs: Math.max(...times[pages]), ms: times[pages] }])) };
}

// `node bench/lib/list-q.mjs`: this measurement alone, in a runtime of its own on fresh bundles,
// seeded as bench/run.mjs seeds (1 000 and 100 000 own jobs, and the 60 000 + 60 000 jobs of the
// write and delete pools beside them). The targets are measured on the index as seeded (as
// run.mjs did before it merged first), after the cron's merge stage has merged it, and after the
// single writes run.mjs makes before its pairs; then the cron's chunks over BENCH_CRON_JOBS eligible
// jobs without the index's update triggers and with them, in turn (ABBA; BENCH_Q_CRON names the
// runs, BENCH_Q_PHASES the parts; BENCH_Q_AUTOMERGE sets FTS5's automerge for the whole run).
// Sizes as run.mjs names them (BENCH_LARGE, BENCH_WRITE_POOL, BENCH_DELETE_POOL, BENCH_CRON_JOBS:
// 0 leaves the cron out; BENCH_QUICK=1 for smaller ones), BENCH_MERGE_PAGES="100,250,500,1000".
if (process.argv[1] && (await import("node:url")).pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { readFile } = await import("node:fs/promises");
  const { unstable_splitSqlQuery } = await import("wrangler");
  const { createEmployer, descriptionOf, seedJobs } = await import("./seed.mjs");
  const { operations } = await import("./operations.mjs");
  const { QUICK, root, runAlone, setting } = await import("./alone.mjs");
  const settings = {
    connections: setting("BENCH_CONNECTIONS", 10, 10),
    seconds: setting("BENCH_SLICE_SECONDS", 2, 1),
    warmupSeconds: 1,
    rounds: setting("BENCH_ROUNDS", 3, 1),
    samples: setting("BENCH_SEQUENTIAL_SAMPLES", 200, 40),
  };
  const LARGE = setting("BENCH_LARGE", 100_000, 10_000);
  const WRITE_POOL = setting("BENCH_WRITE_POOL", 60_000, 5_000);
  const DELETE_POOL = setting("BENCH_DELETE_POOL", 60_000, 5_000);
  const CRON_JOBS = setting("BENCH_CRON_JOBS", 100_000, 10_000);
  const pageCounts = (process.env.BENCH_MERGE_PAGES ?? "100,250,500,1000").split(",").map(Number);
  await runAlone("list-q", async ({ runtime: { db, kv, origin }, problems, step }) => {
    const outcome = { conditions: { node: process.version, quick: QUICK, large: LARGE, writePool: WRITE_POOL, deletePool: DELETE_POOL, cronJobs: CRON_JOBS, ...settings } };
    // BENCH_Q_AUTOMERGE: FTS5's automerge as a migration would set it (drizzle/0025 sets 0), before the seed.
    if (process.env.BENCH_Q_AUTOMERGE) {
      outcome.conditions.automerge = Number(process.env.BENCH_Q_AUTOMERGE);
      await db.prepare(`INSERT INTO job_search (job_search, rank) VALUES ('automerge', ${outcome.conditions.automerge})`).run();
    }
    // As run.mjs seeds: the 1 000 and the 100 000 first, then the write and delete pools.
    const small = await createEmployer(db, kv, "Bench 1k Ltd.");
    const large = await createEmployer(db, kv, "Bench 100k Ltd.");
    Object.assign(small, await seedJobs(db, small.employerId, 1_000));
    Object.assign(large, await seedJobs(db, large.employerId, LARGE));
    const writes = await createEmployer(db, kv, "Bench Writes Ltd.");
    const deletes = await createEmployer(db, kv, "Bench Deletes Ltd.");
    if (WRITE_POOL) Object.assign(writes, await seedJobs(db, writes.employerId, WRITE_POOL, { status: "active", description: descriptionOf(500) }));
    if (DELETE_POOL) Object.assign(deletes, await seedJobs(db, deletes.employerId, DELETE_POOL, { description: descriptionOf(500) }));
    const ops = operations({ small, large, writes, deletes });
    outcome.seeded = await indexShape(db);
    step(`workerd up at ${origin}; seeded 1 000 + ${LARGE} + ${WRITE_POOL} + ${DELETE_POOL} jobs; index ${JSON.stringify(outcome.seeded)}`);
    const report = (label, m) =>
      step(
        `${label}: (a) q at ${LARGE} ${m.throughput.qRps.toFixed(0)} ÷ floor (c) ${m.throughput.floorCRps.toFixed(0)} req/s = ${m.throughput.ratio.toFixed(2)} ×; ` +
          `(b) q at 1 000 p50 ${m.qVsPage1.qP50Ms.toFixed(2)} ÷ page 1 ${m.qVsPage1.page1P50Ms.toFixed(2)} ms = ${m.qVsPage1.ratio.toFixed(2)} ×; ` +
          `(c) q p50 ${m.growth.largeP50Ms.toFixed(2)} ÷ ${m.growth.smallP50Ms.toFixed(2)} ms = ${m.growth.ratio.toFixed(2)} ×`,
      );
    // BENCH_Q_PHASES: any of q (the targets, as seeded and after the merge), merge (its cost), writes
    // (the targets after run.mjs's writes), cron.
    const phases = new Set((process.env.BENCH_Q_PHASES ?? "q,merge,writes,cron").split(","));
    if (phases.has("q")) outcome.asSeeded = await measureListQ(origin, { ops, ...settings, problems });
    if (outcome.asSeeded) report("as seeded", outcome.asSeeded);

    // What one statement costs with each page count, on the index as seeded (there is most to merge).
    if (phases.has("merge")) outcome.mergeCost = await measureMergeCost(origin, { pageCounts, rounds: 3, problems });
    if (outcome.mergeCost) step(`merge, one statement (median of 3, each did work: ${outcome.mergeCost.worked}/${outcome.mergeCost.statements}): ${pageCounts.map((pages) => `${pages} pages ${outcome.mergeCost.byPages[pages].medianMs} ms (max ${outcome.mergeCost.byPages[pages].maxMs})`).join(", ")}`);
    // Then the cron's stage as it runs (MERGE_PAGES a statement), run after run until nothing is left.
    outcome.merged = { ...(await mergeToEnd(origin, problems)), index: await indexShape(db) };
    step(`merged to the end with ${outcome.merged.pages} pages a statement: ${outcome.merged.statements} statements in ${outcome.merged.runs} run(s) of at most 40, median ${outcome.merged.medianMs} ms, max ${outcome.merged.maxMs} ms; index ${JSON.stringify(outcome.merged.index)}`);
    if (phases.has("q")) {
      outcome.afterMerge = await measureListQ(origin, { ops, ...settings, problems });
      report("after the merge", outcome.afterMerge);
    }
    // Then the writes run.mjs makes before its q pairs, and the targets again on the index they leave.
    if (phases.has("writes")) {
      const written = await writeAsTheBenchDoes(origin, { ops, connections: settings.connections, seconds: settings.seconds * settings.rounds, problems });
      outcome.afterWrites = { written, index: await indexShape(db), ...(await measureListQ(origin, { ops, ...settings, problems })) };
      step(`after ${JSON.stringify(written)} writes: index ${JSON.stringify(outcome.afterWrites.index)}`);
      report("after the writes", outcome.afterWrites);
    }

    // The cron's chunks over CRON_JOBS eligible jobs (run.mjs's cron row), with the index's update
    // triggers and without them, each with rounds of a given size, in turn (BENCH_Q_CRON: a list of
    // with:rows or without:rows). The probe runs the rules alone (no relay is poked), so the events
    // they record wait in the outbox and no hand-over runs beside the next measurement.
    if (CRON_JOBS > 0 && phases.has("cron")) {
      const migration = await readFile(`${root}drizzle/0025_job_search_in_list_order.sql`, "utf8");
      // Both update triggers: the direct one (requests) and the deferred one (the cron's chunks).
      const updateTriggers = unstable_splitSqlQuery(migration.replaceAll("--> statement-breakpoint", "")).filter((statement) => statement.includes("CREATE TRIGGER job_search_update"));
      const plan = (process.env.BENCH_Q_CRON ?? "without:800,with:800,with:800,without:800").split(",").map((entry) => {
        const [kind, rows] = entry.split(":");
        return { withIndex: kind === "with", rows: Number(rows) };
      });
      outcome.cron = [];
      let triggered = true;
      for (const [n, { withIndex, rows }] of plan.entries()) {
        if (withIndex !== triggered) {
          const statements = withIndex ? updateTriggers : ["DROP TRIGGER job_search_update", "DROP TRIGGER job_search_update_deferred"];
          await db.batch(statements.map((statement) => db.prepare(statement)));
        }
        triggered = withIndex;
        const employer = await createEmployer(db, kv, `Bench Cron ${n} Ltd.`, "unlimited");
        // Half are due for auto-refresh (published 8 days ago), half are past their close date.
        await seedJobs(db, employer.employerId, CRON_JOBS / 2, { prefix: `R${n}-`, status: "active", autoRefresh: true, publishedDaysAgo: 8, description: descriptionOf(500) });
        await seedJobs(db, employer.employerId, CRON_JOBS / 2, { prefix: `X${n}-`, status: "active", publishedDaysAgo: 70, closesInDays: 60, description: descriptionOf(500) });
        // Jobs that came one by one over weeks sit in an index the hourly merges kept: merged after the bulk seed.
        if (process.env.BENCH_Q_CRON_MERGED !== "0") await mergeToEnd(origin, problems);
        const res = await send(origin, { host: HOSTS.probe, path: `/__probe/cron?now=${Date.now()}&rows=${rows}` });
        if (res.status !== 200) problems.push(`cron: ${res.status} ${res.body.slice(0, 300)}`);
        const cron = JSON.parse(res.body);
        const changed = Object.values(cron.changed).reduce((a, b) => a + b, 0);
        if (changed < CRON_JOBS) problems.push(`cron ${n}: changed ${changed}, not ${CRON_JOBS}`);
        outcome.cron.push({ withIndex, rows, calls: cron.calls, longestCallMs: cron.longestCallMs, runsMs: cron.runsMs, trips: cron.trips, changed: cron.changed });
        step(`cron over ${CRON_JOBS}, rounds of ${rows}, ${withIndex ? "with" : "without"} the index's update triggers: ${cron.calls.calls} calls, median ${cron.calls.medianMs} ms, p90 ${cron.calls.p90Ms} ms, longest ${cron.longestCallMs} ms; runs ${cron.runsMs.join(", ")} ms`);
      }
      for (const rows of new Set(plan.map((entry) => entry.rows))) {
        const of = (withIndex) => outcome.cron.filter((run) => run.withIndex === withIndex && run.rows === rows);
        const mean = (list, value) => list.reduce((sum, run) => sum + value(run), 0) / list.length;
        if (of(true).length && of(false).length) {
          step(`cron, rounds of ${rows}: with the triggers ÷ without, a call's median ${(mean(of(true), (r) => r.calls.medianMs) / mean(of(false), (r) => r.calls.medianMs)).toFixed(2)} ×, the longest ${(mean(of(true), (r) => r.longestCallMs) / mean(of(false), (r) => r.longestCallMs)).toFixed(2)} ×`);
        }
      }
    }
    return outcome;
  });
}
