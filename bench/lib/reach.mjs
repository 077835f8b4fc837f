// DESIGN 24's budget: a write's throughput with reach's notifier on ≥ 0.95 × without. Two fresh
// runtimes of the same API bundle, side by side and loaded in turn (off, on, off, on …, so that a
// busy moment of the machine hits both alike): "off" is the API without reach's consumer and
// settings (the relay still hands reach's queue its notices, as before reach had a consumer);
// "on" consumes the reach queue (its consumer reads the events, the notifier gathers every page)
// with both services configured and pointed at stubs this module starts in Node, so the
// notifier's alarms send for real (token, JWT, one POST per address, IndexNow's batches).
// The writes: PUTs of active jobs' closeDate (a change a search engine sees: every one is a notice).
//
// Alone: `npm run bench -- --only reach` (bench/lib/rows.mjs).
import http from "node:http";
import { generateKeyPairSync } from "node:crypto";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { load } from "./load.mjs";
import { applyMigrations, BOARD_QUEUE, builtWorkerBindings, HOSTS } from "./runtime.mjs";
import { createEmployer, descriptionOf, seedJobs } from "./seed.mjs";

const REACH_QUEUE = "job-posting-reach";
/** src/reach/notifier.ts NOTIFIER_NAME and src/reach/rules.ts GATHERING_MS. */
const NOTIFIER_NAME = "reach";
const GATHERING_MS = 60_000;
const INDEXNOW_KEY = "bench-reach-key-0001";
const WARMUP_SECONDS = 3;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The search engines, in Node: a token endpoint, the Indexing API and IndexNow, counting what they get. */
export async function startReachStubs() {
  const received = { token: 0, google: 0, indexNowRequests: 0, indexNowUrls: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (req.url === "/token") {
        received.token++;
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ access_token: `bench-${received.token}`, expires_in: 3600, token_type: "Bearer" }));
      } else if (req.url === "/publish") {
        received.google++;
        res.writeHead(200, { "Content-Type": "application/json" }).end(body);
      } else if (req.url === "/indexnow") {
        received.indexNowRequests++;
        received.indexNowUrls += JSON.parse(body).urlList.length;
        res.writeHead(200).end();
      } else res.writeHead(404).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A service account's JSON key for the bench (made now, never a real one). */
function benchServiceAccount() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
  return JSON.stringify({ type: "service_account", client_email: "bench@reach.iam.gserviceaccount.com", private_key: privateKey });
}

/** One workerd with the API alone (board consumer on, as deployed); with `stubs`, reach's consumer and settings too. */
async function startApi(root, apiScript, stubs) {
  const { workerOptions, bindings } = builtWorkerBindings(root);
  if (!workerOptions.queueConsumers?.[REACH_QUEUE]) throw new Error(`wrangler.toml [env.load] declares no consumer of ${REACH_QUEUE}`);
  const reach = stubs && {
    BASE_URL: "https://jobs.bench",
    INDEXNOW_KEY,
    INDEXNOW_ENDPOINT: `${stubs.origin}/indexnow`,
    GOOGLE_INDEXING_ENDPOINT: `${stubs.origin}/publish`,
    GOOGLE_TOKEN_ENDPOINT: `${stubs.origin}/token`,
    GOOGLE_INDEXING_SERVICE_ACCOUNT: benchServiceAccount(),
    // The day's quota is the notifier's to keep; the bench's minutes never reach the default.
    GOOGLE_INDEXING_DAILY_QUOTA: "200",
  };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      handleStructuredLogs: () => {},
      workers: [
        {
          name: "api",
          modules: true,
          scriptPath: apiScript,
          routes: [`${HOSTS.api}/*`],
          ...bindings,
          bindings: { ...bindings.bindings, ...reach },
          queueConsumers: {
            [BOARD_QUEUE]: { ...workerOptions.queueConsumers[BOARD_QUEUE], maxBatchTimeout: 1 },
            ...(stubs && { [REACH_QUEUE]: { ...workerOptions.queueConsumers[REACH_QUEUE], maxBatchTimeout: 1 } }),
          },
        },
      ],
    }),
  );
  const url = await mf.ready;
  const db = await mf.getD1Database("DB", "api");
  await applyMigrations(db, `${root}drizzle`);
  await applyMigrations(await mf.getD1Database("BOARD_DB", "api"), `${root}drizzle/board`);
  const employer = await createEmployer(db, await mf.getKVNamespace("API_KEYS", "api"), "Bench Reach Ltd.", "unlimited");
  const jobs = await seedJobs(db, employer.employerId, 2_000, { status: "active", description: descriptionOf(500) });
  return { mf, origin: url.origin, employer, jobs };
}

