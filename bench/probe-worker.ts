// Bench-only entry (never deployed): the real Worker behind a D1 round-trip counter, plus the
// cron runner, the list's search-index merge, the Worker's scheduled handler, the description
// cleaner, job alerts' consumer and cron (bench/probe-alerts.ts) and the consumers' batches with
// and without receipts (bench/probe-receipts.ts), so the harness can measure them inside workerd.
import { cleanDescription, cleanerWork, rewriteUnbounded } from "../src/description/clean";
import type { Env } from "../src/env";
import worker from "../src/index";
import { runScheduledJobs } from "../src/jobs/scheduled-rules";
import { cronBounds } from "../src/scheduled/chunks";
import { MERGE_PAGES, MERGES_PER_RUN, mergeSearchIndex } from "../src/jobs/search-index";
import { shardDatabase, shardNumbers } from "../src/shards/bindings";
import { countingD1 } from "../test/support/count-d1";
import { alertsProbe } from "./probe-alerts";
import { receiptsProbe } from "./probe-receipts";

// wrangler builds only an entry that exports the Durable Objects its configuration names; the
// bench binds every Worker's RELAY and REACH to the API's (bench/lib/runtime.mjs).
export { EmployerMove, ReachNotifier, ShardRelay } from "../src/index";

const TRIPS_HEADER = "X-Bench-D1-Trips";

/**
 * The longest single D1 call of a binding's batches: what the cron holds the database for at once
 * (DESIGN 22); and every call's time, for their median.
 */
function timingBatches(db: D1Database) {
  let longestMs = 0;
  const callsMs: number[] = [];
  const timed = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop !== "batch") return typeof value === "function" ? value.bind(target) : value;
      return async (statements: D1PreparedStatement[]) => {
        const started = Date.now();
        try {
          return await target.batch(statements);
        } finally {
          longestMs = Math.max(longestMs, Date.now() - started);
          callsMs.push(Date.now() - started);
        }
      };
    },
  });
  return { db: timed, longestMs: () => longestMs, callsMs: () => [...callsMs] };
}

/** The median and the 90th percentile of some times (ms). */
function spread(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { calls: sorted.length, medianMs: sorted[Math.floor(sorted.length / 2)], p90Ms: sorted[Math.floor(sorted.length * 0.9)], maxMs: sorted.at(-1) };
}

/**
 * The cron's job rules (DESIGN 22: bounded chunks, a budget per run), run after run at the same
 * "now" until every rule has finished, as hourly runs would go on: each run's time, the longest
 * single D1 call, the round trips and what each rule changed in all.
 */
async function cron(url: URL, env: Env): Promise<Response> {
  const timing = timingBatches(env.DB);
  const counter = countingD1(timing.db);
  const now = new Date(Number(url.searchParams.get("now")));
  // Rows a round changes at most: the runner's own (ROUND_ROWS) unless given.
  const rows = url.searchParams.has("rows") ? Number(url.searchParams.get("rows")) : undefined;
  const changed: Record<string, number> = {};
  const runs: number[] = [];
  for (let finished = false; !finished && runs.length < 100; ) {
    // Date.now() in workerd advances across I/O, and the runner's work is D1 I/O.
    const started = Date.now();
    const outcomes = await runScheduledJobs({ ...env, DB: counter.db }, now, [], cronBounds({ rows }));
    runs.push(Date.now() - started);
    for (const { rule, changed: n } of outcomes) changed[rule] = (changed[rule] ?? 0) + n;
    finished = outcomes.every((outcome) => outcome.finished);
  }
  return Response.json({
    changed,
    trips: counter.count(),
    runsMs: runs,
    longestCallMs: timing.longestMs(),
    calls: spread(timing.callsMs()),
    elapsedMs: runs.reduce((a, b) => a + b, 0),
  });
}

/**
 * The cron's merge of the list's search index (src/jobs/search-index.ts) with `pages` pages a
 * statement, at most `max` statements (budget: `budgetMs`): each statement's time inside workerd.
 */
async function searchMerge(url: URL, env: Env): Promise<Response> {
  const timing = timingBatches(env.DB);
  const pages = Number(url.searchParams.get("pages") ?? MERGE_PAGES);
  const maxMerges = Number(url.searchParams.get("max") ?? MERGES_PER_RUN);
  const budgetMs = Number(url.searchParams.get("budgetMs") ?? 600_000);
  const started = Date.now();
  const progress = await mergeSearchIndex({ DB: timing.db }, { pages, maxMerges, budgetMs });
  return Response.json({ pages, ...progress, callsMs: timing.callsMs(), ...spread(timing.callsMs()), elapsedMs: Date.now() - started });
}

/**
 * The Worker's own scheduled handler, as a Cron Trigger (or `npm run board:rebuild`, cron
 * "board:rebuild") invokes it; answers once it is done, with the time it took inside workerd.
 */
