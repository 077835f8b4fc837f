// Description cost (DESIGN 6a): the cleaner against a bare rewriter pass over the same
// input, hostile POSTs through the API against a plain-text POST of the same size, and how long
// a cheap GET waits while the heaviest of them runs.
import { childCpuMs } from "./cpu.mjs";
import { ownConnection, send } from "./load.mjs";
import { newJobBody } from "./operations.mjs";
import { CLOSED_SHAPES, HOSTILE_SHAPES, repeatTo, WORST_ACCEPTED } from "./shapes.mjs";
import { HOSTS } from "./runtime.mjs";

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * CPU milliseconds of workerd per call of each probe `mode` over `html` (wall time where /proc
 * is missing), modes interleaved (a, b, a, b, …); best of `rounds`. `times` calls in one
 * request, minus a request that only reads the body.
 */
export async function perCall(origin, html, modes, { times, rounds }, problems) {
  const timed = async (mode, n) => {
    const cpuBefore = childCpuMs();
    const res = await send(origin, { host: HOSTS.probe, method: "POST", path: `/__probe/clean?mode=${mode}&times=${n}`, body: html });
    const cpu = cpuBefore === null ? null : childCpuMs() - cpuBefore;
    if (res.status !== 200) problems.push(`clean ${mode}: ${res.status} ${res.body.slice(0, 200)}`);
    return { ms: cpu ?? res.ms, ...JSON.parse(res.status === 200 ? res.body : "{}") };
  };
  const best = Object.fromEntries(modes.map((m) => [m, { ms: Infinity }]));
  let empty = Infinity;
  for (let round = 0; round < rounds; round++) {
    empty = Math.min(empty, (await timed(modes[0], 0)).ms);
    for (const mode of modes) {
      const result = await timed(mode, times);
      if (result.ms < best[mode].ms) best[mode] = result;
    }
  }
  return Object.fromEntries(modes.map((m) => [m, { msPerCall: (best[m].ms - empty) / times, work: best[m].work, outputLength: best[m].outputLength }]));
}

/** The cleaner ÷ its floor: a 5 KB realistic description, and 1 MiB of each closed hostile shape. */
export async function measureCleanerFloor(origin, { realistic, shapeBytes, rounds }, problems, step) {
  const rows = {};
  const small = await perCall(origin, realistic, ["floor", "clean"], { times: 300, rounds }, problems);
  rows["5 KB realistic"] = { bytes: realistic.length, floorMs: small.floor.msPerCall, cleanerMs: small.clean.msPerCall, work: small.clean.work, calls: 300 };
  for (const name of CLOSED_SHAPES) {
    const html = repeatTo(HOSTILE_SHAPES[name], shapeBytes);
    const big = await perCall(origin, html, ["floor", "unbounded"], { times: 1, rounds }, problems);
    rows[name] = { bytes: html.length, floorMs: big.floor.msPerCall, cleanerMs: big.unbounded.msPerCall, work: big.unbounded.work, calls: 1 };
  }
  for (const [name, row] of Object.entries(rows)) {
    row.ratio = row.cleanerMs / row.floorMs;
    step(`cleaner ${name} (${(row.bytes / 1024).toFixed(0)} KiB): ${row.cleanerMs.toFixed(2)} ms ÷ floor ${row.floorMs.toFixed(2)} ms = ${row.ratio.toFixed(2)}`);
  }
  return rows;
}

/** `unit` repeated as often as a job body of at most `bytes` (JSON escapes included) allows. */
export function fitting(unit, bytes) {
  const around = JSON.stringify(newJobBody("")).length;
  return unit.repeat(Math.floor((bytes - around) / (JSON.stringify(unit).length - 2)));
}

/** DESIGN 6b: the largest cleaned description accepted. */
const MAX_CLEANED_BYTES = 1_000_000;

/** Hostile POSTs at each size, a plain-text POST of the same size, and the heaviest accepted ones. */
export async function measureHostilePosts(origin, employer, { sizes, repeats }, problems, step) {
  const headers = { "API-Key": employer.apiKey, "Content-Type": "application/json" };
  const postOnce = async (description) => {
    const res = await send(origin, { host: HOSTS.api, method: "POST", path: "/api/v1.1/jobs", headers, body: JSON.stringify(newJobBody(description)) });
    return res;
  };
  const timed = async (label, description, expect) => {
    const samples = [];
    let status;
    for (let i = 0; i < repeats; i++) {
      const res = await postOnce(description);
      status = res.status;
      if (!expect.includes(res.status)) problems.push(`POST ${label}: ${res.status} ${res.body.slice(0, 200)}`);
      samples.push(res.ms);
    }
    return { ms: median(samples), status, bytes: description.length };
  };
  const bySize = {};
  for (const size of sizes) {
    // Plain ASCII text cleans to itself: past 1 000 000 bytes it is refused by the cleaned-size
    // bound (DESIGN 6b), after the whole cleaning pass, so its time is still the cleaner's.
    const plain = await timed(`plain ${size}`, fitting("Plain text. ", size), [size > MAX_CLEANED_BYTES ? 400 : 201]);
    const shapes = {};
    for (const [name, unit] of Object.entries(HOSTILE_SHAPES)) {
      shapes[name] = await timed(`${name} ${size}`, fitting(unit, size), [201, 400]);
      shapes[name].ratioToPlain = shapes[name].ms / plain.ms;
    }
    bySize[size] = { plain, shapes };
    const worst = Object.entries(shapes).sort((a, b) => b[1].ms - a[1].ms)[0];
    step(`hostile POSTs at ${(size / 1024).toFixed(0)} KiB: plain ${plain.ms.toFixed(1)} ms; slowest ${worst[0]} ${worst[1].ms.toFixed(1)} ms (${worst[1].status})`);
  }
  const accepted = {};
  for (const [name, description] of Object.entries(WORST_ACCEPTED)) {
    accepted[name] = await timed(name, description, [201]);
    step(`heaviest accepted POST ${name}: ${accepted[name].ms.toFixed(1)} ms (${accepted[name].status})`);
  }
  return { bySize, accepted, sizes };
}

/**
 * The worst latency of `GET /positiontypes`, sent again and again on its own connection while
 * `description` is POSTed; `rounds` POSTs.
 */
export async function measureStall(origin, employer, label, description, rounds, problems) {
  const headers = { "API-Key": employer.apiKey, "Content-Type": "application/json" };
  const body = JSON.stringify(newJobBody(description));
  const via = ownConnection();
  let worst = 0;
  let gets = 0;
  let postMs = 0;
  for (let round = 0; round < rounds; round++) {
    let done = false;
    const post = send(origin, { host: HOSTS.api, method: "POST", path: "/api/v1.1/jobs", headers, body }).then((res) => {
      done = true;
      postMs = Math.max(postMs, res.ms);
      return res;
    });
    // Let the POST's body reach the Worker first.
    await new Promise((resolve) => setTimeout(resolve, 5));
    do {
      const res = await send(origin, { host: HOSTS.api, path: "/api/v1.1/positiontypes" }, via);
      if (res.status !== 200) problems.push(`stall GET: ${res.status}`);
      worst = Math.max(worst, res.ms);
      gets++;
    } while (!done);
    await post;
  }
  via.destroy();
  return { label, worstGetMs: worst, gets, postMs };
}
