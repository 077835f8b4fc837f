import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
import { buildPasskeysWorker } from "../workers/passkeys/build.mjs";
import { accessStub } from "./support/access-stub.ts";
import { reachStub } from "./support/reach-stubs.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

// The XSS corpus needs data from outside the project: `npm run test:xss-corpus`.
const EXCLUDED = [...configDefaults.exclude, "test/corpus/**"];
const OWN_RUNTIME = [
  "board", "board-cache", "board-pages", "board-privacy", "board-read-model",
  "relay", "receipts", "dead-letters", "alerts-dead-letters", "events-outbox", "scheduled",
  "alerts-matching", "alerts-sending", "alerts-decline-mailto-pruning", "alerts-subscribe",
  "places", "reach", "reach-flow", "shards", "shards-move", "shards-online-move",
  "webhooks-delivery", "webhooks-addresses", "request-log",
  "moderation", "suspension", "job-seeker-requests",
].map((name) => `test/${name}.test.ts`);

export default defineConfig(async () => {
  // Read on the Node side; test/support/apply-migrations.ts applies them inside workerd.
  const migrations = await readD1Migrations(`${root}drizzle`);
  const boardMigrations = await readD1Migrations(`${root}drizzle/board`);
  const alertsMigrations = await readD1Migrations(`${root}drizzle/alerts`);
  const accountsMigrations = await readD1Migrations(`${root}drizzle/accounts`);
  // The Worker the service binding PASSKEYS reaches (DESIGN 25), built from this code for each run.
  const passkeysWorker = await buildPasskeysWorker(`${root}.wrangler/test/passkeys-worker.js`);
  return {
    root,
    plugins: [
      cloudflareTest({
        // [env.load], not [env.dev]: dev enforces production's limits, which would throttle suites
        // that send hundreds of requests from one address or employer; load is dev with every
        // limit raised (the benchmark and the soak use it too), so no separate [env.test] is needed.
        wrangler: { configPath: `${root}wrangler.toml`, environment: "load" },
        miniflare: {
          workers: [{ ...passkeysWorker, modules: true }],
          // A fixed test key for webhook secrets at rest (base64 of 32 bytes); deployments set their own.
          bindings: { TEST_MIGRATIONS: migrations, TEST_BOARD_MIGRATIONS: boardMigrations, TEST_ALERTS_MIGRATIONS: alertsMigrations, TEST_ACCOUNTS_MIGRATIONS: accountsMigrations, WEBHOOK_ENCRYPTION_KEY: "dGVzdC1vbmx5LXdlYmhvb2stZW5jcnlwdGlvbi1rZXk=", ALERTS_TOKEN_KEY: "dGVzdC1vbmx5LWFsZXJ0cy10b2tlbi1rZXktMzJieXQ=" },
          // Nothing a test runs reaches the network (a webhook delivery the real queue consumer
          // attempts included): every outbound request of the Worker gets this answer instead.
          // Reach's search engines (DESIGN 24) are stubs served from here, only under `.reach.test`
          // (test/support/reach-stubs.ts); every other host still gets the "no network" answer.
          // Cloudflare Access's key sets (DESIGN 26) likewise, under `.access.test` (test/support/access-stub.ts).
          outboundService: async (request: Request) => (await reachStub(request)) ?? (await accessStub(request)) ?? new Response("The tests reach no network.", { status: 502 }),
          // The tests drive the webhooks consumer hop by hop (test/support/webhook-queue.ts): what
          // the Worker hands to its webhooks queue (the relays' notices, the cron's attempts) goes
          // to a queue nobody consumes, so nothing is fanned out or attempted behind a test's back.
          // Likewise job alerts (DESIGN 23): test/support/alerts.ts drives their consumer itself, so no
          // email is sent and no match stored behind a test's back (nor any test file's relays'
          // notices matched while it runs).
          queueProducers: { WEBHOOK_QUEUE: { queueName: "job-posting-webhooks-unconsumed" }, ALERTS_QUEUE: { queueName: "job-posting-alerts-unconsumed" } },
          // Low limiters for the tests of the 429 itself (test/rate-limit.test.ts swaps them in).
          ratelimits: {
            TEST_LOW_JOB_RATE_LIMITER: { namespace_id: "9001", simple: { limit: 5, period: 60 } },
            TEST_LOW_AUTH_FAILURE_RATE_LIMITER: { namespace_id: "9002", simple: { limit: 3, period: 60 } },
          },
        },
      }),
    ],
    test: {
      // Pre-bundled for test/console-passkeys.test.ts's authenticator (the Worker itself calls the
      // passkeys Worker): its ASN.1 dependencies' ES modules import without file extensions, which
      // workerd's module loader cannot resolve (wrangler's bundle can).
      deps: { optimizer: { ssr: { enabled: true, include: ["@simplewebauthn/server/helpers"] } } },
      // Two runtimes (issue 38): a fresh runtime per file costs about 4.5 s of CPU (workerd's start,
      // the Worker's modules, the migrations), so the files that only read what their own
      // employers wrote share one runtime per worker; the files below read what every tenant
      // shares (the board and its cache, the cron over every job, the relays and queues, alerts'
      // matching, reach, shards) or replace a global (fetch, console), and keep a runtime each.
      projects: [
        { extends: true, test: { name: "own-runtime", include: OWN_RUNTIME, isolate: true } },
        { extends: true, test: { name: "shared-runtime", include: ["test/**/*.test.ts"], exclude: [...EXCLUDED, ...OWN_RUNTIME], isolate: false } },
      ],
      // The suite mostly waits (queues, relays' alarms, D1): more workers than cores keep both busy.
      maxWorkers: 3,
      setupFiles: ["test/support/apply-migrations.ts"],
      // Tests of the board wait for its queue (a batch is handed over within a second).
      testTimeout: 20_000,
      // The Worker's JSON log lines (one per request, one per cron run; test/request-log.test.ts
      // and test/scheduled.test.ts check them) would bury the test report.
      onConsoleLog: (log: string) =>
        !log.startsWith('{"level":"info","message":"request"') && !log.startsWith('{"event":"scheduled"') && !log.startsWith('{"level":"info","message":"reach sent"'),
    },
  };
});
