import { load } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";

/**
 * DESIGN 19: what checking the posting rules costs a write. The same POST and PUT go to the API
 * and to the same API without rules (bench/lib/build.mjs), in alternating slices ordered
 * ABBA, BAAB, … so that drift over the run hits both alike; the ratio is with ÷ without.
 */
export async function measurePostingRulesCost(origin, { ops, connections, seconds, rounds, problems, step }) {
  const outcome = {};
  for (const name of ["post", "putPartial"]) {
    const op = ops[name];
    const request = (host) => ({ host, method: op.method, path: op.path, headers: op.headers, body: op.body, next: op.next });
    const slices = { with: [], without: [] };
    for (const host of [HOSTS.api, HOSTS.noRules]) await load(origin, { ...request(host), connections, seconds: 1 });
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? ["with", "without"] : ["without", "with"];
      for (const variant of order) {
        const run = await load(origin, { ...request(variant === "with" ? HOSTS.api : HOSTS.noRules), connections, seconds });
        if (Object.keys(run.statuses).some((code) => Number(code) !== op.expect) || run.errors || run.timeouts) {
          problems.push(`${name} (posting rules ${variant}): ${JSON.stringify({ statuses: run.statuses, errors: run.errors, timeouts: run.timeouts })}`);
        }
        slices[variant].push(run.requestsPerSecond);
      }
    }
    const mean = (list) => list.reduce((sum, x) => sum + x, 0) / list.length;
    const pairRatios = slices.with.map((rps, i) => rps / slices.without[i]);
    outcome[name] = {
      withRules: mean(slices.with),
      withoutRules: mean(slices.without),
      ratio: mean(slices.with) / mean(slices.without),
      pairRatios,
      slices,
    };
    step(
      `${name} with posting rules ${outcome[name].withRules.toFixed(0)} req/s ÷ without ${outcome[name].withoutRules.toFixed(0)} = ${outcome[name].ratio.toFixed(3)} ` +
        `(pairs ${pairRatios.map((r) => r.toFixed(2)).join(", ")})`,
    );
  }
  return outcome;
}
