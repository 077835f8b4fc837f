// The capabilities around the job API, each measured against what it adds to or spares:
// - webhooks (DESIGN 13): POST and PUT for an employer with a subscribed endpoint vs one
//   without, in the same run (the outbox insert rides in the write's own batch);
// - the public board (DESIGN 14, 17; reads BOARD_DB, filled by cron "board:rebuild" after the
//   seeds): list page 1 and a `q` search, cache misses, one at a time, at ~1 000 and at the
//   largest board (measured before and after the large seeds), a cached repeat vs a miss,
//   throughput against floor (b), a radius search's too (bench/lib/board.mjs: radius vs list,
//   staleness);
// - applications (DESIGN 15): an application with a 1 MiB PDF résumé (R2 put, D1 batch).
import { load, send } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";

const API = "/api/v1.1";
let unique = 0;
const fresh = (path) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;

async function p50Of(origin, request, samples) {
  const times = [];
  const statuses = {};
  for (let i = 0; i < samples; i++) {
    const res = await send(origin, { ...request, path: request.fresh ? fresh(request.path) : request.path });
    times.push(res.ms);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))], statuses };
}

/** Board latencies, cache misses: page 1 and a q search (the term of the seeded titles). */
export async function measureBoardLatency(origin, { db, samples }) {
  const list = await p50Of(origin, { host: HOSTS.api, path: `${API}/board/jobs?pageSize=20`, fresh: true }, samples);
  const q = await p50Of(origin, { host: HOSTS.api, path: `${API}/board/jobs?q=accountant&pageSize=20`, fresh: true }, samples);
  const { n: activeJobs } = await db.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'active'").first();
  return { list, q, activeJobs };
}

/** Throughput against floor (b) for the board (misses), and a cached repeat vs a miss. */
export async function measureBoard(origin, { connections, seconds, samples, problems, step }) {
  const missing = (path) => ({ host: HOSTS.api, method: "GET", path, next: () => ({ path: fresh(path) }) });
  const floor = { host: HOSTS.floor, path: "/floor/d1" };
  const throughput = {};
  for (const [name, path] of [
    ["list", `${API}/board/jobs?pageSize=20`],
    ["q", `${API}/board/jobs?q=accountant&pageSize=20`],
    ["near", `${API}/board/jobs?near=14&radiusKm=50&pageSize=20`],
  ]) {
    const before = await load(origin, { ...floor, connections, seconds });
    const run = await load(origin, { ...missing(path), connections, seconds });
    const after = await load(origin, { ...floor, connections, seconds });
    const floorRate = (before.requestsPerSecond + after.requestsPerSecond) / 2;
    if (Object.keys(run.statuses).some((code) => code !== "200")) problems.push(`board ${name}: ${JSON.stringify(run.statuses)}`);
    throughput[name] = { requestsPerSecond: run.requestsPerSecond, floorB: floorRate, ratio: run.requestsPerSecond / floorRate };
    step(`board ${name} (misses): ${run.requestsPerSecond.toFixed(0)} req/s ÷ floor (b) ${floorRate.toFixed(0)} = ${throughput[name].ratio.toFixed(2)}`);
  }
  const path = `${API}/board/jobs?pageSize=20&t=cached`;
  await send(origin, { host: HOSTS.api, path });
  const cached = await p50Of(origin, { host: HOSTS.api, path }, samples);
  const miss = await p50Of(origin, { host: HOSTS.api, path: `${API}/board/jobs?pageSize=20`, fresh: true }, samples);
  step(`board cached repeat p50 ${cached.p50.toFixed(2)} ms vs miss ${miss.p50.toFixed(2)} ms`);
  return { throughput, cached, miss };
}

/** POST and PUT throughput for an employer whose events are recorded vs one without endpoints. */
export async function measureWebhookOverhead(origin, { db, createEmployer, jobBody, connections, seconds, problems, step }) {
  const quiet = await createEmployer("Bench Quiet Ltd.");
  const listened = await createEmployer("Bench Listened Ltd.");
  // An endpoint row as the API stores it; nothing delivers in the benchmark (no consumer), so
  // the secret is never decrypted.
  await db
    .prepare("INSERT INTO webhook_endpoints (employer_id, url, events, enabled, secret, created_at) VALUES (?, 'https://receiver.example/hooks', '[]', 1, 'unused.unused', ?)")
    .bind(listened.employerId, Date.now())
    .run();
  const post = (employer) => ({
    host: HOSTS.api,
    method: "POST",
    path: `${API}/jobs`,
    headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" },
    body: JSON.stringify(jobBody),
  });
  const runs = {};
  for (const [name, employer] of [["none", quiet], ["subscribed", listened], ["none again", quiet]]) {
    const run = await load(origin, { ...post(employer), connections, seconds });
    if (Object.keys(run.statuses).some((code) => code !== "201")) problems.push(`POST (${name}): ${JSON.stringify(run.statuses)}`);
    runs[name] = run.requestsPerSecond;
  }
  const none = (runs.none + runs["none again"]) / 2;
  const events = await db.prepare("SELECT count(*) AS n FROM events WHERE employer_id = ?").bind(listened.employerId).first();
  const outcome = { noneRequestsPerSecond: none, subscribedRequestsPerSecond: runs.subscribed, ratio: runs.subscribed / none, eventsRecorded: events.n };
  step(`POST with a subscribed endpoint: ${outcome.subscribedRequestsPerSecond.toFixed(0)} req/s vs none ${none.toFixed(0)} = ${outcome.ratio.toFixed(2)} (${events.n} events recorded)`);
  return outcome;
}

