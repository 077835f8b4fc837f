#!/usr/bin/env node
// The soak test: the API under a mixed, concurrent workload for a bounded time, then the
// database checked against everything the clients were told.
//
//   npm run soak                  full mode: 10 minutes, 24 clients, 6 employers
//   SOAK_SHORT=1 npm run soak     short mode (CI): 60 seconds, 8 clients, 3 employers
//   SOAK_SECONDS, SOAK_CLIENTS, SOAK_SEED override the figures (the seed is fixed by default,
//   so a run can be repeated; timing still decides how far each client gets).
//
// It starts `wrangler dev --env load` (wrangler.toml: [env.dev] with limits no client here reaches)
// on a free port with a fresh --persist-to directory, so it never touches your local dev state. Exits non-zero on any 5xx, any answer the model did not
// expect, any lost or ghost write, any wrong value, any duplicate referenceId, and when, after one
// run of the hourly cron at the end, the board's database (BOARD_DB, DESIGN 17) does not hold
// exactly the active, not-past-closeDate jobs (same ids, revisions and titles).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./lib/free-port.mjs";
import { checkBoard, migrateState, queryShards, random, weighted, runCron as runCronOnce, seedEmployers, startApi } from "./lib/local-load.mjs";

const SHORT = process.env.SOAK_SHORT === "1";
const SECONDS = Number(process.env.SOAK_SECONDS ?? (SHORT ? 60 : 600));
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? (SHORT ? 8 : 24));
const EMPLOYERS = Math.max(1, Math.min(CLIENTS, SHORT ? 3 : 6));
const SEED = Number(process.env.SOAK_SEED ?? 20261121);
const MAX_ANOMALIES_SHOWN = 20;

const PLACES = ["Vancouver, BC", "Toronto, ON", "Calgary, AB", "Montréal, QC", "Halifax, NS", "Winnipeg, MB"];
const NEXT_STATUS = { draft: ["active", "archived"], active: ["archived"], archived: ["active"] };

// ---------------------------------------------------------------- small helpers

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

// ---------------------------------------------------------------- the local API
// scripts/lib/local-load.mjs: the state, the employers, wrangler dev, the cron, the board check.

// ---------------------------------------------------------------- figures

const stats = { requests: 0, byOp: {}, byStatus: {}, latencies: [], fiveXx: 0 };
const anomalies = [];

function anomaly(message) {
  anomalies.push(message);
  if (anomalies.length <= MAX_ANOMALIES_SHOWN) console.error(`ANOMALY ${message}`);
}

// ---------------------------------------------------------------- one client

/** What this client believes about each of its jobs; only this client ever writes them. */
class Client {
  constructor(index, employer, base) {
    this.index = index;
    this.employer = employer;
    this.base = base;
    this.tag = `[c${index}]`;
    this.rng = random(SEED * 1009 + index);
    this.jobs = new Map(); // id → expected job
    this.deleted = new Set();
    this.serial = 0;
  }

