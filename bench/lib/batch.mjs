// Batch sync (DESIGN 12) against the single requests it replaces, in the same run: the same
// work — upserts by referenceId, half creating a job and half updating one, 2 KB descriptions
// — sent by one client, one request at a time, as `POST /jobs/batch` of 100 entries and as
// 100 `PUT /jobs`. Reported as jobs stored per second, and against the passes per second of the
// probe's bare rewriter pass (one no-op handler per element and per text chunk, workerd CPU per
// call) over the same description. Then a nightly full sync: 100 jobs sent again
// unchanged, by batch and by single PUTs.
//
// Alone: `npm run bench -- --only batch` (bench/lib/rows.mjs).
import { childCpuMs } from "./cpu.mjs";
import { perCall } from "./description.mjs";
import { send } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";
import { createEmployer, descriptionOf, seedJobs } from "./seed.mjs";

const API = "/api/v1.1";
const ENTRIES = 100;

function jobOf(referenceId, description) {
  return {
    referenceId,
    title: "Payroll Specialist (batch bench)",
    status: "active",
    locations: [{ description: "Toronto, ON" }],
    categories: [{ id: 1 }],
    positionType: { id: 1 },
    salary: { amount: 61000, type: { id: 1 } },
    description,
    applicantRoutingType: { id: 2 },
    applicationUrl: "https://careers.example.com/apply",
  };
}

/**
 * An endless source of entries: every other one updates a seeded job (seedJobs names them
 * prefix + 000001…), the rest create new ones. Each source has its own prefix for new jobs.
 */
function entries(employer, description, source) {
  let created = 0;
  let updated = 0;
  let flip = false;
  return () => {
    flip = !flip;
    if (flip) return jobOf(`${employer.prefix}${String(1 + (updated++ % employer.seeded)).padStart(6, "0")}`, description);
    return jobOf(`${employer.prefix}${source}-${created++}`, description);
  };
}

/** The description as the API stores it: the cleaner's output, read back from one job. */
async function cleanedByApi(origin, employer, raw) {
  const res = await send(origin, {
    host: HOSTS.api,
    method: "PUT",
    path: `${API}/jobs`,
    headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" },
    body: JSON.stringify(jobOf(`CLEANED-${employer.employerId}`, raw)),
  });
  return JSON.parse(res.body).description;
}

/** An employer with `seeded` active jobs stored as the API stores `description`: its cleaning and the input's digest. */
async function seededEmployer({ origin, db, kv, seeded, name, description }) {
  const employer = await createEmployer(db, kv, name);
  const prefix = `B${employer.employerId}-`;
  const cleaned = await cleanedByApi(origin, employer, description);
  await seedJobs(db, employer.employerId, seeded, { prefix, status: "active", description: cleaned, sentAs: description });
  return { ...employer, prefix, seeded };
}

/**
 * The bench's batch against an employer of its own with `seeded` jobs: a request of 100 upserts
 * of the mix (half updates of those jobs, half new ones). bench/profile.mjs profiles it too.
 */
export async function batchSyncSetup({ origin, db, kv, seeded }) {
  const description = descriptionOf(2_000);
  const employer = await seededEmployer({ origin, db, kv, seeded, name: "Bench Batch Ltd.", description });
  const nextEntry = entries(employer, description, "LOAD");
  const request = {
    host: HOSTS.api,
    method: "POST",
    path: `${API}/jobs/batch`,
    headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" },
    expect: 200,
    next: () => ({ body: JSON.stringify({ upsert: Array.from({ length: ENTRIES }, nextEntry) }) }),
  };
  return { employer, description, request };
}

