// The bench's rows, in the order a full run measures them (`npm run bench -- --list`). Each row
// says which extra builds it needs and returns the top-level keys of bench/results/latest.json it
// owns; whatever it stands on (the main runtime, the seeded employers, jobs on the board) it asks
// the context for, which makes each once per run: `--only <row>` gets the same setup as a full
// run, and a full run makes it once for every row. Rows with a runtime of their own (cold start,
// reach, the move) come before the main runtime starts, so that nothing else runs meanwhile.
import { measureAlerts } from "./alerts.mjs";
import { measureBatchSync, measureReconcile } from "./batch.mjs";
import { compareBoard, measureRadius, measureStaleness, rebuildBoard } from "./board.mjs";
import { measureBoardMisses } from "./board-misses.mjs";
import { measureApply, measureBoard, measureBoardLatency, measurePages, measureScreening, measureViewCounting, measureWebhookOverhead } from "./capabilities.mjs";
import { measureColdStart } from "./cold-start.mjs";
import { measureConsole } from "./console.mjs";
import { fitting, measureCleanerFloor, measureHostilePosts, measureStall } from "./description.mjs";
import { mergeToEnd, qAgainstPage1 } from "./list-q.mjs";
import { combineSlices, inTurn, load, ownConnection, send, sequentialLatency } from "./load.mjs";
import { dirtyDescriptionOf, newJobBody, operations } from "./operations.mjs";
import { measurePostingRulesCost } from "./postingrules.mjs";
import { measureReach } from "./reach.mjs";
import { measureReceipts } from "./receipts.mjs";
import { measureHandOver } from "./relay.mjs";
import { HOSTS, migrateAll, startRuntime } from "./runtime.mjs";
import { createEmployer, databaseBytes, descriptionOf, seedJobs } from "./seed.mjs";
import { HOSTILE_SHAPES, WORST_ACCEPTED } from "./shapes.mjs";
import { measureMove } from "./shard-move.mjs";
import { SIZES as S } from "./sizes.mjs";

const KiB = 1024;
const MiB = 1024 * KiB;
const count = (n) => n.toLocaleString("en-CA").replaceAll(",", " ");
const FLOOR_A = { host: HOSTS.floor, path: "/floor/noop", expect: 200 };
const FLOOR_B = { host: HOSTS.floor, path: "/floor/d1", expect: 200 };
const FLOOR_C = { host: HOSTS.floor, path: "/floor/limited", expect: 200 };

/** `make()`'s promise, made on the first call; `.started()` says whether it was. */
const once = (make) => {
  let made;
  const get = () => (made ??= make());
  get.started = () => made !== undefined;
  return get;
};

/**
 * What rows stand on, each made on first use: `main()` the runtime every row without its own
 * shares, `seed()` the employers and jobs of the operations, `boardJobs()` the staleness
 * employer's jobs and the board rebuilt over everything seeded until then. `setup` collects the
 * results of these (written with any row that used them). `scripts`: the Workers every runtime
 * starts; `variants`: the board misses' builds, for the main runtime alone; `bundle`: its size.
 */
export function context({ root, scripts, variants, bundle, problems, step }) {
  const setup = {};
  const ctx = { root, scripts, variants, bundle, problems, step, setup, shared: {} };
  ctx.main = once(async () => {
    const runtime = await startRuntime(root, { ...scripts, variants });
    // DESIGN 22: the second shard, migrated and claimed as npm run dev does (the cron runs every shard).
    // DESIGN 23: the alerts' own database. Its queue has no consumer here: the probe hands job
    // events and the cron's messages to the alerts' consumer itself (bench/lib/alerts.mjs).
    const { shard1, alertsDb, applied } = await migrateAll(runtime, root);
    step(`workerd up at ${runtime.origin}; migrations applied: ${applied.DB.join(", ")}; to BOARD_DB: ${applied.BOARD_DB.join(", ")}; to ALERTS_DB: ${applied.ALERTS_DB.join(", ")}; to ACCOUNTS_DB: ${applied.ACCOUNTS_DB.join(", ")}`);
    return { ...runtime, shard1, alertsDb };
  });
  ctx.seed = once(async () => seedOperations(ctx, await ctx.main()));
  ctx.boardJobs = once(async () => {
    const { origin, db, kv } = await ctx.main();
    // Jobs whose titles the staleness measurement changes (their own employer, so the write load
    // never touches them), then the board rebuilt over everything seeded so far: the largest board.
    const stale = await createEmployer(db, kv, "Bench Board Staleness Ltd.");
    Object.assign(stale, await seedJobs(db, stale.employerId, 200, { status: "active", description: descriptionOf(500) }));
    const rebuild = await rebuildBoard(origin, { label: "large", problems, step });
    return { stale, rebuild };
  });
  return ctx;
}

