// Issue 38: where a board cache miss's time goes. The API as deployed, next to builds of it from
// a copy of src/ with one piece of the board's miss path taken out (src/board/cache.ts: the rate
// limiter, the Cache API lookup, the put after the answer, the ETag's digest), the bare handler
// (no boardResponses at all), floor (b) (one `SELECT 1` through a session) and floor (e) (floor (b)
// with the limiter, a Cache API lookup that misses and a put: bench/floor-worker.js), all in one workerd
// over the same BOARD_DB, loaded in turn: each round in one order, the next in the reverse one
// (ABBA), so that a busy moment of the machine hits them alike. Each request a URL of its own, so
// each is a miss. Reported as ratios to floor (b) and to the API as is, within the run, with
// workerd's CPU time per request (all its isolates: on this machine, what bounds the throughput).
//
// Alone: `node bench/lib/board-misses.mjs` (Node ≥ 24, e.g. node_modules/.bin/node) builds the
// bundles, seeds the board as the bench's quick run does (its sizes, the same seed functions, the
// board filled by cron "board:rebuild" through the queue), prints JSON. BENCH_LARGE, BENCH_WRITE_POOL,
// BENCH_DELETE_POOL, BENCH_CONNECTIONS, BENCH_BOARD_MISSES_SECONDS and BENCH_BOARD_MISSES_ROUNDS
// change its sizes; BENCH_BOARD_MISSES_ONLY=noPut,bare measures only those variants (with the API
// as is and floor (b)).
import { fileURLToPath } from "node:url";
import { childCpuMs } from "./cpu.mjs";
import { load } from "./load.mjs";
import { bundlePatched } from "./build.mjs";
import { HOSTS } from "./runtime.mjs";

const API = "/api/v1.1";
const CACHE = "board/cache.ts";
let unique = 0;
const fresh = (path) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;
const mean = (list) => list.reduce((sum, x) => sum + x, 0) / list.length;

/** What the bench loads: list page 1 and a `q` search, as measureBoard does (bench/lib/capabilities.mjs). */
export const BOARD_MISS_PATHS = { list: `${API}/board/jobs?pageSize=20`, q: `${API}/board/jobs?q=accountant&pageSize=20` };

/**
 * The variants of the API, each its patches to src/ (bench/lib/build.mjs bundlePatched). Each
 * `from` must be in the source: when src/board/cache.ts changes, these fail to build until updated.
 */
export const BOARD_MISS_VARIANTS = {
  noLimiter: {
    label: "without the rate limiter call",
    patches: [[CACHE, "c.env.BOARD_RATE_LIMITER.limit({ key: `address:${clientAddress(c)}` })", "Promise.resolve({ success: true })"]],
  },
  noLookup: {
    label: "without the cache lookup",
    patches: [[CACHE, "caches.default.match(key)", "undefined"]],
  },
  noPut: {
    label: "without the cache put",
    patches: [[CACHE, 'afterResponse(c, caches.default.put(key, new Response(body, res)), "board cache put failed");', ""]],
  },
  noEtag: {
    label: "without the ETag digest",
    patches: [[CACHE, "await etagOf(body)", '"\\"b0\\""']],
  },
  bare: {
    label: "the bare handler (no boardResponses)",
    patches: [[CACHE, "export const boardResponses = createMiddleware<AppEnv>(async (c, next) => {", "export const boardResponses = createMiddleware<AppEnv>((_c, next) => next());\nexport const unusedBoardResponses = createMiddleware<AppEnv>(async (c, next) => {"]],
  },
};

/**
 * The variants bundled (in parallel) under `outdir`, all of them or those named in `only`:
 * `[{ name, host, scriptPath }]` for startRuntime's `variants`.
 */
export async function bundleBoardMissVariants(root, outdir, only = Object.keys(BOARD_MISS_VARIANTS)) {
  return Promise.all(
    Object.entries(BOARD_MISS_VARIANTS).filter(([name]) => only.includes(name)).map(async ([name, { patches }]) => ({
      name: `board-${name}`,
      host: `${name.toLowerCase()}.board.bench`,
      scriptPath: await bundlePatched(root, `${outdir}/board-${name}`, patches),
    })),
  );
}

/**
 * Miss throughput of list page 1 and `q` on the API as is, on each variant and on floor (b), in
 * `rounds` rounds of one `seconds` slice each, the order reversed every other round.
 */
