import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDatabase } from "../src/db/client";
import worker from "../src/index";
import type { Env } from "../src/env";
import { runScheduledJobs, scheduledRules } from "../src/jobs/scheduled-rules";
import { createEmployer } from "./support/api";
import { countingD1 } from "./support/count-d1";
import { type SeedJobOverrides, seedJobs } from "./support/seed-jobs";

const CRON = "0 * * * *";
/** An R2 binding whose deletes fail: the résumé purge's stage fails, nothing else uses it. */
const refusingR2 = { delete: async () => Promise.reject(new Error("R2 refused the delete")) } as unknown as R2Bucket;
const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;
const WEEK = 7 * DAY;
/** 2026-12-01T12:00:00Z, in seconds: the simulated "now" of most runs. */
const NOW = Date.UTC(2026, 11, 1, 12) / 1000;
/** Last updated long before any run, so a moved updated_at is visible. */
const LONG_AGO = NOW - 365 * DAY;

interface JobRow {
  status: string;
  publishDate: number;
  closeDate: number;
  updatedAt: number;
}

async function jobRow(id: number): Promise<JobRow> {
  const row = await env.DB.prepare(
    "SELECT status, publish_date AS publishDate, close_date AS closeDate, updated_at AS updatedAt FROM jobs WHERE id = ?",
  )
    .bind(id)
    .first<JobRow>();
  return row!;
}

async function allJobs(): Promise<Record<string, unknown>[]> {
  return (await env.DB.prepare("SELECT * FROM jobs ORDER BY id").all()).results;
}

// workers-types leaves `scheduled` off the loopback stub's type; the vitest plugin forwards
// it to the default export's scheduled() inside workerd.
const entry = exports.default as typeof exports.default & {
  scheduled(controller: { scheduledTime: number; cron: string }): Promise<void>;
};

/** The Cron Trigger as Cloudflare fires it: through the Worker's default export. */
function viaEntry(nowSeconds: number): Promise<void> {
  return entry.scheduled({ scheduledTime: nowSeconds * 1000, cron: CRON });
}

/**
 * The entry's scheduled() called as a function with the test pool's controller and context, so
 * that a test can swap bindings; waits for anything the handler leaves to ctx.waitUntil.
 */
async function viaHandler(nowSeconds: number, bindings: Env): Promise<void> {
  const scheduled: ExportedHandlerScheduledHandler<Env> = worker.scheduled;
  const ctx = createExecutionContext();
  try {
    await scheduled(createScheduledController({ scheduledTime: nowSeconds * 1000, cron: CRON }), bindings, ctx);
  } finally {
    await waitOnExecutionContext(ctx);
  }
}

/** The runner alone. */
async function viaRunner(nowSeconds: number): Promise<void> {
  await runScheduledJobs(env, new Date(nowSeconds * 1000));
}

async function unlimited() {
  return (await createEmployer({ plan: "unlimited" })).employerId;
}

async function standard() {
  return (await createEmployer({ plan: "standard" })).employerId;
}

/** One active autoRefresh job, 7 days old and open for 30 more days: refreshed at NOW if its employer is unlimited. */
async function refreshable(employerId: number, overrides: SeedJobOverrides = {}) {
  const [id] = await seedJobs(env.DB, employerId, 1, {
    autoRefresh: true,
    publishDate: NOW - WEEK,
    closeDate: NOW + 30 * DAY,
    updatedAt: LONG_AGO,
    ...overrides,
  });
  return id;
}

