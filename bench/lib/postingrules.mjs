import { load, send } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mean = (list) => list.reduce((sum, x) => sum + x, 0) / list.length;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/**
 * DESIGN 19: what checking the posting rules costs a write. The same POST and PUT go to the API
 * and to the same API without rules (bench/lib/build.mjs):
 * - throughput under load, in alternating slices ordered ABBA, BAAB, … so that drift over the
 *   run hits both alike, each slice followed by a pause in which the board's consumer (which
 *   shares workerd with both) takes the slice's events;
 * - latency one request at a time, with and without in turn, whose medians are steadier than
 *   throughput on a small machine.
 */
export async function measurePostingRulesCost(origin, { ops, connections, seconds, rounds, samples, problems, step }) {
  const outcome = {};
  for (const name of ["post", "putPartial"]) {
    const op = ops[name];
    const request = (host) => ({ host, method: op.method, path: op.path, headers: op.headers, body: op.body, next: op.next });
    const checked = (variant, res) => {
      if (Object.keys(res.statuses).some((code) => Number(code) !== op.expect) || res.errors || res.timeouts) {
        problems.push(`${name} (posting rules ${variant}): ${JSON.stringify({ statuses: res.statuses, errors: res.errors, timeouts: res.timeouts })}`);
      }
      return res;
    };
    const hostOf = (variant) => (variant === "with" ? HOSTS.api : HOSTS.noRules);
    for (const variant of ["with", "without"]) await load(origin, { ...request(hostOf(variant)), connections, seconds: 1 });
    await pause(1000);

    const slices = { with: [], without: [] };
    for (let i = 0; i < rounds; i++) {
      for (const variant of i % 2 === 0 ? ["with", "without"] : ["without", "with"]) {
        slices[variant].push(checked(variant, await load(origin, { ...request(hostOf(variant)), connections, seconds })).requestsPerSecond);
        await pause(1000);
      }
    }

    const latencies = { with: [], without: [] };
    for (let i = 0; i < samples; i++) {
      for (const variant of i % 2 === 0 ? ["with", "without"] : ["without", "with"]) {
        const extra = op.next ? op.next() : {};
        const res = await send(origin, { host: hostOf(variant), method: op.method, headers: op.headers, path: extra.path ?? op.path, body: extra.body ?? op.body });
        if (res.status !== op.expect) problems.push(`${name} (posting rules ${variant}, one at a time): ${res.status} ${res.body.slice(0, 200)}`);
        latencies[variant].push(res.ms);
      }
    }

    outcome[name] = {
      withRules: mean(slices.with),
      withoutRules: mean(slices.without),
      ratio: mean(slices.with) / mean(slices.without),
      pairRatios: slices.with.map((rps, i) => rps / slices.without[i]),
      slices,
      sequential: { withP50: median(latencies.with), withoutP50: median(latencies.without), samples },
    };
    const { sequential } = outcome[name];
    step(
      `${name} with posting rules ${outcome[name].withRules.toFixed(0)} req/s ÷ without ${outcome[name].withoutRules.toFixed(0)} = ${outcome[name].ratio.toFixed(3)} ` +
        `(pairs ${outcome[name].pairRatios.map((r) => r.toFixed(2)).join(", ")}); one at a time p50 ${sequential.withP50.toFixed(2)} vs ${sequential.withoutP50.toFixed(2)} ms`,
    );
  }
  return outcome;
}
