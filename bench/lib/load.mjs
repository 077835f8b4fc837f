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

/**
 * Slices under fixed concurrency, in turn: a warm-up of each, then `rounds` rounds of the floor
 * followed by the others, and the floor once more, so that each slice of an operation lies between
 * two of its floor's and a machine's drift hits both alike. Returns the floor's slices, then each
 * other's, in order. `floorWarm`: the floor's last slice was just taken (by the call before), so it
 * needs no warm-up of its own.
 */
export async function inTurn(origin, floor, others, { connections, seconds, warmupSeconds, rounds, floorWarm = false }) {
  const slice = (request, duration = seconds) => load(origin, { ...request, connections, seconds: duration });
  for (const request of floorWarm ? others : [floor, ...others]) await slice(request, warmupSeconds);
  const slices = [floor, ...others].map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, request] of [floor, ...others].entries()) slices[i].push(await slice(request));
  }
  slices[0].push(await slice(floor));
  return slices;
}

/**
 * Slices of one request as one result: requests per second averaged over the slices, the median
 * slice's p50 and the worst slice's p99 (percentiles do not add up across slices), every status;
 * `unexpected` counts the answers other than `request.expect` (and errors, timeouts), each kind
 * also named in `problems`.
 */
export function combineSlices(name, request, slices, problems) {
  const statuses = {};
  for (const s of slices) for (const [code, n] of Object.entries(s.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const p50s = slices.map((s) => s.latencyMs.p50).sort((a, b) => a - b);
  const result = {
    requests: slices.reduce((sum, s) => sum + s.requests, 0),
    requestsPerSecond: slices.reduce((sum, s) => sum + s.requestsPerSecond, 0) / slices.length,
    latencyMs: { p50: p50s[Math.floor(p50s.length / 2)], p99: Math.max(...slices.map((s) => s.latencyMs.p99)) },
    statuses,
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    timeouts: slices.reduce((sum, s) => sum + s.timeouts, 0),
    slices: slices.map((s) => s.requestsPerSecond),
  };
  const unexpected = Object.entries(result.statuses).filter(([code]) => Number(code) !== request.expect);
  if (unexpected.length || result.errors || result.timeouts) {
    problems.push(`${name}: ${JSON.stringify({ statuses: result.statuses, errors: result.errors, timeouts: result.timeouts })}`);
  }
  result.unexpected = unexpected.reduce((sum, [, n]) => sum + n, 0) + result.errors + result.timeouts;
  return result;
}