/** One application with a 1 MiB PDF résumé, one at a time. */
export async function measureApply(origin, { db, createEmployer, samples, problems, step }) {
  const employer = await createEmployer("Bench Hiring Ltd.");
  const res = await send(origin, {
    host: HOSTS.api,
    method: "POST",
    path: `${API}/jobs`,
    headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" },
    body: JSON.stringify({
      title: "Bench applications", status: "active", locations: [{ description: "Toronto, ON" }], categories: [{ id: 1 }],
      applicantRoutingType: { id: 1 }, applicationEmail: "hr@bench.example",
    }),
  });
  const jobId = JSON.parse(res.body).id;
  const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(1024 * 1024 - 9, 0x41)]);
  const boundary = "----bench";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench Applicant\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\napplicant@bench.example\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="resume"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const times = [];
  for (let i = 0; i < samples; i++) {
    const answer = await send(origin, {
      host: HOSTS.api,
      method: "POST",
      path: `${API}/board/jobs/${jobId}/applications`,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "CF-Connecting-IP": `198.51.100.${i % 250}` },
      body,
    });
    if (answer.status !== 201) problems.push(`apply: ${answer.status} ${answer.body.slice(0, 200)}`);
    times.push(answer.ms);
  }
  times.sort((a, b) => a - b);
  const outcome = { samples, p50: times[Math.floor(times.length / 2)], max: times.at(-1), bytes: body.length };
  step(`apply with a 1 MiB PDF: p50 ${outcome.p50.toFixed(1)} ms, worst ${outcome.max.toFixed(1)} ms over ${samples}`);
  return outcome;
}

/**
 * DESIGN 20: screening answers and the pipeline, through the probe (which counts D1 round trips):
 * an application with 20 answers against one with none, to the same job; a status move
 * (one read and one atomic batch). One at a time, each pair in turn.
 */
export async function measureScreening(origin, { createEmployer, samples, problems, step }) {
  const employer = await createEmployer("Bench Screening Ltd.");
  const questions = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0
      ? { key: `q${i}`, text: `Question ${i}: are you available?`, type: "yesNo", knockout: false }
      : { key: `q${i}`, text: `Question ${i}: which shift?`, type: "multiChoice", options: ["Day", "Evening", "Night"] },
  );
  const answers = Object.fromEntries(questions.map((q) => [q.key, q.type === "yesNo" ? true : ["Day", "Night"]]));
  const created = await send(origin, {
    host: HOSTS.api,
    method: "POST",
    path: `${API}/jobs`,
    headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" },
    body: JSON.stringify({
      title: "Bench screening", status: "active", locations: [{ description: "Toronto, ON" }], categories: [{ id: 1 }],
      applicantRoutingType: { id: 1 }, applicationEmail: "hr@bench.example", questions,
    }),
  });
  if (created.status !== 201) problems.push(`screening job: ${created.status} ${created.body.slice(0, 300)}`);
  const jobId = JSON.parse(created.body).id;
  let address = 0;
  const apply = (withAnswers) =>
    send(origin, {
      host: HOSTS.probe,
      method: "POST",
      path: `${API}/board/jobs/${jobId}/applications`,
      // The limit is per address (10 a minute): every application comes from its own.
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": `198.18.${Math.floor(++address / 250)}.${address % 250}` },
      body: JSON.stringify({ name: "Bench Applicant", email: "applicant@bench.example", ...(withAnswers ? { answers } : {}) }),
    });
  const runs = { none: { trips: new Set(), times: [] }, twenty: { trips: new Set(), times: [] } };
  const applications = [];
  for (let i = 0; i < samples + 2; i++) {
    for (const [name, withAnswers] of i % 2 === 0 ? [["none", false], ["twenty", true]] : [["twenty", true], ["none", false]]) {
      const res = await apply(withAnswers);
      if (res.status !== 201) problems.push(`apply (${name} answers): ${res.status} ${res.body.slice(0, 300)}`);
      else applications.push(JSON.parse(res.body).id);
      // The first two of each warm the isolate (its reference data and gazetteer).
      if (i < 2) continue;
      runs[name].trips.add(Number(res.headers["x-bench-d1-trips"]));
      runs[name].times.push(res.ms);
    }
  }
  const moveTimes = [];
  const moveTrips = new Set();
  for (const [i, id] of applications.slice(0, samples + 2).entries()) {
    const res = await send(origin, {
      host: HOSTS.probe,
      method: "PUT",
      path: `${API}/applications/${id}`,
      headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "reviewing", note: "Bench move" }),
    });
    if (res.status !== 200) problems.push(`move application: ${res.status} ${res.body.slice(0, 300)}`);
    if (i < 2) continue;
    moveTrips.add(Number(res.headers["x-bench-d1-trips"]));
    moveTimes.push(res.ms);
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const outcome = {
    samples,
    apply: {
      none: { trips: [...runs.none.trips], p50: median(runs.none.times) },
      twenty: { trips: [...runs.twenty.trips], p50: median(runs.twenty.times) },
    },
    move: { trips: [...moveTrips], p50: median(moveTimes) },
  };
  step(
    `screening: apply with 20 answers ${outcome.apply.twenty.trips.join("/")} round trip(s), p50 ${outcome.apply.twenty.p50.toFixed(2)} ms; ` +
      `with none ${outcome.apply.none.trips.join("/")}, p50 ${outcome.apply.none.p50.toFixed(2)} ms; a move ${outcome.move.trips.join("/")} round trip(s), p50 ${outcome.move.p50.toFixed(2)} ms`,
  );
  return outcome;
}