export async function measureBatchSync({ origin, db, kv, rounds, seeded, problems, step }) {
  const { employer: batchEmployer, description, request: batchRequest } = await batchSyncSetup({ origin, db, kv, seeded });
  const singleEmployer = await seededEmployer({ origin, db, kv, seeded, name: "Bench Single Ltd.", description });
  const json = (employer) => ({ "API-Key": employer.apiKey, "Content-Type": "application/json" });

  const nextSingle = entries(singleEmployer, description, "LOAD");
  const singleRequest = {
    host: HOSTS.api,
    method: "PUT",
    path: `${API}/jobs`,
    headers: json(singleEmployer),
    next: () => ({ body: JSON.stringify(nextSingle()) }),
  };

  // Round trips of one batch at 1, 10 and 100 entries, through the counting probe.
  const trips = {};
  const probeEntries = entries(batchEmployer, description, "PROBE");
  for (const size of [1, 10, 100]) {
    const res = await send(origin, {
      host: HOSTS.probe,
      method: "POST",
      path: `${API}/jobs/batch`,
      headers: json(batchEmployer),
      body: JSON.stringify({ upsert: Array.from({ length: size }, probeEntries) }),
    });
    if (res.status !== 200) problems.push(`batch ${size}: ${res.status} ${res.body.slice(0, 200)}`);
    trips[size] = Number(res.headers["x-bench-d1-trips"]);
  }

  // One client syncing, one request at a time: a 100-entry batch against 100 single PUTs. Wall
  // time per request, and workerd's CPU time per request (/proc, null elsewhere): on a shared
  // machine the CPU moves far less with other work than the wall time does. The CPU is read
  // after a pause on both sides, so that the work each request leaves for after its answer (the
  // events' hand-over, the board's consumer) is counted with it.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 2_000));
  const cpuOf = {};
  const timed = async (request, times, label) => {
    const ms = [];
    if (label) await settle();
    const cpuBefore = childCpuMs();
    for (let i = 0; i < times; i++) {
      const res = await send(origin, { ...request, ...request.next() });
      if (res.status !== 200 && res.status !== 201) problems.push(`${request.method} ${request.path}: ${res.status} ${res.body.slice(0, 200)}`);
      ms.push(res.ms);
    }
    if (label) {
      await settle();
      cpuOf[label] = cpuBefore === null ? null : (childCpuMs() - cpuBefore) / times;
    }
    return ms.reduce((a, b) => a + b, 0) / ms.length;
  };
  await timed(batchRequest, 1);
  const batchMs = await timed(batchRequest, rounds, "batch");
  await timed(singleRequest, 5);
  const singleMs = await timed(singleRequest, ENTRIES * rounds, "single");
  // The probe's bare rewriter pass over the same description, workerd CPU per call.
  const bare = (await perCall(origin, description, ["floor"], { times: 300, rounds: 3 }, problems)).floor;

  // A nightly full sync: the first 100 jobs each side updated above, sent again as they are.
  const unchanged = (employer) => Array.from({ length: ENTRIES }, (_, i) => jobOf(`${employer.prefix}${String(i + 1).padStart(6, "0")}`, description));
  const resendBatch = { ...batchRequest, next: () => ({ body: JSON.stringify({ upsert: unchanged(batchEmployer) }) }) };
  const resendBodies = unchanged(singleEmployer).map((body) => JSON.stringify(body));
  let resent = 0;
  const resendSingle = { ...singleRequest, next: () => ({ body: resendBodies[resent++ % ENTRIES] }) };
  await timed(resendBatch, 1);
  const resendBatchMs = await timed(resendBatch, rounds);
  await timed(resendSingle, ENTRIES);
  const resendSingleMs = await timed(resendSingle, ENTRIES * rounds);

  const outcome = {
    entriesPerBatch: ENTRIES,
    batch: { msPerRequest: batchMs, jobsPerSecond: (ENTRIES * 1000) / batchMs },
    single: { msPerRequest: singleMs, jobsPerSecond: 1000 / singleMs },
    bare: { msPerCall: bare.msPerCall, jobsPerSecond: 1000 / bare.msPerCall },
    resend: {
      batch: { msPerRequest: resendBatchMs, jobsPerSecond: (ENTRIES * 1000) / resendBatchMs },
      single: { msPerRequest: resendSingleMs, jobsPerSecond: 1000 / resendSingleMs },
    },
    trips,
  };
  outcome.batch.cpuMsPerRequest = cpuOf.batch;
  outcome.single.cpuMsPerRequest = cpuOf.single;
  // Jobs per CPU second by batch ÷ by single PUTs.
  outcome.cpuRatio = cpuOf.batch && cpuOf.single ? (ENTRIES * cpuOf.single) / cpuOf.batch : null;
  outcome.ratio = outcome.batch.jobsPerSecond / outcome.single.jobsPerSecond;
  outcome.bareRatio = outcome.batch.jobsPerSecond / outcome.bare.jobsPerSecond;
  outcome.resend.ratio = outcome.resend.batch.jobsPerSecond / outcome.resend.single.jobsPerSecond;
  step(
    `batch sync: ${outcome.batch.jobsPerSecond.toFixed(0)} jobs/s in batches of ${ENTRIES} vs ${outcome.single.jobsPerSecond.toFixed(0)} jobs/s by PUT = ${outcome.ratio.toFixed(1)}×; ` +
      `${outcome.bareRatio.toFixed(2)}× a bare rewriter pass over the description (${outcome.bare.msPerCall.toFixed(2)} ms); round trips at 1/10/100 entries: ${trips[1]}/${trips[10]}/${trips[100]}; ` +
      `workerd CPU ${cpuOf.batch?.toFixed(0)} ms per batch vs ${cpuOf.single?.toFixed(1)} ms per PUT = ${outcome.cpuRatio?.toFixed(1)}× jobs per CPU second`,
  );
  step(
    `resend of ${ENTRIES} unchanged jobs: ${outcome.resend.batch.jobsPerSecond.toFixed(0)} jobs/s by batch vs ${outcome.resend.single.jobsPerSecond.toFixed(0)} jobs/s by PUT = ${outcome.resend.ratio.toFixed(1)}×`,
  );
  return outcome;
}

