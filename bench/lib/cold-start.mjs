// Cold start (issue 27): the first request a fresh isolate serves, against the requests after it.
// Each round starts a new workerd with the same Workers, empty state, the migrations and one
// employer with one job written straight to D1 and KV (no request reaches the API before the
// timed ones), then sends GET /jobs/{id} once cold and WARM_REQUESTS times warm. workerd loads
// and evaluates the script before it is ready, so "ready" is the script's start-up and the
// first request pays what the first request does (reference data, the key's KV read, cold code).
import { send } from "./load.mjs";
import { applyMigrations, HOSTS, startRuntime } from "./runtime.mjs";
import { createEmployer, seedJobs } from "./seed.mjs";

const WARM_REQUESTS = 20;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function measureColdStart(root, scripts, { rounds, problems, step }) {
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const runtime = await startRuntime(root, scripts);
    const readyMs = performance.now() - started;
    try {
      await applyMigrations(runtime.db, `${root}drizzle`);
      await applyMigrations(runtime.boardDb, `${root}drizzle/board`);
      const employer = await createEmployer(runtime.db, runtime.kv, "Bench Cold Start Ltd.");
      const { first } = await seedJobs(runtime.db, employer.employerId, 1);
      const request = { host: HOSTS.api, path: `/api/v1.1/jobs/${first}`, headers: { "API-Key": employer.apiKey } };
      const cold = await send(runtime.origin, request);
      const warm = [];
      for (let i = 0; i < WARM_REQUESTS; i++) warm.push((await send(runtime.origin, request)).ms);
      if (cold.status !== 200) problems.push(`cold start: ${cold.status} ${cold.body.slice(0, 200)}`);
      samples.push({ readyMs, firstMs: cold.ms, warmP50Ms: median(warm) });
    } finally {
      await runtime.mf.dispose();
    }
  }
  const outcome = {
    rounds,
    readyMs: median(samples.map((s) => s.readyMs)),
    firstMs: median(samples.map((s) => s.firstMs)),
    warmP50Ms: median(samples.map((s) => s.warmP50Ms)),
    samples,
  };
  step(`cold start: workerd ready in ${outcome.readyMs.toFixed(0)} ms; first GET /jobs/{id} ${outcome.firstMs.toFixed(1)} ms, then p50 ${outcome.warmP50Ms.toFixed(1)} ms (medians of ${rounds} fresh runtimes)`);
  return outcome;
}