export async function measureBoardMisses(origin, { variants, connections, seconds, rounds, problems, step }) {
  const targets = [
    { name: "asIs", label: "the API as is", host: HOSTS.api },
    ...variants.map((variant) => ({ name: variant.name.replace(/^board-/, ""), label: BOARD_MISS_VARIANTS[variant.name.replace(/^board-/, "")].label, host: variant.host })),
    { name: "floorE", label: "floor (e): floor (b) with the limiter, a lookup that misses and a put", host: HOSTS.floor, path: "/floor/cached", fresh: true },
    { name: "floorB", label: "floor (b)", host: HOSTS.floor, path: "/floor/d1" },
  ];
  const requestOf = (target, path) => {
    const asked = target.path ?? path;
    return target.path && !target.fresh ? { host: target.host, path: asked } : { host: target.host, path: asked, next: () => ({ path: fresh(asked) }) };
  };
  const outcome = { connections, seconds, rounds, paths: BOARD_MISS_PATHS, targets: Object.fromEntries(targets.map((t) => [t.name, t.label])), byPath: {} };
  for (const [pathName, path] of Object.entries(BOARD_MISS_PATHS)) {
    // One short slice each first: a Worker's first requests are its slowest.
    for (const target of targets) await load(origin, { ...requestOf(target, path), connections, seconds: 1 });
    const slices = Object.fromEntries(targets.map((t) => [t.name, []]));
    const latency = Object.fromEntries(targets.map((t) => [t.name, []]));
    // workerd's CPU (every isolate: the Worker, D1, the cache, the limiter) per request.
    const cpu = Object.fromEntries(targets.map((t) => [t.name, { ms: 0, requests: 0 }]));
    for (let round = 0; round < rounds; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const cpuBefore = childCpuMs();
        const run = await load(origin, { ...requestOf(target, path), connections, seconds });
        cpu[target.name].ms += childCpuMs() - cpuBefore;
        cpu[target.name].requests += run.requests;
        if (Object.keys(run.statuses).some((code) => code !== "200") || run.errors) problems.push(`board misses ${pathName} (${target.name}): ${JSON.stringify(run.statuses)}, ${run.errors} errors`);
        slices[target.name].push(run.requestsPerSecond);
        latency[target.name].push(run.latencyMs.mean);
      }
    }
    const rates = Object.fromEntries(targets.map((t) => [t.name, mean(slices[t.name])]));
    outcome.byPath[pathName] = Object.fromEntries(
      targets.map((t) => [
        t.name,
        {
          requestsPerSecond: rates[t.name],
          ofFloorB: rates[t.name] / rates.floorB,
          ofAsIs: rates[t.name] / rates.asIs,
          ofFloorE: rates[t.name] / rates.floorE,
          meanLatencyMs: mean(latency[t.name]),
          workerdCpuMsPerRequest: cpu[t.name].ms / cpu[t.name].requests,
          slices: slices[t.name],
        },
      ]),
    );
    step(
      `board misses, ${pathName}: ` +
        targets
          .map((t) => `${t.name} ${rates[t.name].toFixed(0)} req/s (${(rates[t.name] / rates.floorB).toFixed(2)} × floor (b), ${(rates[t.name] / rates.asIs).toFixed(2)} × as is; workerd ${(cpu[t.name].ms / cpu[t.name].requests).toFixed(2)} ms CPU/request)`)
          .join("; ") +
        `; as is ÷ floor (e) = ${(rates.asIs / rates.floorE).toFixed(2)}`,
    );
  }
  return outcome;
}

// `node bench/lib/board-misses.mjs`: this measurement alone, on fresh bundles and a board seeded
// as the bench's quick run seeds it.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { createEmployer, descriptionOf, seedJobs } = await import("./seed.mjs");
  const { rebuildBoard } = await import("./board.mjs");
  const { measureBoardLatency } = await import("./capabilities.mjs");
  const { root, runAlone } = await import("./alone.mjs");
  const setting = (name, fallback) => Number(process.env[name] ?? fallback);
  const buildVariants = (build) => bundleBoardMissVariants(root, build, process.env.BENCH_BOARD_MISSES_ONLY?.split(","));
  await runAlone("board-misses", async ({ runtime: { db, boardDb, kv, origin }, variants, problems, step }) => {
    // The bench's employers and jobs, at its quick sizes (bench/run.mjs): the largest board it measures misses on.
    for (const [name, count, options] of [
      ["Bench 1k Ltd.", 1_000, {}],
      ["Bench 100k Ltd.", setting("BENCH_LARGE", 10_000), {}],
      ["Bench Writes Ltd.", setting("BENCH_WRITE_POOL", 5_000), { status: "active", description: descriptionOf(500) }],
      ["Bench Deletes Ltd.", setting("BENCH_DELETE_POOL", 5_000), { description: descriptionOf(500) }],
      ["Bench Board Staleness Ltd.", 200, { status: "active", description: descriptionOf(500) }],
    ]) {
      const employer = await createEmployer(db, kv, name);
      await seedJobs(db, employer.employerId, count, options);
    }
    const rebuild = await rebuildBoard(origin, { label: "board misses", problems, step });
    // The word index as the rebuild through the queue left it: one segment per merge FTS5 left undone.
    const words = await boardDb
      .prepare(
        `SELECT count(DISTINCT segid) AS segments, (SELECT sum(length(block)) FROM board_search_data) AS bytes,
          (SELECT count(*) FROM board_search WHERE board_search MATCH '"accountant"') AS accountants FROM board_search_idx`,
      )
      .first();
    step(`word index after the rebuild: ${words.segments} segments, ${(words.bytes / 2 ** 20).toFixed(1)} MiB; q=accountant matches ${words.accountants} of ${rebuild.jobs} jobs`);
    // One at a time, as the bench reports them next to the throughput.
    const latency = await measureBoardLatency(origin, { db, samples: setting("BENCH_BOARD_SAMPLES", 20) });
    step(`one at a time (misses): list p50 ${latency.list.p50.toFixed(2)} ms, q p50 ${latency.q.p50.toFixed(2)} ms`);
    const outcome = await measureBoardMisses(origin, {
      variants,
      connections: setting("BENCH_CONNECTIONS", 10),
      seconds: setting("BENCH_BOARD_MISSES_SECONDS", 2),
      rounds: setting("BENCH_BOARD_MISSES_ROUNDS", 4),
      problems,
      step,
    });
    return { date: new Date().toISOString(), boardJobs: rebuild.jobs, wordIndex: words, oneAtATime: { list: latency.list, q: latency.q }, ...outcome };
  }, { variants: buildVariants });
}
