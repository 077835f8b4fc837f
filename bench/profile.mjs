// `npm run profile [-- op ...]`: CPU profiles of the API Worker's request paths in workerd
// (Miniflare), one operation at a time, to see where a request's CPU goes: which functions
// (self time) and which areas (middleware, Drizzle, the D1 binding, zod, GC, …).
// Ops: getOne, listPage1, putById, putByReferenceId, delete, post, batch (the API; batch is the
// bench's POST /jobs/batch of 100 upserts, bench/lib/batch.mjs), floor and floorRewrite
// (bench/floor-worker.js's /floor/limited and /floor/rewrite); all by default.
//
// It builds the API as `npm run bench` does but not minified, with its sourcemap, into
// bench/.build-profile (removed at the end), starts the bench's runtime (bench/lib/runtime.mjs)
// with workerd's V8 inspector on, seeds as bench/run.mjs does, warms every path, and times each
// op without an inspector session (p50, and workerd's CPU per request from /proc). Then, per op,
// it attaches the V8 profiler over CDP and sends the op's requests one at a time: no
// concurrency, no load, so these are single-request costs, not throughput.
// The inspector is not free: a profiling session slows the Worker, HTMLRewriter's callbacks into
// JS above all, so the µs it prints are inflated and not comparable with the bench's; only
// relative shares (of one op's busy samples, or against the floor) mean anything.
//
// Writes <op>.cpuprofile (Chrome DevTools opens them), summary.json and bundle/ (the bundle and
// its sourcemap, which the analysis needs) to PROFILE_OUTPUT_DIR (default bench/results/profile/,
// not committed), then prints the compact analysis. More detail from the same files:
//   node bench/lib/profile-analysis.mjs [dir] [op ...] [--top=30] [--area=drizzle] [--stacks=fetch] …
// PROFILE_SCALE=0.1 (or PROF_SCALE): a tenth of the requests, for a smoke run.
// PROFILE_INTERVAL_US (or PROF_INTERVAL_US): the sampling interval, 50 µs by default.
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { batchSyncSetup } from "./lib/batch.mjs";
import { bundleWorker } from "./lib/build.mjs";
import { writeDocument } from "../scripts/openapi.mjs";
import { send } from "./lib/load.mjs";
import { operations } from "./lib/operations.mjs";
import { analyzeProfiles, defaultProfileDir } from "./lib/profile-analysis.mjs";
import { applyMigrations, HOSTS, startRuntime } from "./lib/runtime.mjs";
import { createEmployer, descriptionOf, seedJobs } from "./lib/seed.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const build = join(root, "bench/.build-profile");
const out = resolve(defaultProfileDir()); // a relative PROFILE_OUTPUT_DIR: from where it was started
// The runtime's configuration (wrangler.toml, .dev.vars, the scripts' names) is read relative to
// the working directory: the repository's, as under npm run.
process.chdir(root);
const SCALE = Number(process.env.PROFILE_SCALE ?? process.env.PROF_SCALE ?? 1);
const INTERVAL_US = Number(process.env.PROFILE_INTERVAL_US ?? process.env.PROF_INTERVAL_US ?? 50);
if (!(SCALE > 0) || !(INTERVAL_US > 0)) throw new Error("PROFILE_SCALE and PROFILE_INTERVAL_US must be positive numbers");
// Node's own WebSocket (Node 22+; npm scripts run the pinned Node) takes messages up to 128 MiB:
// a profile here is well under 1 MiB.
if (typeof WebSocket !== "function") throw new Error(`Node ${process.version} has no global WebSocket: run it with npm run profile (the pinned Node)`);

const ALL_OPS = ["getOne", "listPage1", "putById", "putByReferenceId", "delete", "post", "batch", "floor", "floorRewrite"];
const args = process.argv.slice(2);
const unknown = args.filter((a) => !ALL_OPS.includes(a));
if (unknown.length) {
  console.error(`unknown op(s) ${unknown.join(" ")}; ops: ${ALL_OPS.join(" ")}`);
  process.exit(2);
}
const selected = args.length ? ALL_OPS.filter((op) => args.includes(op)) : ALL_OPS;

