import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expireApplications } from "../src/applications/retention";
import { emitDueDecisionNotices } from "../src/applications/service";
import { createDatabase } from "../src/db/client";
import type { RecordedEvent } from "../src/events/outbox";
import worker from "../src/index";
import type { Env } from "../src/env";
import { runScheduledJobs, scheduledRules } from "../src/jobs/scheduled-rules";
import { cronBounds, ROUND_ROWS, RUN_BUDGET_MS, type RuleProgress } from "../src/scheduled/chunks";
import { createEmployer } from "./support/api";
import { countingD1 } from "./support/count-d1";
import { type SeedJobOverrides, seedJobs } from "./support/seed-jobs";

const CRON = "0 * * * *";
/** An R2 binding whose deletes fail: the résumé purge's stage fails, nothing else uses it. */
const refusingR2 = { delete: async () => Promise.reject(new Error("R2 refused the delete")) } as unknown as R2Bucket;
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
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
      { rule: "expiry", changed: 0, chunks: 1, finished: true },
      { rule: "auto-refresh", changed: 0, chunks: 1, finished: true },
      { rule: "expiring-notices", changed: 0, chunks: 1, finished: true },
      { rule: "idempotency-keys", changed: 0, chunks: 1, finished: true },
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

describe("set-based statements in bounded chunks (DESIGN 22)", () => {
  const dialect = new SQLiteAsyncDialect();
  async function planOf(statement: SQL | { toSQL(): { sql: string; params: unknown[] } }): Promise<string[]> {
    const { sql, params } = "toSQL" in statement ? statement.toSQL() : dialect.sqlToQuery(statement);
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    return results.map((r) => r.detail);
  }

  it("each rule's chunk reads its own index and stops at its LIMIT, from the start and after a chunk (EXPLAIN QUERY PLAN of the statements the cron runs)", async () => {
    await seedJobs(env.DB, await unlimited(), 1000, { autoRefresh: true, publishDate: NOW - 8 * DAY });
    const db = createDatabase(env.DB);
    for (const after of [null, { key: NOW - 9 * DAY, id: 1 }]) {
      const [expiry, refresh] = scheduledRules(db, NOW, { rows: 100, after });
      const from = after ? "close_date>\\? AND close_date<\\?" : "close_date<\\?";
      for (const statement of [expiry.statement, expiry.last]) {
        const plan = await planOf(statement);
        // The chunk's rows from the index, in its order (no sort, so it stops at the LIMIT); the
        // UPDATE then finds them by id.
        expect(plan).toContainEqual(expect.stringMatching(new RegExp(`^SEARCH jobs USING COVERING INDEX jobs_expiry_idx \\(status=\\? AND ${from}\\)$`)));
        expect(plan.filter((step) => step.startsWith("SCAN jobs") || step.includes("TEMP B-TREE"))).toEqual([]);
      }
      const refreshPlan = await planOf(refresh.statement);
      const read = after ? "publish_date>? AND publish_date<?" : "publish_date<?";
      expect(refreshPlan).toContain(`SEARCH jobs USING COVERING INDEX jobs_auto_refresh_idx (status=? AND auto_refresh=? AND ${read})`);
      expect(refreshPlan.filter((step) => step.startsWith("SCAN jobs"))).toEqual([]);
      // Only the rows read (four for each it may change) are sorted, to take those the plan gate lets through.
      expect(refreshPlan.filter((step) => step.includes("TEMP B-TREE"))).toEqual(["USE TEMP B-TREE FOR ORDER BY"]);
    }
  });

  it("100 000 eligible jobs: each round trip changes at most ROUND_ROWS of them (with their events), the run starts no round once its budget is spent, and the runs after finish: every job changed exactly once, with one event each", async () => {
    const half = 50_000;
    await seedJobs(env.DB, await unlimited(), half, { autoRefresh: true, publishDate: NOW - 8 * DAY, closeDate: NOW + 30 * DAY });
    await seedJobs(env.DB, await standard(), half, { publishDate: NOW - 30 * DAY, closeDate: NOW - DAY });
    const log = vi.spyOn(console, "log");
    const counter = countingD1(env.DB);

    await viaHandler(NOW, { ...env, DB: counter.db });

    const line = JSON.parse(String(log.mock.calls.at(-1)?.[0]));
    const [expiry, refresh, ...others] = line.shards[0].stages.rules.rules as RuleProgress[];
    expect(others).toEqual([
      { rule: "expiring-notices", changed: 0, chunks: 1, finished: true },
      { rule: "idempotency-keys", changed: 0, chunks: 1, finished: true },
    ]);
    // One round trip a round, holding the chunk of each rule still running.
    const rounds = Math.max(expiry.chunks, refresh.chunks);
    expect(expiry.changed + refresh.changed).toBeLessThanOrEqual(rounds * ROUND_ROWS);
    // Rounds stop only when the rules are done or the budget is spent.
    if (!expiry.finished || !refresh.finished) expect(line.durationMs).toBeGreaterThanOrEqual(RUN_BUDGET_MS);
    // After the rules' rounds, the upkeep (webhooks 2, decision notices 1, applications 4, the
    // board's repair reading 5 000 jobs at a time: 11 pages here, and the employers' names once the
    // board's consumer, running beside it, has put some on the board) and the search index's merge
    // (one round trip a statement, as many as its log line says); the events go through the
    // shard's relay, which marks nothing in the shard (DESIGN 22). Traced calls came to 7 + 11;
    // twice, under a load average of 7 to 9 (CI beside a bench), one more than 7 + 12, not traced,
    // so one call of margin: the bound is against calls that grow with the jobs, not a count.
    const merges = line.shards[0].stages.searchMerge.merges as number;
    expect(merges).toBeGreaterThanOrEqual(1);
    expect(counter.count() - rounds - merges).toBeLessThanOrEqual(7 + 12 + 1);

    // The runs after continue: with a larger budget, the next finishes the rest.
    const rest = await runScheduledJobs(env, new Date((NOW + HOUR) * 1000), [], cronBounds({ budgetMs: 600_000 }));
    expect(rest.slice(0, 2).map((rule) => [rule.changed, rule.finished])).toEqual([
      [half - expiry.changed, true],
      [half - refresh.changed, true],
    ]);
    const counts = await env.DB.prepare(
      `SELECT sum(status = 'archived') AS archived, sum(status = 'active' AND publish_date IN (?1, ?2)) AS refreshed, sum(revision = 2) AS changedOnce,
        (SELECT count(*) FROM events WHERE type = 'job.expired') AS expiredEvents, (SELECT count(*) FROM events WHERE type = 'job.refreshed') AS refreshedEvents,
        (SELECT count(DISTINCT subject_id) FROM events) AS jobsWithEvents
      FROM jobs`,
    )
      .bind(NOW, NOW + HOUR)
      .first();
    expect(counts).toEqual({ archived: half, refreshed: half, changedOnce: 2 * half, expiredEvents: half, refreshedEvents: half, jobsWithEvents: 2 * half });
    // A limit against a hung run, not a measure (docs/scaling.md, "Bounded cron", measures).
  }, 180_000);
});

