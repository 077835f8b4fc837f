// Batch sync (issue 14) against the single requests it replaces, in the same run: the same
// work — upserts by referenceId, half creating a job and half updating one, 2 KB descriptions
// — sent as `POST /jobs/batch` of 100 entries and as 100 `PUT /jobs`, each under the same
// fixed concurrency. Reported as jobs stored per second.
import { load, send } from "./load.mjs";
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

export async function measureBatchSync({ origin, db, kv, connections, seconds, seeded, problems, step }) {
  const description = descriptionOf(2_000);
  const setup = async (name) => {
    const employer = await createEmployer(db, kv, name);
    const prefix = `B${employer.employerId}-`;
    await seedJobs(db, employer.employerId, seeded, { prefix, status: "active", description });
    return { ...employer, prefix, seeded };
  };
  const batchEmployer = await setup("Bench Batch Ltd.");
  const singleEmployer = await setup("Bench Single Ltd.");
  const json = (employer) => ({ "API-Key": employer.apiKey, "Content-Type": "application/json" });

  const nextBatchEntry = entries(batchEmployer, description, "LOAD");
  const batchRequest = {
    host: HOSTS.api,
    method: "POST",
    path: `${API}/jobs/batch`,
    headers: json(batchEmployer),
    next: () => ({ body: JSON.stringify({ upsert: Array.from({ length: ENTRIES }, nextBatchEntry) }) }),
  };
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

  await load(origin, { ...batchRequest, connections, seconds: 1 });
  const batch = await load(origin, { ...batchRequest, connections, seconds });
  await load(origin, { ...singleRequest, connections, seconds: 1 });
  const single = await load(origin, { ...singleRequest, connections, seconds });
  for (const [name, result, expected] of [["batch", batch, "200"], ["single PUT", single, null]]) {
    const bad = Object.keys(result.statuses).filter((code) => (expected ? code !== expected : code !== "200" && code !== "201"));
    if (bad.length || result.errors || result.timeouts) problems.push(`${name}: ${JSON.stringify(result.statuses)} errors ${result.errors}`);
  }
  const outcome = {
    entriesPerBatch: ENTRIES,
    connections,
    batch: { requestsPerSecond: batch.requestsPerSecond, jobsPerSecond: batch.requestsPerSecond * ENTRIES, latencyMs: batch.latencyMs },
    single: { requestsPerSecond: single.requestsPerSecond, jobsPerSecond: single.requestsPerSecond, latencyMs: single.latencyMs },
    trips,
  };
  outcome.ratio = outcome.batch.jobsPerSecond / outcome.single.jobsPerSecond;
  step(
    `batch sync: ${outcome.batch.jobsPerSecond.toFixed(0)} jobs/s in batches of ${ENTRIES} vs ${outcome.single.jobsPerSecond.toFixed(0)} jobs/s by PUT = ${outcome.ratio.toFixed(1)}×; round trips at 1/10/100 entries: ${trips[1]}/${trips[10]}/${trips[100]}`,
  );
  return outcome;
}
