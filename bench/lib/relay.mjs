import { HOSTS } from "./runtime.mjs";
import { newJobBody } from "./operations.mjs";
import { descriptionOf } from "./seed.mjs";
import { ownConnection, send } from "./load.mjs";

// DESIGN 22: event hand-over, from a write's answer to the moment its shard's relay has handed
// its events to the subscribers' queues (the relay moves its cursor right after the sendBatch).

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes at `perSecond` until `stop()`: DELETEs (or `method` with `body`) of the jobs `first` …
 * `last` of the employer of `apiKey`, each recording its event like any write (a DELETE by
 * default, because this machine serves three times 80 of them a second, so the rate holds);
 * counts their statuses. `cycle`: after `last`, `first` again (writes a job takes more than once).
 */
export function pacedWrites(origin, { apiKey, first, last, perSecond, method = "DELETE", body, cycle = false }) {
  const statuses = {};
  const headers = { "API-Key": apiKey, ...(body && { "Content-Type": "application/json" }) };
  const pending = new Set();
  let next = first;
  const timer = setInterval(() => {
    for (let i = 0; i < perSecond / 10 && next <= last; i++) {
      const write = send(origin, { host: HOSTS.api, method, path: `/api/v1.1/jobs/${next++}`, headers, body })
        .then((res) => void (statuses[res.status] = (statuses[res.status] ?? 0) + 1))
        .catch(() => void (statuses.error = (statuses.error ?? 0) + 1))
        .finally(() => pending.delete(write));
      pending.add(write);
      if (cycle && next > last) next = first;
    }
    if (next > last) statuses.poolExhausted = true;
  }, 100);
  return {
    statuses,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

/**
 * `samples` writes one at a time by `writer` (an employer of shard 0): for each, the time from
 * its answer until the relay of shard 0 reports a cursor at or past its last event. `load`
 * (optional): `{ apiKey, first, last, perSecond }`, other writes running meanwhile.
 */
export async function measureHandOver(origin, db, { writer, samples, load }) {
  let background = null;
  const probe = ownConnection();
  const body = JSON.stringify(newJobBody(descriptionOf(500)));
  const latencies = [];
  const problems = [];
  try {
    // From a relay with nothing waiting (the cron's row leaves it 100 000 events to hand over).
    const { newest } = await db.prepare("SELECT coalesce(max(seq), 0) AS newest FROM events").first();
    while (JSON.parse((await send(origin, { host: HOSTS.probe, path: "/__probe/relay?shard=0" }, probe)).body).cursor < newest) await pause(100);
    if (load) {
      background = pacedWrites(origin, load);
      await pause(1_000);
    }
    for (let i = 0; i < samples; i++) {
      const res = await send(origin, { host: HOSTS.api, method: "POST", path: "/api/v1.1/jobs", headers: { "API-Key": writer.apiKey, "Content-Type": "application/json" }, body });
      const answeredAt = performance.now();
      if (res.status !== 201) {
        problems.push(`hand-over write: ${res.status} ${res.body.slice(0, 200)}`);
        continue;
      }
      const { seq } = await db.prepare("SELECT max(seq) AS seq FROM events WHERE subject_id = ?").bind(JSON.parse(res.body).id).first();
      for (;;) {
        const position = JSON.parse((await send(origin, { host: HOSTS.probe, path: "/__probe/relay?shard=0" }, probe)).body);
        if (position.cursor >= seq) break;
        if (performance.now() - answeredAt > 30_000) {
          problems.push(`hand-over: the relay did not pass event ${seq} within 30 s (cursor ${position.cursor})`);
          break;
        }
        await pause(5);
      }
      latencies.push(performance.now() - answeredAt);
    }
  } finally {
    await background?.stop();
    probe.destroy();
  }
  latencies.sort((a, b) => a - b);
  return {
    samples: latencies.length,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1),
    ...(load && { load: { perSecond: load.perSecond, statuses: background?.statuses ?? {} } }),
    problems,
  };
}