/** The employers of the operations with their jobs, the small board measured on the way. */
async function seedOperations({ problems, step, setup }, { origin, db, kv }) {
  const small = await createEmployer(db, kv, "Bench 1k Ltd.");
  const large = await createEmployer(db, kv, "Bench 100k Ltd.");
  const writer = await createEmployer(db, kv, "Bench Writes Ltd.");
  const deleter = await createEmployer(db, kv, "Bench Deletes Ltd.");
  let t = Date.now();
  Object.assign(small, await seedJobs(db, small.employerId, S.SMALL));
  // The board spans every employer: its small case is measured now, with ~1 000 jobs in all. The
  // seed writes DB alone, so the board is filled as an operator would: cron "board:rebuild".
  const rebuildSmall = await rebuildBoard(origin, { label: "small", problems, step });
  const boardSmall = await measureBoardLatency(origin, { db, samples: S.BOARD_SAMPLES });
  const bytesBefore = await databaseBytes(db);
  Object.assign(large, await seedJobs(db, large.employerId, S.LARGE));
  const bytesAfter = await databaseBytes(db);
  const seedLargeMs = Date.now() - t;
  step(`seeded ${S.SMALL} + ${S.LARGE} jobs with links (${seedLargeMs} ms); ${S.LARGE} jobs took ${((bytesAfter - bytesBefore) / 2 ** 20).toFixed(1)} MiB`);
  t = Date.now();
  Object.assign(writer, await seedJobs(db, writer.employerId, S.WRITE_POOL, { status: "active", description: descriptionOf(500) }));
  Object.assign(deleter, await seedJobs(db, deleter.employerId, S.DELETE_POOL, { description: descriptionOf(500) }));
  step(`seeded ${S.WRITE_POOL} jobs to update and ${S.DELETE_POOL} to delete (${Date.now() - t} ms)`);
  // The seed inserts rows the way the API does, so the jobs triggers fill the list counters and
  // the search index; check that they agree with the jobs table before measuring anything.
  const derived = await db
    .prepare(
      `SELECT (SELECT count(*) FROM jobs) AS jobs, (SELECT coalesce(sum(total), 0) FROM job_counts) AS counted,
        (SELECT count(*) FROM job_search WHERE job_search MATCH '"accountant"') AS matched,
        (SELECT count(*) FROM jobs WHERE title LIKE '%accountant%' OR reference_id LIKE '%accountant%') AS liked,
        (SELECT count(*) FROM jobs j WHERE NOT EXISTS (SELECT 1 FROM job_locations WHERE job_id = j.id)) AS unlocated`,
    )
    .first();
  if (derived.counted !== derived.jobs || derived.matched !== derived.liked || derived.unlocated !== 0) {
    problems.push(`seeded data inconsistent: ${JSON.stringify(derived)}`);
  }
  step(`seed check: ${JSON.stringify(derived)}`);
  // The list's search index as the hourly cron keeps it (src/jobs/search-index.ts): the seed wrote
  // it in bulk, as migration 0025 does, and the cron's merge stage, run after run, merges its
  // b-trees (a shard serves searches from the merged index an hour or two after such a load).
  const searchMerge = await mergeToEnd(origin, problems);
  step(`search index merged as the cron merges it: ${searchMerge.statements} statements in ${searchMerge.runs} run(s), the longest ${searchMerge.maxMs} ms`);
  Object.assign(setup, {
    seedCheck: derived,
    searchMerge,
    storage: {
      jobs: S.LARGE,
      bytes: bytesAfter - bytesBefore,
      bytesPerJob: (bytesAfter - bytesBefore) / S.LARGE,
      seededDescriptionBytes: descriptionOf(2_000).length,
      seedMs: seedLargeMs,
    },
  });
  const ops = operations({ small, large, writes: writer, deletes: deleter });
  const requestOf = (op, host) => {
    const extra = op.next ? op.next() : {};
    return { host, method: op.method, path: extra.path ?? op.path, headers: op.headers, body: extra.body ?? op.body };
  };
  return { small, large, writer, deleter, ops, requestOf, rebuildSmall, boardSmall };
}