// Storage is shared by the tests of this file and a run touches every job: start each test
// from no jobs (and no events of earlier runs) so that counts belong to the test.
beforeEach(async () => {
  await env.DB.batch([env.DB.prepare("DELETE FROM jobs"), env.DB.prepare("DELETE FROM events")]);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([
  ["scheduled() entry", viaEntry],
  ["runner", viaRunner],
])("rules through the %s", (_, run) => {
  describe("auto-refresh: active autoRefresh jobs of unlimited-plan employers whose publishDate is 7 days old or more get publishDate = now", () => {
    it("refreshed at exactly 7 days: publishDate = now, updated_at = now", async () => {
      const id = await refreshable(await unlimited(), { publishDate: NOW - WEEK });
      await run(NOW);
      expect(await jobRow(id)).toMatchObject({ status: "active", publishDate: NOW, updatedAt: NOW });
    });

    it("not refreshed at 6 days 23 hours 59 minutes", async () => {
      const id = await refreshable(await unlimited(), { publishDate: NOW - WEEK + MINUTE });
      await run(NOW);
      expect(await jobRow(id)).toMatchObject({ publishDate: NOW - WEEK + MINUTE, updatedAt: LONG_AGO });
    });

    it("refresh does not touch closeDate (closeDate unchanged)", async () => {
      const closeDate = NOW + 3 * DAY + 17;
      const id = await refreshable(await unlimited(), { publishDate: NOW - 40 * DAY, closeDate });
      await run(NOW);
      expect(await jobRow(id)).toMatchObject({ publishDate: NOW, closeDate });
    });

    it("plan gating: jobs of standard-plan employers are never refreshed, whatever autoRefresh", async () => {
      const gated = await refreshable(await standard(), { publishDate: NOW - 90 * DAY });
      const control = await refreshable(await unlimited(), { publishDate: NOW - 90 * DAY });
      await run(NOW);
      expect(await jobRow(gated)).toMatchObject({ publishDate: NOW - 90 * DAY, updatedAt: LONG_AGO });
      expect((await jobRow(control)).publishDate).toBe(NOW);
    });

    it("autoRefresh false: untouched, even on the unlimited plan", async () => {
      const id = await refreshable(await unlimited(), { autoRefresh: false, publishDate: NOW - 90 * DAY });
      await run(NOW);
      expect(await jobRow(id)).toMatchObject({ publishDate: NOW - 90 * DAY, updatedAt: LONG_AGO });
    });

    it("a job closing exactly now is not refreshed, so publishDate never reaches closeDate", async () => {
      const id = await refreshable(await unlimited(), { closeDate: NOW });
      await run(NOW);
      expect(await jobRow(id)).toMatchObject({ status: "active", publishDate: NOW - WEEK, closeDate: NOW });
    });

    it("updated_at never moves backwards: a job updated after scheduledTime keeps its later updated_at", async () => {
      const id = await refreshable(await unlimited(), { updatedAt: NOW + 30 });
      await run(NOW);
      expect(await jobRow(id)).toMatchObject({ publishDate: NOW, updatedAt: NOW + 30 });
    });
  });

  describe("expiry: active jobs whose closeDate has passed become archived", () => {
    it("boundary: closeDate = now stays active (a job closes AT closeDate); one second later it is archived", async () => {
      const [id] = await seedJobs(env.DB, await standard(), 1, { publishDate: NOW - DAY, closeDate: NOW, updatedAt: LONG_AGO });
      await run(NOW);
      expect(await jobRow(id)).toMatchObject({ status: "active", updatedAt: LONG_AGO });
      await run(NOW + 1);
      expect(await jobRow(id)).toMatchObject({ status: "archived", closeDate: NOW, updatedAt: NOW + 1 });
    });

    it("expire first, then refresh: a job that closes in this run is archived, not refreshed", async () => {
      const id = await refreshable(await unlimited(), { publishDate: NOW - 60 * DAY, closeDate: NOW - 1 });
      await run(NOW);
      expect(await jobRow(id)).toMatchObject({ status: "archived", publishDate: NOW - 60 * DAY, updatedAt: NOW });
    });
  });

  it("draft and archived jobs are untouched by both rules", async () => {
    const employerId = await unlimited();
    const eligibleForBoth = { autoRefresh: true, publishDate: NOW - 90 * DAY, closeDate: NOW - DAY, updatedAt: LONG_AGO };
    for (const status of ["draft", "archived"] as const) {
      await seedJobs(env.DB, employerId, 1, { ...eligibleForBoth, status });
      await seedJobs(env.DB, employerId, 1, { ...eligibleForBoth, closeDate: NOW + DAY, status });
    }
    const before = await allJobs();
    await run(NOW);
    expect(await allJobs()).toEqual(before);
  });

  it("idempotent: a second run at the same now changes nothing", async () => {
    const employerId = await unlimited();
    await refreshable(employerId);
    await refreshable(employerId, { closeDate: NOW - DAY });
    await seedJobs(env.DB, await standard(), 3, { closeDate: NOW - DAY });
    await run(NOW);
    const afterFirst = await allJobs();
    expect(afterFirst.filter((job) => job.status === "archived")).toHaveLength(4);
    expect(await runScheduledJobs(env, new Date(NOW * 1000))).toEqual([
      { rule: "expiry", changed: 0 },
      { rule: "auto-refresh", changed: 0 },
      { rule: "expiring-notices", changed: 0 },
      { rule: "idempotency-keys", changed: 0 },
    ]);
    expect(await allJobs()).toEqual(afterFirst);
  });

  it("one run covers the jobs of many employers", async () => {
    const plans = Array.from({ length: 20 }, (_, i): "unlimited" | "standard" => (i % 2 === 0 ? "unlimited" : "standard"));
    const seeded = [];
    for (const plan of plans) {
      const { employerId } = await createEmployer({ plan });
      seeded.push({
        plan,
        stale: await seedJobs(env.DB, employerId, 5, { autoRefresh: true, publishDate: NOW - 10 * DAY, updatedAt: LONG_AGO }),
        closed: await seedJobs(env.DB, employerId, 2, { publishDate: NOW - 10 * DAY, closeDate: NOW - MINUTE }),
      });
    }
    await run(NOW);
    for (const { plan, stale, closed } of seeded) {
      for (const id of stale) expect((await jobRow(id)).publishDate).toBe(plan === "unlimited" ? NOW : NOW - 10 * DAY);
      for (const id of closed) expect((await jobRow(id)).status).toBe("archived");
    }
  });
});

describe("set-based statements", () => {
  async function planOf(statement: { toSQL(): { sql: string; params: unknown[] } }): Promise<string[]> {
    const { sql, params } = statement.toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    return results.map((r) => r.detail);
  }

  it("each rule's UPDATE searches its own index (EXPLAIN QUERY PLAN of the statements the cron runs)", async () => {
    await seedJobs(env.DB, await unlimited(), 1000, { autoRefresh: true, publishDate: NOW - 8 * DAY });
    const [expiry, refresh] = scheduledRules(createDatabase(env.DB), NOW);
    // With the jobs triggers (counters, search index) SQLite first collects the rowids, from
    // the same index, which it then reports as COVERING.
    const expiryPlan = await planOf(expiry.statement);
    expect(expiryPlan).toHaveLength(1);
    expect(expiryPlan[0]).toMatch(/^SEARCH jobs USING (COVERING )?INDEX jobs_expiry_idx \(status=\? AND close_date<\?\)$/);
    const refreshPlan = await planOf(refresh.statement);
    expect(refreshPlan[0]).toBe("SEARCH jobs USING INDEX jobs_auto_refresh_idx (status=? AND auto_refresh=? AND publish_date<?)");
    expect(refreshPlan.filter((step) => step.startsWith("SCAN jobs"))).toEqual([]);
  });

  it("100 000 eligible jobs: one D1 round trip changes all of them (and records their events); the upkeep of events, webhooks and applications a few more, whatever the count", async () => {
    const half = 50_000;
    await seedJobs(env.DB, await unlimited(), half, { autoRefresh: true, publishDate: NOW - 8 * DAY, closeDate: NOW + 30 * DAY });
    await seedJobs(env.DB, await standard(), half, { publishDate: NOW - 30 * DAY, closeDate: NOW - DAY });
    const log = vi.spyOn(console, "log");
    const counter = countingD1(env.DB);

    await viaHandler(NOW, { ...env, DB: counter.db });

    // The rules and their events: one batch. The events' upkeep: one batch marking the run's
    // own dispatched, one expiring and finding the undispatched. The webhook upkeep: one batch
    // and one read. The decision notices (DESIGN 20): one batch. The applications' upkeep: the
    // retention delete, the résumé read and the reads of pending emails (employers' copies and
    // applicants'). The board's repair: its comparison reads the jobs that should be on the
    // board 5 000 at a time (11 reads for 50 000 and this file's few others); the refreshed jobs
    // changed in this very run are left to their messages, so it repairs at most the few jobs
    // earlier tests of this file left off the board (one read).
    expect(counter.count()).toBeGreaterThanOrEqual(10 + 11);
    expect(counter.count()).toBeLessThanOrEqual(10 + 12);
    const line = JSON.parse(String(log.mock.calls.at(-1)?.[0]));
    expect(line.stages.rules.rules).toEqual([
      { rule: "expiry", changed: half },
      { rule: "auto-refresh", changed: half },
      { rule: "expiring-notices", changed: 0 },
      { rule: "idempotency-keys", changed: 0 },
    ]);
    const counts = await env.DB.prepare(
      "SELECT sum(status = 'archived') AS archived, sum(status = 'active' AND publish_date = ?1 AND updated_at = ?1) AS refreshed FROM jobs",
    )
      .bind(NOW)
      .first<{ archived: number; refreshed: number }>();
    expect(counts).toEqual({ archived: half, refreshed: half });
    // Every change now records its event with the job's snapshot, whoever listens: a limit against
    // a hung run, not a measure (docs/benchmarks.md measures).
  }, 120_000);
});

describe("log: one structured JSON line per run", () => {
  it("success: event, cron, scheduledTime, each stage's outcome with its counts (each rule's changed count) and durationMs on console.log", async () => {
    const employerId = await unlimited();
    await refreshable(employerId);
    await refreshable(employerId);
    await seedJobs(env.DB, employerId, 3, { closeDate: NOW - 1 });
    const log = vi.spyOn(console, "log");

    await viaEntry(NOW);

    const lines = log.mock.calls.map((call) => JSON.parse(String(call[0])));
    expect(lines).toEqual([
      {
        event: "scheduled",
        cron: CRON,
        scheduledTime: "2026-12-01T12:00:00.000Z",
        outcome: "ok",
        stages: {
          rules: {
            outcome: "ok",
            rules: [
              { rule: "expiry", changed: 3 },
              { rule: "auto-refresh", changed: 2 },
              { rule: "expiring-notices", changed: 0 },
              { rule: "idempotency-keys", changed: 0 },
            ],
          },
          decisionNotices: { outcome: "ok", notices: 0 },
          events: { outcome: "ok", dispatched: 5, redispatched: 0, deleted: 0 },
          board: { outcome: "ok", checked: 0, repaired: 0, removed: 0, renamed: 0 },
          webhooks: { outcome: "ok", requeued: 0 },
          retention: { outcome: "ok", expired: 0 },
          resumes: { outcome: "ok", deleted: 0 },
          emailCopies: { outcome: "ok", requeued: 0 },
        },
        durationMs: expect.any(Number),
      },
    ]);
  });

  it("failure: the rules' batch rolls back, the stages after it still run, an error line records each stage's outcome and the invocation fails", async () => {
    const closed = await refreshable(await unlimited(), { closeDate: NOW - 1 });
    await refreshable(await unlimited());
    // A real failure inside D1: the refresh statement aborts after expiry already ran.
    await env.DB.prepare(
      "CREATE TRIGGER refuse_refresh BEFORE UPDATE OF publish_date ON jobs BEGIN SELECT RAISE(ABORT, 'refresh refused'); END",
    ).run();
    const error = vi.spyOn(console, "error");
    try {
      // Called as a function: through the loopback stub workerd would also report the rejected
      // invocation as an uncaught exception, which fails the vitest run.
      await expect(viaHandler(NOW, env)).rejects.toThrow(/refresh refused/);
    } finally {
      await env.DB.prepare("DROP TRIGGER refuse_refresh").run();
    }
    expect(await jobRow(closed)).toMatchObject({ status: "active" });
    const line = JSON.parse(String(error.mock.calls.at(-1)?.[0]));
    expect(line).toMatchObject({
      event: "scheduled",
      cron: CRON,
      scheduledTime: "2026-12-01T12:00:00.000Z",
      outcome: "error",
      stages: {
        rules: { outcome: "error", error: expect.stringContaining("refresh refused") },
        events: { outcome: "ok", dispatched: 0 },
        webhooks: { outcome: "ok" },
        retention: { outcome: "ok" },
        resumes: { outcome: "ok" },
        emailCopies: { outcome: "ok" },
      },
      durationMs: expect.any(Number),
    });
  });

  it("a failing stage never skips the others: the résumé purge fails (R2 refuses), the rules, the retention and the email-copy sweep after it still run; the invocation fails once all ran", async () => {
    const { employerId } = await createEmployer();
    const [closed] = await seedJobs(env.DB, employerId, 1, { publishDate: NOW - DAY, closeDate: NOW - 1 });
    const [open] = await seedJobs(env.DB, employerId, 1, { publishDate: NOW - DAY, closeDate: NOW + DAY });
    const received = NOW * 1000 - 10 * 60_000;
    // An application whose emailed copy is due (the sweep's work) and one past the retention.
    await env.DB.prepare(
      `INSERT INTO applications (job_id, employer_id, name, email, received_at, email_status) VALUES
        (?1, ?2, 'Due copy', 'due@example.com', ?3, 'pending'), (?1, ?2, 'Expired', 'old@example.com', ?4, 'sent')`,
    )
      .bind(open, employerId, received, received - 181 * DAY * 1000)
      .run();
    const pendingKey = `resumes/stage-test-${open}`;
    await env.DB.prepare("INSERT INTO resume_deletions (key) VALUES (?)").bind(pendingKey).run();
    const copies: number[] = [];
    const emailQueue = { sendBatch: async (batch: { body: { applicationId: number } }[]) => void copies.push(...batch.map((m) => m.body.applicationId)) };
    const error = vi.spyOn(console, "error");

    await expect(viaHandler(NOW, { ...env, RESUMES: refusingR2, EMAIL_QUEUE: emailQueue as unknown as Queue })).rejects.toThrow(/R2 refused the delete/);

    expect(await jobRow(closed)).toMatchObject({ status: "archived" });
    const names = (await env.DB.prepare("SELECT name FROM applications WHERE job_id = ?").bind(open).all<{ name: string }>()).results;
    expect(names.map((row) => row.name)).toEqual(["Due copy"]);
    expect(copies).toHaveLength(1);
    expect(await env.DB.prepare("SELECT key FROM resume_deletions WHERE key = ?").bind(pendingKey).first()).toEqual({ key: pendingKey });
    const line = JSON.parse(String(error.mock.calls.at(-1)?.[0]));
    expect(line).toMatchObject({
      outcome: "error",
      stages: {
        rules: { outcome: "ok", rules: [{ rule: "expiry", changed: 1 }, { rule: "auto-refresh", changed: 0 }, { rule: "expiring-notices", changed: 1 }, { rule: "idempotency-keys", changed: 0 }] },
        events: { outcome: "ok" },
        webhooks: { outcome: "ok", requeued: expect.any(Number) },
        retention: { outcome: "ok", expired: 1 },
        resumes: { outcome: "error", error: "R2 refused the delete" },
        emailCopies: { outcome: "ok", requeued: 1 },
      },
    });
    await env.DB.prepare("DELETE FROM resume_deletions WHERE key = ?").bind(pendingKey).run();
  });

  it("several failing stages: all of them are logged and the invocation fails with every error", async () => {
    const refusingQueue = { sendBatch: async () => Promise.reject(new Error("queue refused")) } as unknown as Queue;
    await env.DB.prepare("INSERT INTO resume_deletions (key) VALUES ('resumes/stage-test-several')").run();
    const { employerId } = await createEmployer();
    const [job] = await seedJobs(env.DB, employerId, 1, { publishDate: NOW - DAY, closeDate: NOW + DAY });
    await env.DB.prepare("INSERT INTO applications (job_id, employer_id, name, email, received_at, email_status) VALUES (?, ?, 'Due', 'due@example.com', ?, 'pending')")
      .bind(job, employerId, NOW * 1000 - 10 * 60_000)
      .run();
    const error = vi.spyOn(console, "error");

    const failure = await viaHandler(NOW, { ...env, RESUMES: refusingR2, EMAIL_QUEUE: refusingQueue }).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).errors.map((e: Error) => e.message)).toEqual(["R2 refused the delete", "queue refused"]);
    expect((failure as Error).message).toMatch(/resumes: R2 refused the delete; emailCopies: queue refused/);
    const line = JSON.parse(String(error.mock.calls.at(-1)?.[0]));
    expect(line.stages).toMatchObject({ rules: { outcome: "ok" }, resumes: { outcome: "error" }, emailCopies: { outcome: "error", error: "queue refused" } });
    await env.DB.prepare("DELETE FROM resume_deletions WHERE key = 'resumes/stage-test-several'").run();
  });
});