// Requests per op: profiled (× SCALE), and timed without an inspector session (× SCALE, at least 20).
const PROFILED = { getOne: 2000, listPage1: 2000, putById: 500, putByReferenceId: 500, delete: 500, post: 300, batch: 40, floor: 2000, floorRewrite: 300 };
const UNPROFILED = { getOne: 300, listPage1: 300, putById: 300, putByReferenceId: 300, delete: 100, post: 100, batch: 20, floor: 300, floorRewrite: 100 };
const WARM = 20;
const profiledCount = (name) => Math.max(1, Math.round(PROFILED[name] * SCALE));
const unprofiledCount = (name) => Math.max(20, Math.round(UNPROFILED[name] * SCALE));

const started = performance.now();
const log = (m) => console.log(`[profile ${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s] ${m}`);

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** One Chrome DevTools Protocol session over the global WebSocket: call(method, params) → result. */
class Cdp {
  static async open(url) {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.addEventListener("open", resolve, { once: true });
      ws.addEventListener("error", (e) => reject(new Error(`inspector ${url}: ${e.message ?? "cannot connect"}`)), { once: true });
    });
    return new Cdp(ws);
  }
  constructor(ws) {
    this.ws = ws;
    this.id = 0;
    this.pending = new Map();
    ws.addEventListener("message", (e) => {
      const msg = JSON.parse(e.data);
      const p = msg.id !== undefined && this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      msg.error ? p.reject(new Error(`${p.method}: ${JSON.stringify(msg.error)}`)) : p.resolve(msg.result);
    });
    // A dropped connection (or a message over the WebSocket's limit) fails what is awaited.
    ws.addEventListener("close", (e) => {
      for (const p of this.pending.values()) p.reject(new Error(`${p.method}: inspector connection closed (${e.code} ${e.reason})`));
      this.pending.clear();
    });
  }
  call(method, params = {}) {
    const id = ++this.id;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }
  close() {
    this.ws.close();
  }
}

/** workerd's CPU time (user + system, µs) from /proc: every process of it under this one. */
function workerdCpu() {
  if (!existsSync("/proc/self/stat")) return null;
  const kids = (pid) =>
    readdirSync(`/proc/${pid}/task`).flatMap((t) => {
      try {
        return readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
      } catch {
        return [];
      }
    });
  const tree = (pid) => [pid, ...kids(pid).flatMap(tree)];
  const pids = tree(String(process.pid)).filter((p) => readFileSync(`/proc/${p}/cmdline`, "utf8").includes("workerd"));
  if (!pids.length) return null;
  return () =>
    pids.reduce((sum, p) => {
      const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      return sum + (Number(f[11]) + Number(f[12])) * (1e6 / 100); // utime + stime, in 10 ms ticks
    }, 0);
}

