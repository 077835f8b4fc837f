import { env } from "cloudflare:workers";
import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { beforeEach, describe, expect, it } from "vitest";
import { createDatabase } from "../src/db/client";
import type { RecordedEvent } from "../src/events/outbox";
import { renderJobEventData } from "../src/jobs/event-data";
import { runScheduledJobs, scheduledRules } from "../src/jobs/scheduled-rules";
import { createEmployer, request } from "./support/api";
import { postJob } from "./support/jobs";
import { seedJobs } from "./support/seed-jobs";

// DESIGN 21, 21a: the cron's job.expiring notice.

const HOUR = 60 * 60;
const DAY = 24 * HOUR;
/** 2026-12-01T12:00:00Z, in seconds. */
const NOW = Date.UTC(2026, 11, 1, 12) / 1000;

/** One cron run at `now` (seconds): the job.expiring events it recorded, by job id. */
async function run(now = NOW): Promise<number[]> {
  const recorded: RecordedEvent[] = [];
  await runScheduledJobs(env, new Date(now * 1000), recorded);
  const ids = recorded.filter((event) => event.type === "job.expiring").map((event) => event.id);
  if (ids.length === 0) return [];
  const rows = await env.DB.prepare(`SELECT subject_id AS id FROM events WHERE id IN (${ids.map(() => "?").join(",")}) ORDER BY subject_id`).bind(...ids).all<{ id: number }>();
  return rows.results.map((row) => row.id);
}

const seedOne = async (employerId: number, closeDate: number, overrides: Parameters<typeof seedJobs>[3] = {}) =>
  (await seedJobs(env.DB, employerId, 1, { publishDate: NOW - DAY, closeDate, ...overrides }))[0]!;

beforeEach(async () => {
  await env.DB.batch([env.DB.prepare("DELETE FROM jobs"), env.DB.prepare("DELETE FROM events")]);
});

describe("job.expiring (DESIGN 21a)", () => {
  it("emitted for an active job whose closeDate is after the run and at most 72 hours after it; not before, not once closed", async () => {
    const { employerId } = await createEmployer();
    const within = await seedOne(employerId, NOW + 72 * HOUR);
    const soon = await seedOne(employerId, NOW + 1);
    await seedOne(employerId, NOW + 72 * HOUR + 1);
    await seedOne(employerId, NOW - 1); // closed: the expiry archives it in the same run
    await seedOne(employerId, NOW + DAY, { status: "draft" });
    await seedOne(employerId, NOW + DAY, { status: "archived" });
    expect(await run()).toEqual([within, soon].sort((a, b) => a - b));
  });

  it("once per closeDate: a second run emits nothing; a new closeDate within 72 hours emits it again", async () => {
    const employer = await createEmployer();
    const closeDate = Math.floor(Date.now() / 1000) + 2 * DAY;
    const job = await postJob(employer, { status: "active", closeDate: new Date(closeDate * 1000).toISOString() });
    const now = Math.floor(Date.now() / 1000);
    expect(await run(now)).toEqual([job.id]);
    expect(await run(now + HOUR)).toEqual([]);
    const moved = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { closeDate: new Date((closeDate + DAY) * 1000).toISOString() } });
    expect(moved.status).toBe(200);
    expect(await run(now + 2 * HOUR)).toEqual([job.id]);
    expect(await run(now + 3 * HOUR)).toEqual([]);
  });

  it("not for a job the cron keeps open (autoRefresh on the unlimited plan); autoRefresh on the standard plan still gets it", async () => {
    const unlimited = (await createEmployer({ plan: "unlimited" })).employerId;
    const standard = (await createEmployer({ plan: "standard" })).employerId;
    await seedOne(unlimited, NOW + DAY, { autoRefresh: true });
    const notRefreshed = await seedOne(unlimited, NOW + DAY, { autoRefresh: false });
    const standardRefresh = await seedOne(standard, NOW + DAY, { autoRefresh: true });
    expect(await run()).toEqual([notRefreshed, standardRefresh].sort((a, b) => a - b));
  });

  it("data is { job, etag, expiresAt } with expiresAt the job's closeDate, and the job as GET shows it", async () => {
    const employer = await createEmployer();
    const closeDate = Math.floor(Date.now() / 1000) + DAY;
    const job = await postJob(employer, { status: "active", closeDate: new Date(closeDate * 1000).toISOString() });
    await run(Math.floor(Date.now() / 1000));
    const event = await env.DB.prepare("SELECT type, data FROM events WHERE subject_id = ? AND type = 'job.expiring'").bind(job.id).first<{ type: string; data: string }>();
    const data = renderJobEventData(event!.type, event!.data) as Record<string, any>;
    const read = await request(`/jobs/${job.id}`, { apiKey: employer.apiKey });
    expect(data).toMatchObject({ job: await read.json(), etag: read.headers.get("ETag"), expiresAt: data.job.closeDate });
    expect(Date.parse(data.expiresAt) / 1000).toBe(closeDate);
  });

  it("the notice's statement searches jobs_expiry_idx (no scan of jobs)", async () => {
    const db = createDatabase(env.DB);
    const notices = scheduledRules(db, NOW).find((rule) => rule.rule === "expiring-notices")!;
    const { sql, params } = new SQLiteAsyncDialect().sqlToQuery(notices.statement as SQL);
    const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>()).results.map((row) => row.detail);
    expect(plan.some((step) => step.includes("jobs_expiry_idx"))).toBe(true);
    expect(plan.filter((step) => /^SCAN jobs\b/.test(step))).toEqual([]);
  });
});