describe("bounded chunks (DESIGN 22): a run cut short by its budget leaves the rest to the next, nothing skipped, nothing done twice", () => {
  /** Cut short: one round a run (budget 0), of 2 rows shared by the rules still running. */
  const CUT_SHORT = { rows: 2, budgetMs: 0 };
  const jobForApplications = async (employerId: number) => (await seedJobs(env.DB, employerId, 1, { publishDate: NOW - DAY, closeDate: NOW + 30 * DAY }))[0];

  /** Hourly runs of `run` from NOW until `rule` is finished: its progress in each run, and the events recorded. */
  async function runsUntilFinished(rule: string, run: (now: number, recorded: RecordedEvent[]) => Promise<RuleProgress[]>) {
    const runs: RuleProgress[] = [];
    const recorded: RecordedEvent[] = [];
    for (let hour = 0; hour < 20; hour++) {
      const own = (await run(NOW + hour * HOUR, recorded)).find((progress) => progress.rule === rule)!;
      runs.push(own);
      if (own.finished) return { runs, recorded };
    }
    throw new Error(`"${rule}" was never finished`);
  }

  const jobRuns = (rule: string) => runsUntilFinished(rule, (now, recorded) => runScheduledJobs(env, new Date(now * 1000), recorded, cronBounds(CUT_SHORT)));

  /** Each run cut short while rows were left, yet changing some (at most its 2 rows); together `total`. */
  function expectCutShort(runs: RuleProgress[], total: number) {
    expect(runs.length).toBeGreaterThan(2);
    for (const run of runs.slice(0, -1)) expect(run).toMatchObject({ finished: false, changed: expect.toBeOneOf([1, 2]) });
    expect(runs.at(-1)!.changed).toBeLessThanOrEqual(2);
    expect(runs.reduce((sum, run) => sum + run.changed, 0)).toBe(total);
  }

  /** Job id → how many events of `type` it has. */
  async function eventsPerSubject(type: string): Promise<Record<number, number>> {
    const { results } = await env.DB.prepare("SELECT subject_id AS id, count(*) AS n FROM events WHERE type = ? GROUP BY subject_id").bind(type).all<{ id: number; n: number }>();
    return Object.fromEntries(results.map((row) => [row.id, row.n]));
  }

  const once = (ids: number[]) => Object.fromEntries(ids.map((id) => [id, 1]));

  it('"expiry": the next runs finish what a run cut short left; each job expired exactly once, with exactly one job.expired (events == changed)', async () => {
    const ids = await seedJobs(env.DB, await standard(), 5, { publishDate: NOW - 30 * DAY, closeDate: NOW - DAY, updatedAt: LONG_AGO });
    const { runs, recorded } = await jobRuns("expiry");
    expectCutShort(runs, 5);
    expect((await env.DB.prepare("SELECT DISTINCT status, revision FROM jobs").all()).results).toEqual([{ status: "archived", revision: 2 }]);
    expect(await eventsPerSubject("job.expired")).toEqual(once(ids));
    expect(recorded.filter((event) => event.type === "job.expired")).toHaveLength(5);
  });

  it('"auto-refresh": the next runs finish what a run cut short left, reading past the jobs it leaves (standard plan); each job refreshed exactly once, with exactly one job.refreshed', async () => {
    const [gold, plain] = [await unlimited(), await standard()];
    const refreshed: number[] = [];
    const left: Record<number, number> = {};
    // Interleaved in the index's order (publishDate), so that every chunk reads jobs it leaves.
    for (let i = 0; i < 10; i++) {
      const publishDate = NOW - 8 * DAY - i * MINUTE;
      if (i % 2) left[await refreshable(plain, { publishDate })] = publishDate;
      else refreshed.push(await refreshable(gold, { publishDate }));
    }
    const { runs, recorded } = await jobRuns("auto-refresh");
    expectCutShort(runs, 5);
    const rows = (await env.DB.prepare("SELECT id, publish_date AS publishDate, revision FROM jobs").all<{ id: number; publishDate: number; revision: number }>()).results;
    const runTimes = runs.map((_, hour) => NOW + hour * HOUR);
    for (const row of rows) {
      if (row.id in left) expect(row).toEqual({ id: row.id, publishDate: left[row.id], revision: 1 });
      else expect(row).toEqual({ id: row.id, publishDate: expect.toBeOneOf(runTimes), revision: 2 });
    }
    expect(await eventsPerSubject("job.refreshed")).toEqual(once(refreshed));
    expect(recorded).toHaveLength(5);
  });

  it('"expiry" before "auto-refresh": a job past its closeDate is expired, never refreshed, even while the expiry is behind', async () => {
    const employerId = await unlimited();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await refreshable(employerId, { publishDate: NOW - 60 * DAY, closeDate: NOW - DAY + i }));
    const { runs } = await jobRuns("expiry");
    expectCutShort(runs, 5);
    expect(await eventsPerSubject("job.refreshed")).toEqual({});
    expect(await eventsPerSubject("job.expired")).toEqual(once(ids));
    const rows = (await env.DB.prepare("SELECT DISTINCT status, publish_date AS publishDate, revision FROM jobs").all()).results;
    expect(rows).toEqual([{ status: "archived", publishDate: NOW - 60 * DAY, revision: 2 }]);
  });

  it('"expiring-notices": the next runs finish what a run cut short left; each job noticed exactly once for its closeDate', async () => {
    const ids = await seedJobs(env.DB, await standard(), 5, { publishDate: NOW - DAY, closeDate: NOW + 2 * DAY });
    const { runs } = await jobRuns("expiring-notices");
    expectCutShort(runs, 5);
    expect(await eventsPerSubject("job.expiring")).toEqual(once(ids));
  });

  it('"idempotency-keys": the next runs finish what a run cut short left; every key older than 24 hours deleted, the younger kept', async () => {
    const { employerId } = await createEmployer();
    const insert = env.DB.prepare(
      "INSERT INTO idempotency_keys (employer_id, key, request_hash, holder, state, response_status, response_body, created_at) VALUES (?, ?, 'h', '', 'done', 201, '{}', ?)",
    );
    await env.DB.batch([
      ...Array.from({ length: 5 }, (_, i) => insert.bind(employerId, `old-${i}`, NOW - 2 * DAY + i)),
      insert.bind(employerId, "young", NOW),
    ]);
    const { runs } = await jobRuns("idempotency-keys");
    expectCutShort(runs, 5);
    const { results } = await env.DB.prepare("SELECT key FROM idempotency_keys WHERE employer_id = ?").bind(employerId).all();
    expect(results).toEqual([{ key: "young" }]);
  });

  it('"decision-notices": the next runs finish what a run cut short left; each interviewed application noticed exactly once, with exactly one application.decision_due', async () => {
    const { employerId } = await createEmployer();
    const job = await jobForApplications(employerId);
    const interviewed = (NOW - 40 * DAY) * 1000;
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const row = await env.DB.prepare(
        `INSERT INTO applications (job_id, employer_id, name, email, received_at, email_status, status, interviewed_at, decision_notice_at)
        VALUES (?, ?, 'Interviewed', 'i@example.com', ?, 'sent', 'interviewing', ?, ?) RETURNING id`,
      )
        .bind(job, employerId, interviewed, interviewed, interviewed + 38 * DAY * 1000 + i)
        .first<{ id: number }>();
      ids.push(row!.id);
    }
    const { runs, recorded } = await runsUntilFinished("decision-notices", (now, recorded) => emitDueDecisionNotices(env, now * 1000, recorded, cronBounds(CUT_SHORT)));
    expectCutShort(runs, 5);
    expect(recorded).toHaveLength(5);
    expect(await eventsPerSubject("application.decision_due")).toEqual(once(ids));
  });

  it('"application-retention": the next runs finish what a run cut short left; every application older than 180 days deleted, the younger kept', async () => {
    const { employerId } = await createEmployer();
    const job = await jobForApplications(employerId);
    const insert = env.DB.prepare("INSERT INTO applications (job_id, employer_id, name, email, received_at, email_status) VALUES (?, ?, ?, 'a@example.com', ?, 'sent')");
    await env.DB.batch([
      ...Array.from({ length: 5 }, (_, i) => insert.bind(job, employerId, `Old ${i}`, (NOW - 200 * DAY + i) * 1000)),
      insert.bind(job, employerId, "Young", (NOW - DAY) * 1000),
    ]);
    const { runs } = await runsUntilFinished("application-retention", (now) => expireApplications(env, now * 1000, cronBounds(CUT_SHORT)));
    expectCutShort(runs, 5);
    const { results } = await env.DB.prepare("SELECT name FROM applications WHERE job_id = ?").bind(job).all();
    expect(results).toEqual([{ name: "Young" }]);
  });

  it('"expiry": a chunk\'s change and its events are one atomic batch: a failing round stores neither, the rounds before it keep both, and the next run finishes', async () => {
    const ids = await seedJobs(env.DB, await standard(), 6, { publishDate: NOW - 30 * DAY, closeDate: NOW - DAY });
    // The fifth job cannot be archived: its round (the fourth and fifth jobs) fails inside D1.
    await env.DB.prepare(
      `CREATE TRIGGER refuse_expiry BEFORE UPDATE OF status ON jobs WHEN OLD.id = ${ids[4]} BEGIN SELECT RAISE(ABORT, 'expiry refused'); END`,
    ).run();
    try {
      await expect(runScheduledJobs(env, new Date(NOW * 1000), [], cronBounds({ rows: 2, budgetMs: 60_000 }))).rejects.toThrow(/expiry refused/);
    } finally {
      await env.DB.prepare("DROP TRIGGER refuse_expiry").run();
    }
    // Rounds of 2 rows shared by the rules running: the first job alone (four rules), then two by two.
    const archived = async () => (await env.DB.prepare("SELECT id FROM jobs WHERE status = 'archived' ORDER BY id").all<{ id: number }>()).results.map((row) => row.id);
    expect(await archived()).toEqual(ids.slice(0, 3));
    expect(await eventsPerSubject("job.expired")).toEqual(once(ids.slice(0, 3)));
    // Nor anything of the list's search index the failed round deferred (drizzle/0025).
    expect(await env.DB.prepare("SELECT (SELECT count(*) FROM job_search_deferral) + (SELECT count(*) FROM job_search_moves) AS n").first("n")).toBe(0);

    const [expiry] = await runScheduledJobs(env, new Date((NOW + HOUR) * 1000));
    expect(expiry).toEqual({ rule: "expiry", changed: 3, chunks: 1, finished: true });
    expect(await archived()).toEqual(ids);
    expect(await eventsPerSubject("job.expired")).toEqual(once(ids));
  });
});