/**
 * DESIGN 21: reconcile of 10 000 referenceIds against 10 000 active jobs (all listed, so every
 * request does the whole comparison and changes nothing), against one batch of 100 upserts of
 * the bench's mix, one request at a time in turn; and its D1 round trips through the probe.
 */
export async function measureReconcile({ origin, db, kv, samples, problems, step }) {
  const COUNT = 10_000;
  const description = descriptionOf(2_000);
  const setup = async (name, count) => {
    const employer = await createEmployer(db, kv, name);
    const prefix = `R${employer.employerId}-`;
    await seedJobs(db, employer.employerId, count, { prefix, status: "active", description });
    return { ...employer, prefix, seeded: count, headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" } };
  };
  const reconciler = await setup("Bench Reconcile Ltd.", COUNT);
  const syncer = await setup("Bench Reconcile Batch Ltd.", 1_000);
  const referenceIds = Array.from({ length: COUNT }, (_, i) => `${reconciler.prefix}${String(i + 1).padStart(6, "0")}`);
  const reconcile = { method: "POST", path: `${API}/jobs/reconcile`, headers: reconciler.headers, body: JSON.stringify({ referenceIds }) };
  const nextEntry = entries(syncer, description, "RECONCILE");
  const batch = () => ({ method: "POST", path: `${API}/jobs/batch`, headers: syncer.headers, body: JSON.stringify({ upsert: Array.from({ length: ENTRIES }, nextEntry) }) });

  const probed = await send(origin, { host: HOSTS.probe, ...reconcile });
  if (probed.status !== 200 || JSON.parse(probed.body).count !== 0) problems.push(`reconcile: ${probed.status} ${probed.body.slice(0, 200)}`);
  const trips = Number(probed.headers["x-bench-d1-trips"]);
  const latencies = { reconcile: [], batch: [] };
  for (let i = 0; i < samples; i++) {
    for (const side of i % 2 === 0 ? ["reconcile", "batch"] : ["batch", "reconcile"]) {
      const res = await send(origin, { host: HOSTS.api, ...(side === "reconcile" ? reconcile : batch()) });
      if (res.status !== 200) problems.push(`reconcile bench (${side}): ${res.status} ${res.body.slice(0, 200)}`);
      latencies[side].push(res.ms);
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const outcome = { referenceIds: COUNT, activeJobs: COUNT, trips, reconcileP50: median(latencies.reconcile), batchP50: median(latencies.batch), samples };
  outcome.ratio = outcome.reconcileP50 / outcome.batchP50;
  step(`reconcile of ${COUNT} referenceIds against ${COUNT} active jobs: ${trips} round trip(s), p50 ${outcome.reconcileP50.toFixed(1)} ms ÷ a batch of ${ENTRIES} upserts ${outcome.batchP50.toFixed(1)} ms = ${outcome.ratio.toFixed(2)} ×`);
  return outcome;
}