async function scheduled(url: URL, env: Env): Promise<Response> {
  const cron = url.searchParams.get("cron") ?? "0 * * * *";
  const scheduledTime = Number(url.searchParams.get("now") ?? Date.now());
  const started = Date.now();
  try {
    await worker.scheduled({ cron, scheduledTime, noRetry() {} } as ScheduledController, env);
  } catch (error) {
    return Response.json({ cron, error: String((error as Error)?.stack ?? error), elapsedMs: Date.now() - started }, { status: 500 });
  }
  return Response.json({ cron, elapsedMs: Date.now() - started });
}

type BoardSums = { jobs: number; ids: number; checksum: number };

/**
 * The board against the jobs at `now` (seconds), read here rather than through Miniflare's proxy
 * (whose reads failed on connections reset while workerd was busy: a rebuild, a long seed): what it should
 * hold (every shard's jobs active and not past their close date) and what it holds, as counts and
 * checksums of (job id, revision). `rows=1`: how many rows it has alone, which an index answers
 * (a rebuild's progress, polled while the consumer it waits for works on the same thread).
 */
async function boardCheck(url: URL, env: Env): Promise<Response> {
  const rows = await env.BOARD_DB.prepare("SELECT count(*) AS n FROM board_jobs").first<{ n: number }>();
  if (url.searchParams.has("rows")) return Response.json({ rows: rows?.n ?? 0 });
  const now = Number(url.searchParams.get("now"));
  const expected: BoardSums = { jobs: 0, ids: 0, checksum: 0 };
  for (const shard of shardNumbers(env)) {
    const own = await shardDatabase(env, shard)
      .prepare(
        `SELECT count(*) AS jobs, coalesce(sum(id), 0) AS ids, coalesce(sum((id * 1000003 + revision) % 2147483647), 0) AS checksum
        FROM jobs WHERE status = 'active' AND close_date > ?`,
      )
      .bind(now)
      .first<BoardSums>();
    for (const key of ["jobs", "ids", "checksum"] as const) expected[key] += own?.[key] ?? 0;
  }
  const actual = await env.BOARD_DB.prepare(
    `SELECT count(*) AS jobs, coalesce(sum(job_id), 0) AS ids, coalesce(sum((job_id * 1000003 + revision) % 2147483647), 0) AS checksum
    FROM board_jobs WHERE close_date > ?`,
  )
    .bind(now)
    .first<BoardSums>();
  const same = expected.jobs === actual?.jobs && expected.ids === actual.ids && expected.checksum === actual.checksum;
  return Response.json({ same, expected, actual, rows: rows?.n });
}

/** The cleaner's floor (DESIGN 6a): a bare rewriter pass, one no-op handler per element and per text chunk. */
async function bareRewriter(html: string): Promise<string> {
  let calls = 0;
  await new HTMLRewriter()
    .on("*", { element: () => void calls++ })
    .onDocument({ text: () => void calls++ })
    .transform(new Response(html))
    .arrayBuffer();
  return String(calls);
}

const CLEANERS: Record<string, (html: string) => Promise<string>> = {
  clean: cleanDescription, // as the API calls it, limits included
  unbounded: rewriteUnbounded, // the rewriting alone, for inputs past the limits
  floor: bareRewriter,
};

async function clean(request: Request, url: URL): Promise<Response> {
  const html = await request.text();
  const run = CLEANERS[url.searchParams.get("mode") ?? "clean"];
  const times = Number(url.searchParams.get("times") ?? "1");
  const before = { ...cleanerWork };
  let length = 0;
  for (let i = 0; i < times; i++) length = (await run(html)).length;
  const work = { passes: cleanerWork.passes - before.passes, events: cleanerWork.events - before.events };
  return Response.json({ times, inputLength: html.length, outputLength: length, work });
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/__probe/cron") return cron(url, env);
    if (url.pathname === "/__probe/scheduled") return scheduled(url, env);
    if (url.pathname === "/__probe/search-merge") return searchMerge(url, env);
    if (url.pathname === "/__probe/clean") return clean(request, url);
    if (url.pathname === "/__probe/board") return boardCheck(url, env);
    // DESIGN 23: job alerts' matching and a day's digests (bench/probe-alerts.ts).
    const alerts = alertsProbe(request, url, env);
    if (alerts) return alerts;
    // DESIGN 16a: a consumer batch's D1 work with its receipts and without (bench/probe-receipts.ts).
    const receipts = receiptsProbe(request, url, env);
    if (receipts) return receipts;
    // DESIGN 22: where a shard's relay is (the hand-over row times a write's events to it).
    if (url.pathname === "/__probe/relay") return Response.json(await env.RELAY.get(env.RELAY.idFromName(`shard:${url.searchParams.get("shard") ?? 0}`)).position());
    const counter = countingD1(env.DB);
    const res = await worker.fetch(request, { ...env, DB: counter.db }, ctx);
    const counted = new Response(res.body, res);
    counted.headers.set(TRIPS_HEADER, String(counter.count()));
    return counted;
  },
} satisfies ExportedHandler<Env>;