describe("log: one structured JSON line per run", () => {
  it("success: event, cron, scheduledTime, each shard's stages' outcomes with their counts (each rule's rows changed, chunks run and whether it finished) and durationMs on console.log", async () => {
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
        // DESIGN 22: every shard runs every stage; shard 1 has nothing to do here.
        shards: [{ shard: 0, stages: {
          // Each rule: the rows changed, the chunks run, and whether it finished or left the rest to the next run.
          rules: {
            outcome: "ok",
            rules: [
              { rule: "expiry", changed: 3, chunks: 1, finished: true },
              { rule: "auto-refresh", changed: 2, chunks: 1, finished: true },
              { rule: "expiring-notices", changed: 0, chunks: 1, finished: true },
              { rule: "idempotency-keys", changed: 0, chunks: 1, finished: true },
            ],
          },
          decisionNotices: { outcome: "ok", rules: [{ rule: "decision-notices", changed: 0, chunks: 1, finished: true }] },
          events: { outcome: "ok", recorded: 5 },
          // The board's counts depend on what the relay handed over of earlier tests' runs (whose
          // jobs beforeEach deletes): the repair's own tests check them (board-read-model).
          board: { outcome: "ok", checked: expect.any(Number), repaired: expect.any(Number), removed: expect.any(Number), renamed: expect.any(Number), receiptsPruned: 0 },
          webhooks: {
            outcome: "ok",
            requeued: 0,
            rules: [
              { rule: "webhook-log", changed: 0, chunks: 1, finished: true },
              // DESIGN 16a: the fan-out's receipts past their retention.
              { rule: "webhook-receipts", changed: 0, chunks: 1, finished: true },
            ],
          },
          retention: { outcome: "ok", rules: [{ rule: "application-retention", changed: 0, chunks: 1, finished: true }] },
          resumes: { outcome: "ok", deleted: 0 },
          emailCopies: { outcome: "ok", requeued: 0 },
          // The list's search index merged, a bounded statement at a time (what is left of earlier
          // tests' writes decides how many): at least one, at most a run's share.
          searchMerge: { outcome: "ok", merges: expect.any(Number), finished: expect.any(Boolean) },
        } }, { shard: 1, stages: expect.objectContaining({ rules: expect.objectContaining({ outcome: "ok" }) }) }],
        // DESIGN 23: job alerts' upkeep, once per run (alerts are not sharded).
        alerts: {
          alertsDue: { outcome: "ok", due: 0 },
          alertEmails: { outcome: "ok", requeued: 0 },
          alertsKeep: { outcome: "ok", asked: 0, ended: 0 },
          alertsRetention: { outcome: "ok", deleted: 0 },
          alertsMatchesPruned: { outcome: "ok", pruned: 0, chunks: 1 },
          alertsReceiptsPruned: { outcome: "ok", pruned: 0 },
        },
        // DESIGN 26: the operator's audit past 7 years, once per run (ACCOUNTS_DB is not sharded).
        accounts: { auditRetention: { outcome: "ok", deleted: 0 } },
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
      shards: [{ shard: 0, stages: {
        rules: { outcome: "error", error: expect.stringContaining("refresh refused") },
        events: { outcome: "ok", recorded: 0 },
        webhooks: { outcome: "ok" },
        retention: { outcome: "ok" },
        resumes: { outcome: "ok" },
        emailCopies: { outcome: "ok" },
      } }, { shard: 1, stages: { rules: { outcome: "ok" } } }],
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
      shards: [{ shard: 0, stages: {
        rules: { outcome: "ok", rules: [{ rule: "expiry", changed: 1 }, { rule: "auto-refresh", changed: 0 }, { rule: "expiring-notices", changed: 1 }, { rule: "idempotency-keys", changed: 0 }] },
        events: { outcome: "ok" },
        webhooks: { outcome: "ok", requeued: expect.any(Number) },
        retention: { outcome: "ok", rules: [{ rule: "application-retention", changed: 1 }] },
        resumes: { outcome: "error", error: "R2 refused the delete" },
        emailCopies: { outcome: "ok", requeued: 1 },
      } }, { shard: 1 }],
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
    expect((failure as Error).message).toMatch(/shard 0 resumes: R2 refused the delete; shard 0 emailCopies: queue refused/);
    const line = JSON.parse(String(error.mock.calls.at(-1)?.[0]));
    expect(line.shards[0].stages).toMatchObject({ rules: { outcome: "ok" }, resumes: { outcome: "error" }, emailCopies: { outcome: "error", error: "queue refused" } });
    await env.DB.prepare("DELETE FROM resume_deletions WHERE key = 'resumes/stage-test-several'").run();
  });
});