let mf;
let failed = false;
try {
  log(`building the API (wrangler deploy --dry-run, not minified) on Node ${process.version}; ops: ${selected.join(" ")}; scale ${SCALE}`);
  await rm(build, { recursive: true, force: true });
  await mkdir(build, { recursive: true });
  await writeDocument(); // the OpenAPI document the Worker serves, from this code (scripts/openapi.mjs)
  const apiScript = await bundleWorker(root, join(build, "api")); // not minified; index.js.map beside it
  // The bundle and its sourcemap for the analysis: bench/.build-profile goes at the end.
  await mkdir(join(out, "bundle"), { recursive: true });
  await cp(apiScript, join(out, "bundle/index.js"));
  await cp(`${apiScript}.map`, join(out, "bundle/index.js.map"));

  const inspectorPort = await freePort();
  // The probe and the two A/B variants are not profiled: the same bundle stands in for them.
  const runtime = await startRuntime(
    root,
    { apiScript, probeScript: apiScript, noRulesScript: apiScript, noViewsScript: apiScript, floorScript: join(root, "bench/floor-worker.js") },
    { inspectorPort },
  );
  mf = runtime.mf;
  const { db, boardDb, kv, origin } = runtime;
  const migrations = await applyMigrations(db, join(root, "drizzle"));
  await applyMigrations(boardDb, join(root, "drizzle/board"));
  log(`migrations: ${migrations.length}; workerd at ${origin}; inspector at 127.0.0.1:${inspectorPort}`);

  // --- seed as bench/run.mjs does: 1 000 jobs to read, pools to update and delete -------------
  // Each DELETE takes a job of its own: the pool holds at least every delete this run sends.
  const deletes = selected.includes("delete") ? WARM + unprofiledCount("delete") + profiledCount("delete") : 0;
  const small = await createEmployer(db, kv, "Bench 1k Ltd.");
  const writer = await createEmployer(db, kv, "Bench Writes Ltd.");
  const deleter = await createEmployer(db, kv, "Bench Deletes Ltd.");
  Object.assign(small, await seedJobs(db, small.employerId, 1_000));
  Object.assign(writer, await seedJobs(db, writer.employerId, 1_000, { status: "active", description: descriptionOf(500) }));
  Object.assign(deleter, await seedJobs(db, deleter.employerId, Math.max(1_000, deletes), { description: descriptionOf(500) }));
  log(`seeded 1 000 jobs (+1 000 to update, +${Math.max(1_000, deletes).toLocaleString("en").replaceAll(",", " ")} to delete)`);

  // The batch's own employer, seeded as the bench's (bench/lib/batch.mjs): 4 000 jobs (every update of the profile a change).
  const batch = selected.includes("batch") ? await batchSyncSetup({ origin, db, kv, seeded: 4_000 }) : null;
  // getOne reads the "large" employer's job: here the 1 000-job employer stands in for it.
  const ops = operations({ small, large: small, writes: writer, deletes: deleter });
  const requestOf = (op, host) => {
    const extra = op.next ? op.next() : {};
    return { host, method: op.method, path: extra.path ?? op.path, headers: op.headers, body: extra.body ?? op.body };
  };
  const floorOp = { method: "GET", path: "/floor/limited", headers: {}, expect: 200 };
  // Floor (d): floor (c) plus a bare HTMLRewriter pass over the POST's description.
  const floorRewriteOp = { method: "POST", path: "/floor/rewrite", headers: { "Content-Type": "application/json" }, body: ops.post.body, expect: 200 };
  const all = {
    getOne: [ops.getOne, HOSTS.api, "api"],
    listPage1: [ops.listPage1Small, HOSTS.api, "api"],
    putById: [ops.putPartial, HOSTS.api, "api"],
    putByReferenceId: [ops.putUpsert, HOSTS.api, "api"],
    delete: [ops.delete, HOSTS.api, "api"],
    post: [ops.post, HOSTS.api, "api"],
    batch: [batch?.request, HOSTS.api, "api"],
    floor: [floorOp, HOSTS.floor, "floor"],
    floorRewrite: [floorRewriteOp, HOSTS.floor, "floor"],
  };
  const plan = selected.map((name) => [name, ...all[name]]);

  // Warm every path (JIT, caches).
  for (const [name, op, host] of plan) {
    for (let i = 0; i < WARM; i++) {
      const res = await send(origin, requestOf(op, host));
      if (res.status !== op.expect) throw new Error(`${name}: expected ${op.expect}, got ${res.status} ${res.body.slice(0, 300)}`);
    }
  }
  // Without an inspector session (context only): p50 latency, and workerd's CPU time per
  // request from /proc (every isolate and thread of workerd: D1's SQLite and KV included;
  // 10 ms ticks, so ±5 % or so over 200 requests).
  const cpuUs = workerdCpu();
  const plain = {};
  for (const [name, op, host] of plan) {
    const n = unprofiledCount(name);
    const ms = [];
    const before = cpuUs?.();
    for (let i = 0; i < n; i++) ms.push((await send(origin, requestOf(op, host))).ms);
    ms.sort((a, b) => a - b);
    plain[name] = { requests: n, p50Ms: +ms[n >> 1].toFixed(3), workerdCpuUs: cpuUs ? Math.round((cpuUs() - before) / n) : null };
  }
  log(`without an inspector session: ${Object.entries(plain).map(([k, v]) => `${k} p50 ${v.p50Ms} ms, workerd CPU ${v.workerdCpuUs ?? "?"} µs`).join("; ")}`);

  // --- profiles, one op at a time, over CDP ---------------------------------------------------
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const wsUrlOf = (worker) => {
    const id = `core:user:${worker}`; // workerd names a Worker's target core:user:<name>
    const t = targets.find((t) => t.id === id || t.webSocketDebuggerUrl?.endsWith(`/${id}`));
    if (!t) throw new Error(`no inspector target ${id}: ${JSON.stringify(targets.slice(0, 2))}`);
    return t.webSocketDebuggerUrl.startsWith("ws") ? t.webSocketDebuggerUrl : `ws://${t.webSocketDebuggerUrl}`;
  };
  const sessions = {};
  const summary = {};
  try {
    for (const [name, op, host, worker] of plan) {
      const n = profiledCount(name);
      if (!sessions[worker]) {
        sessions[worker] = await Cdp.open(wsUrlOf(worker));
        await sessions[worker].call("Profiler.enable");
        await sessions[worker].call("Profiler.setSamplingInterval", { interval: INTERVAL_US });
      }
      const cdp = sessions[worker];
      await cdp.call("Profiler.start");
      const opStarted = performance.now();
      const statuses = {};
      for (let i = 0; i < n; i++) {
        const res = await send(origin, requestOf(op, host));
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status !== op.expect && statuses[res.status] === 1) console.warn(`${name}: ${res.status} ${res.body.slice(0, 200)}`);
      }
      const wallMs = performance.now() - opStarted;
      const { profile } = await cdp.call("Profiler.stop");
      if (Object.keys(statuses).some((s) => Number(s) !== op.expect)) failed = true;
      await writeFile(join(out, `${name}.cpuprofile`), JSON.stringify(profile));
      summary[name] = { requests: n, statuses, wallMsPerRequest: +(wallMs / n).toFixed(3), noInspector: plain[name], samples: profile.samples.length };
      log(`${name}: ${n} requests, ${JSON.stringify(statuses)}, ${(wallMs / n).toFixed(2)} ms/request profiled, ${profile.samples.length} samples`);
    }
  } finally {
    for (const s of Object.values(sessions)) s.close();
  }
  // bundle: the copy beside the profiles (relative to this folder); bundleUrl: how the profiles
  // name the bundle (workerd's script path, relative to the repository).
  const bundleUrl = apiScript.slice(root.length);
  await writeFile(
    join(out, "summary.json"),
    `${JSON.stringify({ node: process.version, scale: SCALE, intervalUs: INTERVAL_US, bundle: "bundle/index.js", bundleUrl, noInspector: plain, ops: summary }, null, 2)}\n`,
  );
  log(`wrote ${selected.map((n) => `${n}.cpuprofile`).join(", ")} and summary.json to ${out}`);
} finally {
  await mf?.dispose();
  await rm(build, { recursive: true, force: true });
  log(`removed ${build}`);
}

console.log(`\n${analyzeProfiles(out, { ops: selected, compact: true })}`);
console.log(`\nMore: node bench/lib/profile-analysis.mjs ${out} [op ...] [--top=30] [--area=…] [--stacks=…] [--incl=…]`);
if (failed) {
  console.error("some requests answered with an unexpected status (above): their profiles are not the path meant");
  process.exitCode = 1;
}