const slice = (origin, request, seconds = S.SLICE_SECONDS) => load(origin, { ...request, connections: S.CONNECTIONS, seconds });
const show = (step, name, result, extra = "") =>
  step(
    `${name.padEnd(18)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.latencyMs.p50} ms  p99 ${result.latencyMs.p99} ms  ${JSON.stringify(result.statuses)}${extra}`,
  );

const percentiles = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return { samples: sorted.length, p50Ms: sorted[Math.floor(sorted.length / 2)], p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))], maxMs: sorted.at(-1) };
};

export const ROWS = [
  {
    name: "bundle",
    about: "the Worker's size as `wrangler deploy --dry-run --minify` builds it (gzip)",
    builds: ["bundle"],
    run: async ({ bundle }) => ({ bundle }),
  },
  {
    name: "cold-start",
    about: "the first request of a fresh isolate against the ones after it (fresh runtimes of its own)",
    builds: ["noRules", "noViews"],
    run: async ({ root, scripts, problems, step }) => ({ coldStart: await measureColdStart(root, scripts, { rounds: S.COLD_START_ROUNDS, problems, step }) }),
  },
  {
    name: "reach",
    about: "search engines told of job pages: writes with reach on against off (runtimes of its own)",
    run: async ({ root, scripts, problems, step }) => ({
      reach: await measureReach(root, scripts.apiScript, { connections: S.CONNECTIONS, seconds: S.SLICE_SECONDS * 2, rounds: S.REACH_ROUNDS, problems, step }),
    }),
  },
  {
    name: "move",
    about: `an employer's ${count(S.MOVE_JOBS)} jobs (applications, résumés, a webhook, a test space) moved to shard 1 by \`npm run shards -- move\` through the operator's routes, under other employers' writes (a runtime of its own)`,
    run: async ({ root, scripts, problems, step }) => ({
      move: await measureMove(root, { apiScript: scripts.apiScript, probeScript: scripts.probeScript, floorScript: scripts.floorScript }, { jobs: S.MOVE_JOBS, problems, step }),
    }),
  },
  {
    name: "operations",
    about: "D1 round trips of each operation, then each one's throughput against floor (c), floors (a) and (b) around them",
    run: async (ctx) => {
      const { origin } = await ctx.main();
      const { ops, requestOf } = await ctx.seed();
      const { problems, step } = ctx;
      // D1 round trips, through the counting probe: a cold isolate first, then warm.
      const trips = {};
      for (const [name, op] of Object.entries(ops)) {
        const cold = await send(origin, requestOf(op, HOSTS.probe));
        const warm = await send(origin, requestOf(op, HOSTS.probe));
        for (const res of [cold, warm]) {
          if (res.status !== op.expect) problems.push(`${name}: expected ${op.expect}, got ${res.status} ${res.body.slice(0, 300)}`);
        }
        trips[name] = { cold: Number(cold.headers["x-bench-d1-trips"]), warm: Number(warm.headers["x-bench-d1-trips"]) };
      }
      step(`round trips: ${Object.entries(trips).map(([n, c]) => `${n} ${c.warm}`).join(", ")}`);

      // A machine shared with other work drifts within seconds, so each operation is measured in
      // ROUNDS slices alternating with floor (c): floor, operation, floor, operation, … and its
      // ratio is its requests over the floor's requests in the slices around it.
      const runs = {};
      const floors = { noop: [], d1: [], limited: [], rewrite: [] };
      const combine = (name, request, slices) => combineSlices(name, request, slices, problems);
      // Floors (a) and (b) before and after the operations; floor (c), which the targets use,
      // alternates with each operation.
      const measureFloorsAB = async () => {
        for (const [name, request, list] of [["floor.noop", FLOOR_A, floors.noop], ["floor.d1", FLOOR_B, floors.d1]]) {
          await slice(origin, request, S.WARMUP_SECONDS);
          const result = combine(name, request, [await slice(origin, request, S.SLICE_SECONDS * S.ROUNDS)]);
          list.push(result);
          show(step, name, result);
        }
      };
      await measureFloorsAB();
      let floorWarm = false;
      for (const [name, op] of Object.entries(ops)) {
        const request = { host: HOSTS.api, method: op.method, path: op.path, headers: op.headers, body: op.body, next: op.next, expect: op.expect };
        // Floor (d), for the POST alone: floor (c) and a bare rewriter pass over its description.
        const floorD = name === "post" ? { host: HOSTS.floor, method: "POST", path: "/floor/rewrite", headers: { "Content-Type": "application/json" }, body: op.body, expect: 200 } : null;
        const [floorSlices, ...others] = await inTurn(origin, FLOOR_C, floorD ? [floorD, request] : [request], {
          connections: S.CONNECTIONS,
          seconds: S.SLICE_SECONDS,
          warmupSeconds: S.WARMUP_SECONDS,
          rounds: S.ROUNDS,
          // Each operation's slices end with one of floor (c)'s: the next one's floor is warm.
          floorWarm,
        });
        floorWarm = true;
        const [floorDSlices, opSlices] = floorD ? others : [[], others[0]];
        const floor = combine("floor.limited", FLOOR_C, floorSlices);
        const run = combine(name, request, opSlices);
        run.floorC = floor.requestsPerSecond;
        floors.limited.push(floor);
        let extra = "";
        if (floorD) {
          const rewrite = combine("floor.rewrite", floorD, floorDSlices);
          run.floorD = rewrite.requestsPerSecond;
          floors.rewrite.push(rewrite);
          extra = `, ÷ floor (d) ${rewrite.requestsPerSecond.toFixed(0)} = ${(run.requestsPerSecond / rewrite.requestsPerSecond).toFixed(2)}`;
        }
        runs[name] = run;
        show(step, name, run, `  ÷ floor (c) ${floor.requestsPerSecond.toFixed(0)} = ${(run.requestsPerSecond / floor.requestsPerSecond).toFixed(2)}${extra}`);
      }
      await measureFloorsAB();
      // The receipts row's write is this PUT by id row when both run.
      ctx.shared.runs = runs;
      // The report says how floor (c) was warmed.
      return { trips, runs, floors: { ...floors, warmedOnce: true } };
    },
  },
  {
    name: "posting-rules",
    about: "POST and PUT with the posting rules against the same API built without them",
    builds: ["noRules"],
    run: async (ctx) => {
      const { origin } = await ctx.main();
      const { ops } = await ctx.seed();
      const { problems, step } = ctx;
      return {
        postingRules: await measurePostingRulesCost(origin, {
          ops,
          connections: S.CONNECTIONS,
          seconds: S.SLICE_SECONDS,
          rounds: S.POSTING_RULES_ROUNDS,
          samples: S.SEQUENTIAL_SAMPLES,
          problems,
          step,
        }),
      };
    },
  },
  {
    name: "sequential",
    about: "latency one request at a time, in interleaved pairs; `q` against the same employer's page 1",
    run: async (ctx) => {
      const { origin } = await ctx.main();
      const { ops, requestOf } = await ctx.seed();
      const { problems, step } = ctx;
      const sequential = {};
      const pairs = [
        ["floor.noop", "floor.d1"],
        ["listPage1Small", "listPage1Large"],
        ["listQSmall", "listQLarge"],
        ["listStatusSmall", "listStatusLarge"],
        ["listLastPageSmall", "listPage500Large"],
        ["getOne", "floor.limited"],
      ];
      const sequentialRequest = (name) =>
        name === "floor.noop" ? FLOOR_A : name === "floor.d1" ? FLOOR_B : name === "floor.limited" ? FLOOR_C : requestOf(ops[name], HOSTS.api);
      for (const [a, b] of pairs) {
        const [ra, rb] = await sequentialLatency(origin, [sequentialRequest(a), sequentialRequest(b)], S.SEQUENTIAL_SAMPLES);
        sequential[a] ??= ra;
        sequential[b] ??= rb;
        for (const [name, res] of [[a, ra], [b, rb]]) {
          const expected = ops[name]?.expect ?? 200;
          const bad = Object.keys(res.statuses).filter((code) => Number(code) !== expected);
          if (bad.length) problems.push(`${name} (sequential): ${JSON.stringify(res.statuses)}`);
        }
      }
      // `q` against the same employer's page 1, in turn (target: ≤ 1.2 × for the 1 000-job employer).
      const qVsPage1 = await qAgainstPage1(origin, sequentialRequest, S.SEQUENTIAL_SAMPLES);
      step(`sequential p50 (ms): ${Object.entries(sequential).map(([n, s]) => `${n} ${s.p50.toFixed(2)}`).join(", ")}`);
      return { sequential, qVsPage1 };
    },
  },
  {
    name: "hand-over",
    about: "an event's hand-over by the shard's relay, idle and under 80 writes/s",
    // Before the cron's row, whose 100 000 events keep the relay and the board's consumer busy for minutes.
    run: async (ctx) => {
      const { origin, db, kv } = await ctx.main();
      const { problems, step } = ctx;
      const handOver = {};
      const relayWriter = await createEmployer(db, kv, "Bench Relay Ltd.", "unlimited");
      const relayLoad = await createEmployer(db, kv, "Bench Relay Load Ltd.", "unlimited");
      const relayLoadJobs = await seedJobs(db, relayLoad.employerId, S.HANDOVER_LOAD_JOBS, { description: descriptionOf(500) });
      const handOverLoad = { apiKey: relayLoad.apiKey, first: relayLoadJobs.first, last: relayLoadJobs.last, perSecond: S.HANDOVER_LOAD_PER_SECOND };
      for (const [label, writes] of [["idle", null], ["load", handOverLoad]]) {
        const measured = await measureHandOver(origin, db, { writer: relayWriter, samples: S.HANDOVER_SAMPLES, load: writes });
        problems.push(...measured.problems);
        handOver[label] = measured;
        step(`hand-over ${label}: p50 ${measured.p50Ms?.toFixed(1)} ms, p99 ${measured.p99Ms?.toFixed(1)} ms over ${measured.samples} writes${writes ? `, other writes ${JSON.stringify(measured.load.statuses)}` : ""}`);
      }
      return { handOver };
    },
  },
  {
    name: "receipts",
    about: "a consumer batch with and without receipts, and the write (the operations row's PUT by id when it ran, else its own slices)",
    run: async (ctx) => {
      const { origin, db, boardDb, kv } = await ctx.main();
      const { problems, step } = ctx;
      const put = ctx.shared.runs?.putPartial;
      // The write is this run's PUT by id row (receipts are not on the write path), set against the
      // last run before receipts; the consumer batches are timed inside workerd by the probe.
      const write = put
        ? { write: { putRps: put.requestsPerSecond, floorCRps: put.floorC, rounds: S.ROUNDS, seconds: S.SLICE_SECONDS, connections: S.CONNECTIONS, source: "this run's PUT by id row" } }
        : { writes: (await ctx.seed()).writer, connections: S.CONNECTIONS, seconds: S.SLICE_SECONDS, rounds: S.RECEIPTS_WRITE_ROUNDS };
      return { receipts: await measureReceipts(origin, { db, boardDb, kv, samples: S.RECEIPTS_SAMPLES, ...write, problems, step }) };
    },
  },
  {
    name: "cron",
    about: `the hourly cron over ${count(S.CRON_JOBS)} eligible jobs, with a GET and floor (b) one at a time meanwhile`,
    run: async (ctx) => {
      const { origin, db, kv } = await ctx.main();
      const { ops, requestOf } = await ctx.seed();
      const { problems, step } = ctx;
      const cronEmployer = await createEmployer(db, kv, "Bench Cron Ltd.", "unlimited");
      const t = Date.now();
      // Half are due for auto-refresh (published 8 days ago), half are past their close date.
      await seedJobs(db, cronEmployer.employerId, S.CRON_JOBS / 2, { prefix: "R-", status: "active", autoRefresh: true, publishedDaysAgo: 8, description: descriptionOf(500) });
      await seedJobs(db, cronEmployer.employerId, S.CRON_JOBS / 2, { prefix: "X-", status: "active", publishedDaysAgo: 70, closesInDays: 60, description: descriptionOf(500) });
      step(`seeded ${S.CRON_JOBS} jobs eligible for the cron (${Date.now() - t} ms)`);
      // Jobs that came one by one over weeks sit in a search index the hourly merges kept (the bulk
      // seed alone leaves b-trees a chunk would merge within its own call).
      const cronSearchMerge = await mergeToEnd(origin, problems);
      const cronNow = Date.now();
      const cronStarted = process.hrtime.bigint();
      // DESIGN 22: meanwhile, one GET at a time of another employer of the same shard, and beside it
      // floor (b) one at a time (one SELECT 1 through a session of the same database): what any
      // query waits then.
      const duringCron = { get: [], floor: [] };
      let cronDone = false;
      const cronCall = send(origin, { host: HOSTS.probe, path: `/__probe/cron?now=${cronNow}` }).finally(() => (cronDone = true));
      const readsDuringCron = (request, samples) =>
        (async () => {
          const via = ownConnection();
          while (!cronDone) samples.push((await send(origin, request, via)).ms);
          via.destroy();
        })();
      const concurrentReads = Promise.all([readsDuringCron(requestOf(ops.getOne, HOSTS.api), duringCron.get), readsDuringCron(FLOOR_B, duringCron.floor)]);
      const cronRes = await cronCall;
      await concurrentReads;
      const cronWallMs = Number(process.hrtime.bigint() - cronStarted) / 1e6;
      if (cronRes.status !== 200) problems.push(`cron: ${cronRes.status} ${cronRes.body.slice(0, 300)}`);
      const { changed, ...cronRun } = JSON.parse(cronRes.body);
      // What the jobs table says, not D1's `changes` (which also counts rows written by triggers).
      const after = await db
        .prepare(
          `SELECT sum(status = 'archived' AND reference_id LIKE 'X-%') AS expired,
            sum(status = 'active' AND reference_id LIKE 'R-%' AND publish_date = ?2) AS refreshed
          FROM jobs WHERE employer_id = ?1`,
        )
        .bind(cronEmployer.employerId, Math.floor(cronNow / 1000))
        .first();
      const concurrentGet = { ...percentiles(duringCron.get), floorB: percentiles(duringCron.floor) };
      const cron = { ...cronRun, ...after, reportedChanges: changed, wallMs: cronWallMs, eligible: S.CRON_JOBS, concurrentGet, searchMerge: { statements: cronSearchMerge.statements, maxMs: cronSearchMerge.maxMs } };
      if (cron.refreshed + cron.expired !== S.CRON_JOBS) problems.push(`cron changed ${JSON.stringify(after)}, not ${S.CRON_JOBS} jobs`);
      step(`cron: refreshed ${cron.refreshed}, expired ${cron.expired}, ${cron.trips} round trips, ${cron.wallMs.toFixed(0)} ms; a concurrent GET's p99 ${concurrentGet.p99Ms?.toFixed(1)} ms, floor (b)'s ${concurrentGet.floorB.p99Ms?.toFixed(1)} ms (${concurrentGet.samples} each)`);
      return { cron };
    },
  },
  {
    name: "cleaning",
    about: "description cleaning inside workerd, 5 KB and 100 KB",
    run: async (ctx) => {
      const { origin } = await ctx.main();
      const { problems, step } = ctx;
      const cleaning = {};
      for (const [label, bytes] of [["5 KB", 5 * 1024], ["100 KB", 100 * 1024]]) {
        const html = dirtyDescriptionOf(bytes);
        const times = bytes > 10_000 ? 50 : 500;
        const timed = async (n) => {
          const best = [];
          for (let i = 0; i < 3; i++) {
            const res = await send(origin, { host: HOSTS.probe, method: "POST", path: `/__probe/clean?times=${n}`, body: html });
            if (res.status !== 200) problems.push(`clean ${label}: ${res.status} ${res.body.slice(0, 200)}`);
            best.push(res.ms);
          }
          return Math.min(...best);
        };
        const first = await timed(1);
        const many = await timed(times + 1);
        cleaning[label] = { inputBytes: html.length, msPerCall: (many - first) / times, calls: times };
        step(`clean ${label}: ${cleaning[label].msPerCall.toFixed(3)} ms per call`);
      }
      return { cleaning };
    },
  },
  {
    name: "descriptions",
    about: "the cleaner against a bare rewriter pass, hostile POSTs at 256 KiB and 1 MiB, a GET sent during the heaviest",
    run: async (ctx) => {
      const { origin } = await ctx.main();
      const { writer } = await ctx.seed();
      const { problems, step } = ctx;
      const cleanerFloor = await measureCleanerFloor(
        origin,
        { realistic: dirtyDescriptionOf(5 * KiB), shapeBytes: S.CLEANER_SHAPE_BYTES, rounds: S.CLEANER_ROUNDS },
        problems,
        step,
      );
      const hostile = await measureHostilePosts(origin, writer, { sizes: [256 * KiB, MiB], repeats: S.HOSTILE_REPEATS }, problems, step);
      hostile.repeats = S.HOSTILE_REPEATS;
      const heaviest = [
        ...Object.entries(hostile.accepted).map(([name, p]) => ({ name, ms: p.ms, html: name })),
        ...hostile.sizes.flatMap((size) => Object.entries(hostile.bySize[size].shapes).map(([name, p]) => ({ name: `${name} at ${size / KiB} KiB`, ms: p.ms, size, shape: name }))),
      ].sort((a, b) => b.ms - a.ms)[0];
      const heaviestDescription = heaviest.shape ? fitting(HOSTILE_SHAPES[heaviest.shape], heaviest.size) : WORST_ACCEPTED[heaviest.name];
      const stall = await measureStall(origin, writer, heaviest.name, heaviestDescription, S.STALL_ROUNDS, problems);
      step(`stall: GET /positiontypes waited at most ${stall.worstGetMs.toFixed(1)} ms (${stall.gets} GETs) during POST ${stall.label} (${stall.postMs.toFixed(0)} ms)`);
      return { cleanerFloor, hostile, stall };
    },
  },
  {
    name: "batch",
    about: "batch sync against single PUTs; reconcile of 10 000 referenceIds against a batch of 100",
    run: async (ctx) => {
      const { origin, db, kv } = await ctx.main();
      const { problems, step } = ctx;
      const batchSync = await measureBatchSync({ origin, db, kv, rounds: S.BATCH_ROUNDS, seeded: S.BATCH_SEEDED, problems, step });
      const reconcile = await measureReconcile({ origin, db, kv, samples: S.RECONCILE_SAMPLES, problems, step });
      return { batchSync, reconcile };
    },
  },
  {
    name: "board",
    about: "the board rebuilt over every job seeded so far, its reads, misses, radius search and staleness under writes",
    builds: ["boardMissVariants"],
    run: async (ctx) => {
      const { origin, db } = await ctx.main();
      const { ops, rebuildSmall, boardSmall } = await ctx.seed();
      const { stale, rebuild: rebuildLarge } = await ctx.boardJobs();
      const { problems, step, variants } = ctx;
      const boardLarge = await measureBoardLatency(origin, { db, samples: S.BOARD_SAMPLES });
      step(`board p50 (misses) at ${boardSmall.activeJobs} → ${boardLarge.activeJobs} active jobs: list ${boardSmall.list.p50.toFixed(2)} → ${boardLarge.list.p50.toFixed(2)} ms, q ${boardSmall.q.p50.toFixed(2)} → ${boardLarge.q.p50.toFixed(2)} ms`);
      const board = { small: boardSmall, large: boardLarge, ...(await measureBoard(origin, { connections: S.CONNECTIONS, seconds: S.SLICE_SECONDS * S.ROUNDS, samples: S.BOARD_SAMPLES, problems, step })) };
      board.rebuilds = { small: rebuildSmall, large: rebuildLarge };
      // Where a miss's time goes: the same two requests on the API as is, on the variants and on floor (b), in turn.
      board.misses = await measureBoardMisses(origin, { variants, connections: S.CONNECTIONS, seconds: S.SLICE_SECONDS, rounds: S.BOARD_MISSES_ROUNDS, problems, step });
      board.radius = await measureRadius(origin, { samples: S.BOARD_SAMPLES, problems, step });
      board.staleness = await measureStaleness(origin, {
        employer: stale,
        jobIds: Array.from({ length: stale.last - stale.first + 1 }, (_, i) => stale.first + i),
        writeLoad: { host: HOSTS.api, method: "PUT", headers: ops.putPartial.headers, next: ops.putPartial.next },
        connections: S.CONNECTIONS,
        changes: S.STALENESS_CHANGES,
        problems,
        step,
      });
      // Every change since the rebuild reached the board through the queue alone: once the consumer
      // has caught up, the board holds exactly the visible jobs again.
      const converging = Date.now();
      // The comparison only reads: one that failed counts as not converged yet.
      const compare = () => compareBoard(origin).catch((error) => ({ same: false, error: String(error) }));
      let converged = await compare();
      while (!converged.same && Date.now() - converging < 30_000) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        converged = await compare();
      }
      board.converged = { ...converged, waitedMs: Date.now() - converging };
      if (!converged.same) problems.push(`board after the write load differs from the jobs 30 s later: ${JSON.stringify(converged)}`);
      step(`board after the write load: ${converged.same ? `matches the jobs (${converged.actual.jobs}) after ${board.converged.waitedMs} ms` : "DIFFERS from the jobs"}`);
      return { board };
    },
  },
  {
    name: "webhooks",
    about: "the webhooks' cost to a write: POSTs with and without a subscription",
    run: async (ctx) => {
      const { origin, db, kv } = await ctx.main();
      const { problems, step } = ctx;
      return {
        webhooks: await measureWebhookOverhead(origin, {
          db,
          createEmployer: (name) => createEmployer(db, kv, name),
          jobBody: newJobBody(dirtyDescriptionOf(5 * KiB)),
          connections: S.CONNECTIONS,
          seconds: S.SLICE_SECONDS * S.ROUNDS,
          problems,
          step,
        }),
      };
    },
  },
  {
    name: "apply",
    about: "an application through the service, its round trips and latency",
    run: async (ctx) => {
      const { origin, db, kv } = await ctx.main();
      const { problems, step } = ctx;
      return { apply: await measureApply(origin, { db, createEmployer: (name) => createEmployer(db, kv, name), samples: S.APPLY_SAMPLES, problems, step }) };
    },
  },
  {
    name: "pages",
    about: "the board's web pages (a job's page, the search page) against their board requests",
    run: async (ctx) => {
      const { origin } = await ctx.main();
      const { stale } = await ctx.boardJobs();
      const { problems, step } = ctx;
      return { pages: await measurePages(origin, { jobId: stale.first, connections: S.CONNECTIONS, seconds: S.SLICE_SECONDS, rounds: S.ROUNDS * 2, problems, step }) };
    },
  },
  {
    name: "console",
    about: "the employer console's jobs page and a saved job against the API requests they stand for, one at a time in turn",
    run: async (ctx) => {
      const { origin, db, kv, mf } = await ctx.main();
      const { problems, step } = ctx;
      const accountsDb = await mf.getD1Database("ACCOUNTS_DB", "api");
      return { console: await measureConsole(origin, { db, kv, accountsDb, jobs: S.CONSOLE_JOBS, samples: S.CONSOLE_SAMPLES, problems, step }) };
    },
  },
  {
    name: "view-counting",
    about: "board reads with view counting against the same API built without it",
    builds: ["noViews"],
    run: async (ctx) => {
      const { origin } = await ctx.main();
      const { stale } = await ctx.boardJobs();
      const { problems, step } = ctx;
      // As many slices as the posting rules' A/B: a few per cent is what it has to tell apart.
      return { viewCounting: await measureViewCounting(origin, { jobId: stale.first, connections: S.CONNECTIONS, seconds: S.SLICE_SECONDS, rounds: S.POSTING_RULES_ROUNDS, problems, step }) };
    },
  },
  {
    name: "screening",
    about: "an application with 20 answers against one without; a status move",
    run: async (ctx) => {
      const { origin, db, kv } = await ctx.main();
      const { problems, step } = ctx;
      return { screening: await measureScreening(origin, { createEmployer: (name) => createEmployer(db, kv, name), samples: S.SCREENING_SAMPLES, problems, step }) };
    },
  },
  {
    name: "alerts",
    about: `job alerts: one job matched at ${count(S.ALERTS_SMALL)} and ${count(S.ALERTS_LARGE)} alerts, the day's jobs, a day's digests for ${count(S.ALERTS_DIGESTS)} of them`,
    run: async (ctx) => {
      const { origin, db, kv, boardDb, alertsDb } = await ctx.main();
      const { problems, step } = ctx;
      return {
        alerts: await measureAlerts(origin, {
          db,
          kv,
          boardDb,
          alertsDb,
          small: S.ALERTS_SMALL,
          large: S.ALERTS_LARGE,
          digests: S.ALERTS_DIGESTS,
          dayJobs: S.ALERTS_DAY_JOBS,
          samples: S.ALERTS_SAMPLES,
          problems,
          step,
        }),
      };
    },
  },
];
