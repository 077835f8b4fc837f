import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
import { reachStub } from "./support/reach-stubs.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig(async () => {
  // Read on the Node side; test/support/apply-migrations.ts applies them inside workerd.
  const migrations = await readD1Migrations(`${root}drizzle`);
  const boardMigrations = await readD1Migrations(`${root}drizzle/board`);
  const alertsMigrations = await readD1Migrations(`${root}drizzle/alerts`);
  return {
    root,
    plugins: [
      cloudflareTest({
        // [env.load], not [env.dev]: dev enforces production's limits, which would throttle suites
        // that send hundreds of requests from one address or employer; load is dev with every
        // limit raised (the benchmark and the soak use it too), so no separate [env.test] is needed.
        wrangler: { configPath: `${root}wrangler.toml`, environment: "load" },
        miniflare: {
          // A fixed test key for webhook secrets at rest (base64 of 32 bytes); deployments set their own.
          bindings: { TEST_MIGRATIONS: migrations, TEST_BOARD_MIGRATIONS: boardMigrations, TEST_ALERTS_MIGRATIONS: alertsMigrations, WEBHOOK_ENCRYPTION_KEY: "dGVzdC1vbmx5LXdlYmhvb2stZW5jcnlwdGlvbi1rZXk=", ALERTS_TOKEN_KEY: "dGVzdC1vbmx5LWFsZXJ0cy10b2tlbi1rZXktMzJieXQ=" },
          // Nothing a test runs reaches the network (a webhook delivery the real queue consumer
          // attempts included): every outbound request of the Worker gets this answer instead.
          // Reach's search engines (DESIGN 24) are stubs served from here, only under `.reach.test`
          // (test/support/reach-stubs.ts); every other host still gets the "no network" answer.
          outboundService: async (request: Request) => (await reachStub(request)) ?? new Response("The tests reach no network.", { status: 502 }),
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
      include: ["test/**/*.test.ts"],
      // The XSS corpus needs data from outside the project: `npm run test:xss-corpus`.
      exclude: [...configDefaults.exclude, "test/corpus/**"],
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
