// The board's own database (DESIGN 17) in the benchmark: filling it the way an operator does
// (the Worker's scheduled handler, cron "board:rebuild"), checking it against the jobs, and
// what DESIGN 17 budgets beyond the reads of capabilities.mjs: the radius search against list
// page 1, and the board's staleness under write load against the same changes on an idle API.
import { readdirSync, readFileSync } from "node:fs";
import { load, ownConnection, send } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";

const API = "/api/v1.1";
/** src/scheduled/handler.ts BOARD_REBUILD. */
const BOARD_REBUILD = "board:rebuild";
let unique = 0;
const fresh = (path) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The workerd processes this Node process started (Linux /proc; none elsewhere). */
function workerdPids() {
  try {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
          return ppid === process.pid && readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "workerd";
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

const statusField = (pid, field) => {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : null;
  } catch {
    return null;
  }
};

/**
 * Samples, every 100 ms while `work` runs, workerd's resident memory (its V8 heaps are inside
 * it; workerd does not report them apart) and this Node process's V8 heap; the largest of each
 * (and workerd's resident memory when the work started).
 */
export async function peakMemoryDuring(work) {
  const pids = workerdPids();
  const peak = { workerdRssBytes: null, nodeHeapUsedBytes: process.memoryUsage().heapUsed };
  const sample = () => {
    const rss = pids.map((pid) => statusField(pid, "VmRSS")).filter((v) => v !== null);
    if (rss.length) peak.workerdRssBytes = Math.max(peak.workerdRssBytes ?? 0, rss.reduce((a, b) => a + b, 0));
    peak.nodeHeapUsedBytes = Math.max(peak.nodeHeapUsedBytes, process.memoryUsage().heapUsed);
  };
  sample();
  // What workerd held before the work: the peak is measured against it.
  peak.workerdRssAtStartBytes = peak.workerdRssBytes;
  const timer = setInterval(sample, 100);
  try {
    return { result: await work(), peak };
  } finally {
    clearInterval(timer);
    sample();
    // VmHWM: workerd's high-water mark since it started, which a 100 ms sample may miss.
    const hwm = pids.map((pid) => statusField(pid, "VmHWM")).filter((v) => v !== null);
    if (hwm.length) peak.workerdRssHighWaterBytes = hwm.reduce((a, b) => a + b, 0);
  }
}

/**
 * A read of the probe's (it changes nothing), sent again when its connection fails before the
 * answer: workerd, busy for seconds (a rebuild, a write load), may reset a connection waiting on it.
 */
async function probeRead(origin, path, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await send(origin, { host: HOSTS.probe, path });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.slice(0, 300)}`);
      return JSON.parse(res.body);
    } catch (error) {
      if (!error.code || attempt >= attempts) throw error;
    }
  }
}

/**
 * What the board should hold (every shard's jobs active and not past their close date) and what
 * it holds, as counts and checksums of (job id, revision): equal when the board matches the jobs.
 * Read inside workerd by the probe (bench/probe-worker.ts), one request.
 */
export function compareBoard(origin) {
  return probeRead(origin, `/__probe/board?now=${Math.floor(Date.now() / 1000)}`);
}

/** The board's rows, open or not: a count an index answers. */
const boardRows = async (origin) => (await probeRead(origin, "/__probe/board?rows=1")).rows;

/** How long a rebuild may take to come through the board queue before the bench gives up. */
const REBUILD_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * The board from scratch, as `npm run board:rebuild` does it: the Worker's scheduled handler
 * with cron "board:rebuild", through the probe (which calls the Worker's own `scheduled`). The
 * handler wipes the board and hands every job to the board queue; the rebuild is done when the
 * consumer has put them all back, which this waits for: the board's rows counted every 200 ms
 * until they are as many as the jobs that belong there (counted once before: nothing writes jobs
 * meanwhile), then the whole board checked against the jobs. Not the whole check every 200 ms:
 * its scans of every job and board row run on the workerd thread of the consumer it waits for.
 */
export async function rebuildBoard(origin, { label, problems, step }) {
  const { expected } = await compareBoard(origin);
  const started = process.hrtime.bigint();
  const { result: res, peak } = await peakMemoryDuring(async () => {
    const answer = await send(origin, { host: HOSTS.probe, path: `/__probe/scheduled?cron=${encodeURIComponent(BOARD_REBUILD)}&now=${Date.now()}` });
    for (const deadline = Date.now() + REBUILD_TIMEOUT_MS; answer.status === 200 && Date.now() < deadline; await sleep(200)) {
      if ((await boardRows(origin)) >= expected.jobs && (await compareBoard(origin)).same) break;
    }
    return answer;
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) problems.push(`board rebuild (${label}): ${res.status} ${res.body.slice(0, 500)}`);
  const inside = res.status === 200 ? JSON.parse(res.body).elapsedMs : null;
  const check = await compareBoard(origin);
  if (!check.same) problems.push(`board after rebuild (${label}) differs from the jobs: ${JSON.stringify(check)}`);
  const outcome = { label, wallMs, elapsedMs: inside, jobs: check.actual.jobs, jobsPerSecond: (check.actual.jobs * 1000) / wallMs, matches: check.same, peak, polled: "rows" };
  const mib = (bytes) => (bytes == null ? "?" : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
  step(
    `board rebuild (${label}): ${outcome.jobs} jobs in ${wallMs.toFixed(0)} ms (${outcome.jobsPerSecond.toFixed(0)} jobs/s), ` +
      `${check.same ? "matches the jobs" : "DIFFERS from the jobs"}; peak workerd RSS ${mib(peak.workerdRssBytes)} (high-water ${mib(peak.workerdRssHighWaterBytes)}), Node heap ${mib(peak.nodeHeapUsedBytes)}`,
  );
  return outcome;
}

/**
 * Cache misses one at a time, the requests sent in turn (a, b, a, b, …) so that a busy moment of
 * the machine hits all alike; each with a URL of its own, so each is a miss.
 */
export async function missLatencies(origin, paths, samples) {
  for (let i = 0; i < 5; i++) for (const path of paths) await send(origin, { host: HOSTS.api, path: fresh(path) });
  const times = paths.map(() => []);
  const statuses = paths.map(() => ({}));
  for (let round = 0; round < samples; round++) {
    for (const [i, path] of paths.entries()) {
      const res = await send(origin, { host: HOSTS.api, path: fresh(path) });
      times[i].push(res.ms);
      statuses[i][res.status] = (statuses[i][res.status] ?? 0) + 1;
    }
  }
  return times.map((list, i) => {
    list.sort((a, b) => a - b);
    return { samples: list.length, p50: percentile(list, 0.5), p99: percentile(list, 0.99), statuses: statuses[i] };
  });
}

/** Radius search (`near=14&radiusKm=50`, around Toronto) against list page 1, misses in turn. */
export async function measureRadius(origin, { samples, problems, step }) {
  const listPath = `${API}/board/jobs?pageSize=20`;
  const nearPath = `${API}/board/jobs?near=14&radiusKm=50&pageSize=20`;
  const first = await send(origin, { host: HOSTS.api, path: fresh(nearPath) });
  let found = null;
  if (first.status === 200) {
    const body = JSON.parse(first.body);
    found = { items: body.data.length, farthestKm: Math.max(...body.data.map((j) => j.distanceKm ?? -1)), hasNext: body.paging.next !== null };
  } else problems.push(`board near=14: ${first.status} ${first.body.slice(0, 300)}`);
  const [list, near] = await missLatencies(origin, [listPath, nearPath], samples);
  for (const [name, r] of [["list", list], ["near", near]]) {
    if (Object.keys(r.statuses).some((code) => code !== "200")) problems.push(`board ${name} (radius pair): ${JSON.stringify(r.statuses)}`);
  }
  const outcome = { list, near, ratio: near.p50 / list.p50, firstPage: found };
  step(`board radius near=14&radiusKm=50 p50 ${near.p50.toFixed(2)} ms vs list page 1 ${list.p50.toFixed(2)} ms = ${outcome.ratio.toFixed(2)} × (first page: ${JSON.stringify(found)})`);
  return outcome;
}

/**
 * Board staleness (DESIGN 17): `changes` writes of a job of the board's (a title changed by
 * PUT, or a new job by POST), one every `everyMs`; after each write's answer, GET
 * /board/jobs/{id} (each time a new URL, so a cache miss: the Cache API's own max-age is
 * DESIGN 14's, not the projection's) every `pollMs` until the board shows the change.
 * Staleness = the answer that shows it, minus the write's answer.
 */
async function stalenessOf(origin, { employer, jobIds, changes, everyMs, pollMs, timeoutMs, tag }) {
  const headers = { "API-Key": employer.apiKey, "Content-Type": "application/json" };
  const results = [];
  const one = async (i) => {
    const title = `Board Staleness ${tag} ${i}`;
    const via = ownConnection();
    const creating = i % 4 === 3;
    const written = creating
      ? await send(origin, {
          host: HOSTS.api,
          method: "POST",
          path: `${API}/jobs`,
          headers,
          body: JSON.stringify({ title, status: "active", locations: [{ description: "Toronto, ON" }], categories: [{ id: 1 }], applicantRoutingType: { id: 2 }, applicationUrl: "https://careers.example.com/apply" }),
        }, via)
      : await send(origin, { host: HOSTS.api, method: "PUT", path: `${API}/jobs/${jobIds[i % jobIds.length]}`, headers, body: JSON.stringify({ title }) }, via);
    const answered = performance.now();
    if (written.status !== (creating ? 201 : 200)) return results.push({ i, error: `${written.status} ${written.body.slice(0, 200)}` });
    const id = JSON.parse(written.body).id;
    for (;;) {
      const res = await send(origin, { host: HOSTS.api, path: fresh(`${API}/board/jobs/${id}`) }, via);
      if (res.status === 200 && JSON.parse(res.body).title === title) return results.push({ i, ms: performance.now() - answered });
      if (res.status !== 200 && res.status !== 404) return results.push({ i, error: `GET board job ${id}: ${res.status} ${res.body.slice(0, 200)}` });
      if (performance.now() - answered > timeoutMs) return results.push({ i, ms: performance.now() - answered, timedOut: true });
      await sleep(pollMs);
    }
  };
  const running = [];
  for (let i = 0; i < changes; i++) {
    running.push(one(i));
    await sleep(everyMs);
  }
  await Promise.all(running);
  const times = results.filter((r) => r.ms !== undefined).map((r) => r.ms).sort((a, b) => a - b);
  return {
    changes,
    seen: results.filter((r) => r.ms !== undefined && !r.timedOut).length,
    timedOut: results.filter((r) => r.timedOut).length,
    errors: results.filter((r) => r.error).map((r) => r.error).slice(0, 5),
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times.at(-1),
  };
}

/**
 * Staleness on an idle API (its floor: the queue's batch timeout, the consumer's work), then
 * under the bench's write load: partial PUTs of the write pool at full concurrency.
 */
export async function measureStaleness(origin, { employer, jobIds, writeLoad, connections, changes, problems, step }) {
  const options = { employer, jobIds, changes, everyMs: 100, pollMs: 50, timeoutMs: 30_000 };
  const idle = await stalenessOf(origin, { ...options, tag: "idle" });
  // The load runs until the last change is seen (at most as long as the changes may take).
  const seconds = Math.ceil((changes * options.everyMs + options.timeoutMs) / 1000) + 5;
  let run;
  const loadRun = load(origin, { ...writeLoad, connections, seconds, onStart: (r) => (run = r) });
  await sleep(1_000);
  const loaded = await stalenessOf(origin, { ...options, tag: "loaded" });
  run.stop();
  const writes = await loadRun;
  for (const [name, s] of [["idle", idle], ["under write load", loaded]]) {
    if (s.errors.length || s.timedOut) problems.push(`board staleness (${name}): ${s.timedOut} timed out; ${s.errors.join("; ")}`);
  }
  if (Object.keys(writes.statuses).some((code) => code !== "200")) problems.push(`board staleness write load: ${JSON.stringify(writes.statuses)}`);
  const outcome = {
    idle,
    loaded,
    ratio: loaded.p99 / idle.p99,
    writeLoad: { requestsPerSecond: writes.requestsPerSecond, requests: writes.requests, connections },
  };
  step(
    `board staleness over ${changes} changes: idle p50 ${idle.p50.toFixed(0)} / p99 ${idle.p99.toFixed(0)} ms; under ${writes.requestsPerSecond.toFixed(0)} writes/s ` +
      `p50 ${loaded.p50.toFixed(0)} / p99 ${loaded.p99.toFixed(0)} ms (max ${loaded.max.toFixed(0)}) = ${outcome.ratio.toFixed(2)} × idle`,
  );
  return outcome;
}