/** PUTs of closeDate over the runtime's active jobs, in turn, at fixed concurrency. */
function putCloseDates(runtime, { connections, seconds }) {
  let n = 0;
  const day = Date.UTC(2027, 0, 1);
  return load(runtime.origin, {
    host: HOSTS.api,
    method: "PUT",
    headers: { "API-Key": runtime.employer.apiKey, "Content-Type": "application/json" },
    connections,
    seconds,
    next: () => {
      const id = runtime.jobs.first + (n % (runtime.jobs.last - runtime.jobs.first + 1));
      const closeDate = new Date(day + (n++ % 300) * 86_400_000).toISOString().slice(0, 10);
      return { path: `/api/v1.1/jobs/${id}`, body: JSON.stringify({ closeDate }) };
    },
  });
}

export async function measureReach(root, apiScript, { connections, seconds, rounds, problems, step }) {
  const stubs = await startReachStubs();
  const [off, on] = await Promise.all([startApi(root, apiScript, null), startApi(root, apiScript, stubs)]);
  try {
    const slices = { off: [], on: [] };
    // Both warmed alike (the first seconds of a fresh runtime are its slowest).
    for (const runtime of [off, on]) await putCloseDates(runtime, { connections, seconds: WARMUP_SECONDS });
    for (let round = 0; round < rounds; round++) {
      // Each round swaps which goes first, so neither gains from the other's after-effects.
      const order = round % 2 ? [["on", on], ["off", off]] : [["off", off], ["on", on]];
      for (const [label, runtime] of order) {
        const run = await putCloseDates(runtime, { connections, seconds });
        const unexpected = Object.keys(run.statuses).filter((status) => status !== "200");
        if (unexpected.length || run.errors) problems.push(`reach ${label}: ${JSON.stringify(run.statuses)}, ${run.errors} errors`);
        slices[label].push(run.requestsPerSecond);
      }
    }
    // What the stubs receive for the writes: the notifier run as its alarm would run once the
    // gathering minute of the last write is over (its own run(now), as the tests skip a minute),
    // run after run until one sends nothing more (each sends at most 100 to Google and 2 IndexNow
    // requests), instead of waiting the minute and its alarms out.
    const reach = await on.mf.getDurableObjectNamespace("REACH", "api");
    const notifier = reach.get(reach.idFromName(NOTIFIER_NAME));
    const sent = () => stubs.received.google + stubs.received.indexNowRequests;
    for (let before = -1, runs = 0; sent() !== before && runs < 20; runs++) {
      before = sent();
      await notifier.run(Date.now() + GATHERING_MS + 1_000);
    }
    const outcome = {
      rounds,
      seconds,
      connections,
      offRps: median(slices.off),
      onRps: median(slices.on),
      ratio: median(slices.on) / median(slices.off),
      slices,
      received: { ...stubs.received },
      // The report says how the notifier came to send.
      notifierRun: true,
    };
    if (stubs.received.google === 0 || stubs.received.indexNowUrls === 0) problems.push(`reach: the stubs received nothing from the notifier run a minute past the writes: ${JSON.stringify(stubs.received)}`);
    step(`reach: writes ${outcome.onRps.toFixed(0)}/s with the notifier on, ${outcome.offRps.toFixed(0)}/s without (${outcome.ratio.toFixed(3)} ×); the stubs received ${JSON.stringify(outcome.received)}`);
    return outcome;
  } finally {
    await Promise.all([off.mf.dispose(), on.mf.dispose()]);
    await stubs.close();
  }
}
