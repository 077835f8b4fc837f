import http from "node:http";
import autocannon from "autocannon";

/**
 * Fixed concurrency for a fixed time. `next()` (optional) gives each request its own path and
 * body, e.g. a different existing job per DELETE. `onStart` (optional) is handed the run, whose
 * `stop()` ends it before `seconds`. Returns throughput, latency and every status.
 */
export async function load(origin, { host, method = "GET", path, headers = {}, body, next, connections, seconds, onStart }) {
  const request = { method, path, headers: { host, ...headers }, body };
  const run = autocannon({
    url: origin,
    connections,
    duration: seconds,
    requests: [next ? { ...request, setupRequest: (req) => ({ ...req, ...next() }) } : request],
  });
  onStart?.(run);
  const result = await run;
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
  );
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.mean },
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A connection of its own, for a request sent while another is in flight. */
export const ownConnection = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request at a time, timed in microseconds: latency without queueing behind others. */
export function send(origin, { host, method = "GET", path, headers = {}, body }, via = agent) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ hostname, port, method, path, agent: via, headers: { host, ...headers } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Latency one request at a time for several requests, sent in turn (a, b, a, b, …) so that a
 * busy moment of the machine hits all of them alike: up to `times` rounds or `maxMs`.
 */
export async function sequentialLatency(origin, requests, times, maxMs = 8_000) {
  for (let i = 0; i < 10; i++) for (const request of requests) await send(origin, request);
  const samples = requests.map(() => []);
  const statuses = requests.map(() => ({}));
  const deadline = Date.now() + maxMs;
  for (let round = 0; round < times && (round < 20 || Date.now() < deadline); round++) {
    for (const [i, request] of requests.entries()) {
      const res = await send(origin, request);
      samples[i].push(res.ms);
      statuses[i][res.status] = (statuses[i][res.status] ?? 0) + 1;
    }
  }
  return samples.map((list, i) => {
    list.sort((a, b) => a - b);
    const at = (q) => list[Math.min(list.length - 1, Math.floor(q * list.length))];
    return { samples: list.length, p50: at(0.5), p99: at(0.99), statuses: statuses[i] };
  });
}