  async call(op, method, path, json) {
    const headers = { "API-Key": this.employer.apiKey };
    if (json !== undefined) headers["Content-Type"] = "application/json";
    const started = performance.now();
    let res;
    try {
      res = await fetch(`${this.base}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    } catch (error) {
      anomaly(`client ${this.index} ${op}: ${method} ${path} failed at the network level: ${error.message}`);
      return { status: 0, body: null };
    }
    const text = await res.text();
    stats.latencies.push(performance.now() - started);
    stats.requests++;
    stats.byOp[op] = (stats.byOp[op] ?? 0) + 1;
    stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
    if (res.status >= 500) {
      stats.fiveXx++;
      anomaly(`client ${this.index} ${op}: ${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
    }
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  expectStatus(op, got, ...wanted) {
    if (wanted.includes(got.status)) return true;
    anomaly(`client ${this.index} ${op}: expected ${wanted.join("/")}, got ${got.status} ${JSON.stringify(got.body)?.slice(0, 300)}`);
    return false;
  }

  /** The members the soak changes, as the API must return them. */
  expectJob(op, body, expected) {
    const actual = {
      referenceId: body.referenceId,
      title: body.title,
      status: body.status,
      confidential: body.confidential,
      closeDate: body.closeDate,
      salaryAmount: body.salary?.amount ?? null,
      employerId: body.employer?.id,
    };
    const want = { ...expected, employerId: this.employer.employerId };
    for (const key of Object.keys(want)) {
      if (actual[key] !== want[key]) {
        anomaly(`client ${this.index} ${op}: job ${body.id} ${key} is ${JSON.stringify(actual[key])}, expected ${JSON.stringify(want[key])}`);
        return;
      }
    }
  }

  newJob(referenceId) {
    const r = this.rng;
    const salary = r.next() < 0.5 ? 40_000 + r.int(60) * 1000 : null;
    const expected = {
      referenceId,
      title: `${this.tag} job ${++this.serial}`,
      status: r.pick(["draft", "active", "archived"]),
      confidential: r.next() < 0.3,
      closeDate: `2031-${String(1 + r.int(12)).padStart(2, "0")}-${String(1 + r.int(28)).padStart(2, "0")}T23:59:59Z`,
      salaryAmount: salary,
    };
    const body = {
      referenceId,
      title: expected.title,
      status: expected.status,
      confidential: expected.confidential,
      closeDate: expected.closeDate.slice(0, 10),
      locations: [{ description: r.pick(PLACES) }],
      categories: [{ id: 1 + r.int(5) }],
      ...(salary === null ? {} : { salary: { amount: salary, type: { id: 1 } } }),
    };
    return { body, expected };
  }

  newReference() {
    return `c${this.index}-${++this.serial}`;
  }

  liveIds() {
    return [...this.jobs.keys()];
  }

  refOf(id) {
    return this.jobs.get(id).referenceId;
  }

  /** A new job by POST or by PUT with an unused referenceId: 201, and it is ours to track. */
  async createVia(op, method, ref) {
    const { body, expected } = this.newJob(ref);
    const res = await this.call(op, method, "/jobs", body);
    if (!this.expectStatus(op, res, 201)) return;
    this.jobs.set(res.body.id, expected);
    this.expectJob(op, res.body, expected);
  }

  /** A live job of this client that has a referenceId, or undefined when there is none. */
  pickWithReference() {
    const withRef = this.liveIds().filter((id) => this.refOf(id) !== null);
    return withRef.length ? this.rng.pick(withRef) : undefined;
  }

  create() {
    return this.createVia("create", "POST", this.rng.next() < 0.5 ? this.newReference() : null);
  }

  async conflict() {
    const id = this.pickWithReference();
    if (id === undefined) return this.create();
    const res = await this.call("conflict", "POST", "/jobs", this.newJob(this.refOf(id)).body);
    if (this.expectStatus("conflict", res, 409) && res.body.existingJobId !== id) {
      anomaly(`client ${this.index} conflict: existingJobId ${res.body.existingJobId}, expected ${id}`);
    }
  }

  upsertNew() {
    return this.createVia("upsert-new", "PUT", this.newReference());
  }

  async upsertExisting() {
    const id = this.pickWithReference();
    if (id === undefined) return this.upsertNew();
    const expected = { ...this.jobs.get(id), title: `${this.tag} job ${++this.serial} (upserted)` };
    const res = await this.call("upsert-existing", "PUT", "/jobs", { referenceId: expected.referenceId, title: expected.title });
    if (!this.expectStatus("upsert-existing", res, 200)) return;
    if (res.body.id !== id) anomaly(`client ${this.index} upsert-existing: got job ${res.body.id}, expected ${id}`);
    this.jobs.set(id, expected);
    this.expectJob("upsert-existing", res.body, expected);
  }

  /** Identical PUTs of a new referenceId in flight together: one 201, the rest 200, one job. */
  async race() {
    const copies = 2 + this.rng.int(5);
    const { body, expected } = this.newJob(this.newReference());
    const results = await Promise.all(Array.from({ length: copies }, () => this.call("race", "PUT", "/jobs", body)));
    const created = results.filter((r) => r.status === 201);
    const updated = results.filter((r) => r.status === 200);
    if (created.length !== 1 || updated.length !== copies - 1) {
      anomaly(`client ${this.index} race: ${copies} identical PUTs answered ${results.map((r) => r.status).join(", ")}`);
    }
    const ids = new Set(results.filter((r) => r.status < 300).map((r) => r.body.id));
    if (ids.size !== 1) return anomaly(`client ${this.index} race: ${copies} identical PUTs gave jobs ${[...ids].join(", ")}`);
    const [id] = ids;
    this.jobs.set(id, expected);
    for (const r of results) if (r.status < 300) this.expectJob("race", r.body, expected);
  }

  async partial() {
    if (!this.jobs.size) return this.create();
    const id = this.rng.pick(this.liveIds());
    const before = this.jobs.get(id);
    const expected = { ...before };
    let change;
    switch (this.rng.int(5)) {
      case 0:
        expected.title = `${this.tag} job ${++this.serial} (renamed)`;
        change = { title: expected.title };
        break;
      case 1:
        expected.confidential = !before.confidential;
        change = { confidential: expected.confidential };
        break;
      case 2:
        expected.status = this.rng.pick(NEXT_STATUS[before.status]);
        change = { status: expected.status };
        break;
      case 3:
        expected.salaryAmount = 40_000 + this.rng.int(60) * 1000;
        change = { salary: { amount: expected.salaryAmount, type: { id: 1 } } };
        break;
      default:
        expected.closeDate = `2032-0${1 + this.rng.int(9)}-1${this.rng.int(9)}T23:59:59Z`;
        change = { closeDate: expected.closeDate.slice(0, 10) };
    }
    const res = await this.call("partial", "PUT", `/jobs/${id}`, change);
    if (!this.expectStatus("partial", res, 200)) return;
    this.jobs.set(id, expected);
    this.expectJob("partial", res.body, expected);
  }

  async remove() {
    if (!this.jobs.size) return this.create();
    const id = this.rng.pick(this.liveIds());
    const ref = this.refOf(id);
    const res =
      ref !== null && this.rng.next() < 0.5
        ? await this.call("delete", "DELETE", "/jobs", { referenceId: ref })
        : await this.call("delete", "DELETE", `/jobs/${id}`);
    if (!this.expectStatus("delete", res, 204)) return;
    this.jobs.delete(id);
    this.deleted.add(id);
  }

  async read() {
    const deleted = [...this.deleted];
    if (deleted.length && this.rng.next() < 0.2) {
      this.expectStatus("read-deleted", await this.call("read", "GET", `/jobs/${this.rng.pick(deleted)}`), 404);
      return;
    }
    if (!this.jobs.size) return this.create();
    const id = this.rng.pick(this.liveIds());
    const res = await this.call("read", "GET", `/jobs/${id}`);
    if (this.expectStatus("read", res, 200)) this.expectJob("read", res.body, this.jobs.get(id));
  }

  /** This client's jobs, found by its tag through every page: exactly what it believes. */
  async list() {
    const seen = [];
    for (let page = 1; ; page++) {
      const res = await this.call("list", "GET", `/jobs?q=${encodeURIComponent(this.tag)}&pageSize=100&page=${page}`);
      if (!this.expectStatus("list", res, 200)) return;
      seen.push(...res.body.data.map((j) => j.id));
      if (page >= res.body.paging.pages) {
        if (res.body.paging.total !== this.jobs.size) {
          anomaly(`client ${this.index} list: total ${res.body.paging.total}, expected ${this.jobs.size}`);
        }
        break;
      }
    }
    const missing = this.liveIds().filter((id) => !seen.includes(id));
    const extra = seen.filter((id) => !this.jobs.has(id));
    if (missing.length || extra.length) anomaly(`client ${this.index} list: missing ${missing.join(",") || "-"}, unexpected ${extra.join(",") || "-"}`);
  }

  async run(deadline) {
    const ops = [
      [18, () => this.create()],
      [4, () => this.conflict()],
      [10, () => this.upsertNew()],
      [10, () => this.upsertExisting()],
      [4, () => this.race()],
      [18, () => this.partial()],
      [8, () => this.remove()],
      [20, () => this.read()],
      [8, () => this.list()],
    ];
    const next = weighted(this.rng, ops);
    while (Date.now() < deadline) {
      await next()();
    }
  }
}

// ---------------------------------------------------------------- final checks

/** Every job each client kept is read back with its values; every job it deleted is a 404. */
async function checkThroughApi(clients) {
  const checks = clients.flatMap((client) => [
    ...client.liveIds().map((id) => async () => {
      const res = await client.call("final-read", "GET", `/jobs/${id}`);
      if (client.expectStatus("final-read", res, 200)) client.expectJob("final-read", res.body, client.jobs.get(id));
    }),
    ...[...client.deleted].map((id) => async () => {
      client.expectStatus("final-read-deleted", await client.call("final-read", "GET", `/jobs/${id}`), 404);
    }),
  ]);
  let next = 0;
  const worker = async () => {
    while (next < checks.length) await checks[next++]();
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return checks.length;
}

function checkDatabase(dir, clients) {
  const rows = queryShards(dir, "SELECT id, employer_id, reference_id, title, status, confidential, close_date, salary_amount FROM jobs");
  const expected = new Map();
  for (const client of clients) for (const [id, job] of client.jobs) expected.set(id, { job, employerId: client.employer.employerId });
  const found = new Set();
  for (const row of rows) {
    found.add(row.id);
    const want = expected.get(row.id);
    if (!want) {
      anomaly(`database: job ${row.id} exists but no client kept it (ghost write or lost delete)`);
      continue;
    }
    const actual = {
      employerId: row.employer_id,
      referenceId: row.reference_id,
      title: row.title,
      status: row.status,
      confidential: Boolean(row.confidential),
      closeDate: new Date(row.close_date * 1000).toISOString().replace(".000Z", "Z"),
      salaryAmount: row.salary_amount === null ? null : row.salary_amount / 10_000,
    };
    const target = { employerId: want.employerId, ...want.job };
    for (const key of Object.keys(target)) {
      if (actual[key] !== target[key]) anomaly(`database: job ${row.id} ${key} is ${JSON.stringify(actual[key])}, expected ${JSON.stringify(target[key])}`);
    }
  }
  const lost = [...expected.keys()].filter((id) => !found.has(id));
  for (const id of lost) anomaly(`database: job ${id} was written (and not deleted) but is missing`);
  const duplicates = queryShards(
    dir,
    "SELECT employer_id, reference_id, count(*) AS n FROM jobs WHERE reference_id IS NOT NULL GROUP BY employer_id, reference_id HAVING n > 1",
  );
  for (const d of duplicates) anomaly(`database: employer ${d.employer_id} has ${d.n} jobs with referenceId ${d.reference_id}`);
  const links = {};
  for (const row of queryShards(
    dir,
    `SELECT
       (SELECT count(*) FROM job_locations WHERE job_id NOT IN (SELECT id FROM jobs)) AS orphanLocations,
       (SELECT count(*) FROM job_categories WHERE job_id NOT IN (SELECT id FROM jobs)) AS orphanCategories,
       (SELECT count(*) FROM jobs WHERE id NOT IN (SELECT job_id FROM job_locations)) AS jobsWithoutLocation,
       (SELECT count(*) FROM jobs WHERE id NOT IN (SELECT job_id FROM job_categories)) AS jobsWithoutCategory`,
  )) {
    for (const [name, n] of Object.entries(row)) links[name] = (links[name] ?? 0) + n;
  }
  for (const [name, n] of Object.entries(links)) if (n) anomaly(`database: ${n} ${name}`);
  return { rows: rows.length, expected: expected.size, lost: lost.length, duplicates: duplicates.length, ...links };
}

/**
 * One run of the hourly Cron Trigger ("0 * * * *"), as Cloudflare would start it (its board
 * stage repairs whatever the queue has not brought to the board); a failed run is an anomaly.
 */
async function runCron(api) {
  const { status, body, boardStage } = await runCronOnce(api);
  if (status !== 200) anomaly(`cron "0 * * * *": ${status} ${body} (see the wrangler log)`);
  return { status, body, boardStage };
}

// ---------------------------------------------------------------- main

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "job-api-soak-"));
  const started = Date.now();
  console.log(`Soak (${SHORT ? "short" : "full"} mode): ${SECONDS} s, ${CLIENTS} clients, ${EMPLOYERS} employers, seed ${SEED}; state in ${dir}`);
  migrateState(dir);
  const employers = await seedEmployers(dir, EMPLOYERS);
  const api = await startApi(dir, await freePort());
  let ok = false;
  try {
    console.log(`API up after ${((Date.now() - started) / 1000).toFixed(1)} s at ${api.base}; driving the workload…`);
    const clients = Array.from({ length: CLIENTS }, (_, i) => new Client(i, employers[i % EMPLOYERS], api.base));
    const workStarted = Date.now();
    await Promise.all(clients.map((c) => c.run(workStarted + SECONDS * 1000)));
    const workSeconds = (Date.now() - workStarted) / 1000;
    // The workload's own figures, before the final reads add theirs.
    const workload = { byOp: { ...stats.byOp }, byStatus: { ...stats.byStatus }, latencies: [...stats.latencies].sort((a, b) => a - b) };
    const finalReads = await checkThroughApi(clients);
    const cron = await runCron(api);
    // What the cron found wrong it hands to the board queue (DESIGN 17): give the consumer, still
    // running, up to 30 s to apply it, then check for good.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 1_000))) {
      const { missing, extra, wrongRevision, wrongTitle } = checkBoard(dir);
      if (missing + extra + wrongRevision + wrongTitle === 0) break;
    }
    await api.stop();
    const database = checkDatabase(dir, clients);
    const board = checkBoard(dir, anomaly);

    const lat = workload.latencies;
    const figures = {
      mode: SHORT ? "short" : "full",
      seed: SEED,
      clients: CLIENTS,
      employers: EMPLOYERS,
      workloadSeconds: Number(workSeconds.toFixed(1)),
      requests: lat.length,
      requestsPerSecond: Math.round(lat.length / workSeconds),
      latencyMs: { p50: percentile(lat, 50).toFixed(1), p95: percentile(lat, 95).toFixed(1), p99: percentile(lat, 99).toFixed(1), max: (lat.at(-1) ?? 0).toFixed(1) },
      operations: workload.byOp,
      statuses: workload.byStatus,
      jobsLive: clients.reduce((n, c) => n + c.jobs.size, 0),
      jobsDeleted: clients.reduce((n, c) => n + c.deleted.size, 0),
      finalReads,
      database,
      cron,
      board,
      fiveXx: stats.fiveXx,
      anomalies: anomalies.length,
      totalSeconds: Number(((Date.now() - started) / 1000).toFixed(1)),
    };
    console.log(JSON.stringify(figures, null, 2));
    const boardExact = cron.status === 200 && board.missing + board.extra + board.wrongRevision + board.wrongTitle === 0;
    ok = anomalies.length === 0 && stats.fiveXx === 0 && database.lost === 0 && database.duplicates === 0 && boardExact;
    if (!boardExact) {
      console.error(
        `BOARD MISMATCH after one cron run: ${board.missing} missing, ${board.extra} extra, ${board.wrongRevision} with another revision, ${board.wrongTitle} with another title (cron answered ${cron.status}).`,
      );
    }
    console.log(
      ok
        ? "SOAK PASSED: every acknowledged write is in the database with its values, every delete is gone, no 5xx; after one cron run the board holds exactly the active, open jobs."
        : `SOAK FAILED: ${anomalies.length} anomalies (first ${MAX_ANOMALIES_SHOWN} above).`,
    );
  } finally {
    await api.stop();
    if (ok) rmSync(dir, { recursive: true, force: true });
    else console.log(`State and wrangler log kept in ${dir}`);
  }
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