/**
 * DESIGN 18 (issue 25): the board's web pages against the board API request each renders, cache
 * misses, in slices ordered ABBA so drift hits both alike: a job page against `GET
 * /board/jobs/{id}`, the search page with `q` against the list with the same `q`.
 */
export async function measurePages(origin, { jobId, connections, seconds, rounds, problems, step }) {
  const miss = (path) => ({ host: HOSTS.api, method: "GET", path, next: () => ({ path: fresh(path) }) });
  const pairs = {
    job: { page: `/jobs/${jobId}`, api: `${API}/board/jobs/${jobId}` },
    search: { page: "/?q=accountant", api: `${API}/board/jobs?q=accountant&pageSize=20` },
  };
  // The job page's canonical address (a bare id is a 301).
  const first = await send(origin, { host: HOSTS.api, path: pairs.job.page });
  if (first.status === 301) pairs.job.page = new URL(first.headers.location).pathname;
  const outcome = {};
  for (const [name, pair] of Object.entries(pairs)) {
    const rates = { page: [], api: [] };
    for (let i = 0; i < rounds; i++) {
      for (const side of i % 2 === 0 ? ["page", "api"] : ["api", "page"]) {
        const run = await load(origin, { ...miss(pair[side]), connections, seconds });
        if (Object.keys(run.statuses).some((code) => code !== "200")) problems.push(`pages ${name} (${side}): ${JSON.stringify(run.statuses)}`);
        rates[side].push(run.requestsPerSecond);
      }
    }
    const mean = (list) => list.reduce((sum, x) => sum + x, 0) / list.length;
    outcome[name] = { page: mean(rates.page), api: mean(rates.api), ratio: mean(rates.page) / mean(rates.api), path: pair.page };
    step(`pages ${name} (misses): ${outcome[name].page.toFixed(0)} req/s ÷ board API ${outcome[name].api.toFixed(0)} = ${outcome[name].ratio.toFixed(2)}`);
  }
  return outcome;
}

/**
 * DESIGN 21: what counting views costs a board read. `GET /board/jobs/{id}` against the same API
 * without view counting (bench/lib/build.mjs), in alternating slices, for cache hits (one address,
 * a popular job) and cache misses (a new address each time).
 */
export async function measureViewCounting(origin, { jobId, connections, seconds, rounds, problems, step }) {
  const path = `${API}/board/jobs/${jobId}`;
  const outcome = {};
  for (const [name, next] of [
    ["hits", undefined],
    ["misses", () => ({ path: fresh(path) })],
  ]) {
    const rates = { counted: [], uncounted: [] };
    for (let i = 0; i < rounds; i++) {
      for (const side of i % 2 === 0 ? ["counted", "uncounted"] : ["uncounted", "counted"]) {
        const host = side === "counted" ? HOSTS.api : HOSTS.noViews;
        const run = await load(origin, { host, method: "GET", path, next, connections, seconds });
        if (Object.keys(run.statuses).some((code) => code !== "200")) problems.push(`view counting ${name} (${side}): ${JSON.stringify(run.statuses)}`);
        rates[side].push(run.requestsPerSecond);
      }
    }
    const mean = (list) => list.reduce((sum, x) => sum + x, 0) / list.length;
    outcome[name] = { counted: mean(rates.counted), uncounted: mean(rates.uncounted), ratio: mean(rates.counted) / mean(rates.uncounted) };
    step(`board read with view counting (${name}): ${outcome[name].counted.toFixed(0)} req/s ÷ without ${outcome[name].uncounted.toFixed(0)} = ${outcome[name].ratio.toFixed(3)}`);
  }
  return outcome;
}
