// DESIGN 16a, issue 39: what receipts cost. Receipts are written by the consumers, in the batch of
// their effect; a write (a request) writes none. So:
//
// - a consumer batch, timed inside workerd through the probe (bench/probe-receipts.ts): the board
//   consumer's D1 work for one queue batch (80 notices × 10 job events = 800 changes, each a new
//   revision of a seeded job, so every one applies: its board_jobs row rewritten, triggers and
//   all) and the webhooks fan-out of one queue batch (10 notices × 100 events of an employer with
//   one endpoint: a message per event), each with its receipts statement and without, in turn
//   (with, without; then without, with; …), medians.
//   Every call does fresh work (newer revisions, fresh event ids) and is checked to have done it.
//   Besides, the receipts statements by themselves (in a batch of their own): their own time.
// - a write: PUT by id's throughput over floor (c) in the same runtime, as bench/run.mjs measures
//   it, reported. Receipts do not touch the write path. Issue 39's "within 0.95 × of before" needs
//   the same API without receipts in the same run, which this row does not build; setting this
//   run's ratio against another run's is docs/performance.md's, which names both runs.
//
// Alone: `npm run bench -- --only receipts` (bench/lib/rows.mjs).
import { randomBytes } from "node:crypto";
import { load, ownConnection, send } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";
import { createEmployer, descriptionOf, seedJobs } from "./seed.mjs";

/** The board queue's batch as wrangler.toml and src/board/subscriber.ts size it: 80 notices of 10 events. */
const BOARD_NOTICES = 80;
const BOARD_EVENTS_PER_NOTICE = 10;
/** The webhooks queue's batch: 10 notices (max_batch_size) of 100 events (src/events/dispatch.ts IDS_PER_NOTICE). */
const WEBHOOK_NOTICES = 10;
const WEBHOOK_EVENTS_PER_NOTICE = 100;
/** The jobs whose events the batches read: one board batch's worth. */
const JOBS = BOARD_NOTICES * BOARD_EVENTS_PER_NOTICE;


const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An employer with JOBS active jobs, one webhook endpoint (every type) and one real PUT of each
 * job through the API: the events the batches read. Waits until the board's consumer took them all
 * (its receipts), so that nothing else runs on the board while the batches are timed.
 */
async function prepare(origin, { db, boardDb, kv, problems }) {
  const employer = await createEmployer(db, kv, "Bench Receipts Ltd.", "unlimited");
  const jobs = await seedJobs(db, employer.employerId, JOBS, { status: "active", description: descriptionOf(500) });
  const now = Date.now();
  await db
    .prepare("INSERT INTO webhook_endpoints (employer_id, url, events, description, enabled, secret, created_at) VALUES (?, ?, '[]', 'bench receipts', 1, ?, ?)")
    .bind(employer.employerId, "https://hooks.example.com/bench-receipts", `whsec_${randomBytes(24).toString("base64")}`, now)
    .run();
  // The PUTs, four at a time: each a job.updated event with the job's data, as the consumers read it.
  const statuses = {};
  let next = jobs.first;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      const via = ownConnection();
      while (next <= jobs.last) {
        const id = next++;
        const res = await send(origin, { host: HOSTS.api, method: "PUT", path: `/api/v1.1/jobs/${id}`, headers: { "API-Key": employer.apiKey, "Content-Type": "application/json" }, body: JSON.stringify({ title: `Receipts Clerk ${id}` }) }, via);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
      via.destroy();
    }),
  );
  if (statuses[200] !== JOBS) problems.push(`receipts: the PUTs that make the events answered ${JSON.stringify(statuses)}`);
  const { results } = await db.prepare("SELECT id FROM events WHERE employer_id = ? AND type = 'job.updated' ORDER BY seq").bind(employer.employerId).all();
  const ids = results.map((row) => row.id);
  if (ids.length !== JOBS) problems.push(`receipts: ${ids.length} job.updated events, not ${JOBS}`);
  // The board's consumer takes them through the relay and the queue; its receipts say when.
  const waiting = Date.now();
  let taken = 0;
  for (;;) {
    ({ taken } = await boardDb.prepare("SELECT count(*) AS taken FROM board_receipts WHERE event_id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(ids)).first());
    if (taken >= ids.length || Date.now() - waiting > 60_000) break;
    await pause(250);
  }
  if (taken < ids.length) problems.push(`receipts: the board's consumer took ${taken} of ${ids.length} events within 60 s`);
  return { employer, jobs, ids, takenAfterMs: Date.now() - waiting };
}

/** The probe's batch: `kind` over `notices` (lists of event ids), with receipts or without. */
async function batchOf(origin, body, via) {
  const res = await send(origin, { host: HOSTS.probe, method: "POST", path: "/__probe/receipts", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }, via);
  const outcome = JSON.parse(res.body);
  if (res.status !== 200) throw new Error(`receipts probe: ${res.status} ${outcome.error ?? res.body.slice(0, 300)}`);
  return outcome;
}

/**
 * `samples` batches each way, in turn; `run(receipts)` does one and answers `{ elapsedMs, … }`;
 * `check(receipts, outcome)` says what was wrong with it (null: it did its whole work).
 */
async function alternate(samples, run, check, problems, label) {
  const times = { with: [], without: [] };
  const outcomes = { with: [], without: [] };
  // Two of each first, not counted: the isolate's first calls, the gazetteer's first read, D1's cache.
  for (let i = 0; i < 2; i++) for (const receipts of [true, false]) await run(receipts);
  for (let round = 0; round < samples; round++) {
    for (const receipts of round % 2 ? [false, true] : [true, false]) {
      const outcome = await run(receipts);
      const wrong = check(receipts, outcome);
      if (wrong) problems.push(`receipts ${label} (${receipts ? "with" : "without"}): ${wrong}`);
      times[receipts ? "with" : "without"].push(outcome.elapsedMs);
      outcomes[receipts ? "with" : "without"].push(outcome);
    }
  }
  const withMs = median(times.with);
  const withoutMs = median(times.without);
  // Also each round's pair (the two batches next to each other), whose median follows a machine that drifts.
  const pairedTimeRatio = median(times.with.map((ms, i) => ms / times.without[i]));
  return {
    samples,
    withMs,
    withoutMs,
    timeRatio: withMs / withoutMs,
    throughputRatio: withoutMs / withMs,
    pairedTimeRatio,
    times,
    last: { with: outcomes.with.at(-1), without: outcomes.without.at(-1) },
  };
}

/** The board's and the webhooks' consumer batches, with receipts and without. */
export async function measureConsumerBatches(origin, { db, boardDb, prepared, samples, problems }) {
  const { ids, jobs } = prepared;
  const via = ownConnection();
  try {
    // --- board: 80 notices × 10 events, every change a newer revision -------------------
    const boardNotices = Array.from({ length: BOARD_NOTICES }, (_, i) => ids.slice(i * BOARD_EVENTS_PER_NOTICE, (i + 1) * BOARD_EVENTS_PER_NOTICE));
    const boardState = () =>
      boardDb
        .prepare("SELECT (SELECT sum(revision) FROM board_revisions WHERE job_id BETWEEN ?1 AND ?2) AS revisions, (SELECT count(*) FROM board_receipts) AS receipts")
        .bind(jobs.first, jobs.last)
        .first();
    let bump = 0;
    let before = null;
    const board = await alternate(
      samples,
      async (receipts) => {
        before = await boardState();
        const outcome = await batchOf(origin, { kind: "board", notices: boardNotices, receipts, bump: ++bump }, via);
        const after = await boardState();
        return { ...outcome, applied: after.revisions - before.revisions, receiptsWritten: after.receipts - before.receipts };
      },
      // bump grows by 1 a call: every job's revision by 1, so the sum grows by the jobs' count.
      (receipts, o) =>
        o.changes !== JOBS || o.applied !== JOBS || o.receiptsWritten !== (receipts ? JOBS : 0)
          ? `${o.changes} changes, revisions grew by ${o.applied} (not ${JOBS}), ${o.receiptsWritten} receipts written`
          : null,
      problems,
      "board",
    );
    // --- webhooks: 10 notices × 100 events (the 800 in turn), one endpoint: a message each ---
    const webhookNotices = Array.from({ length: WEBHOOK_NOTICES }, (_, i) =>
      Array.from({ length: WEBHOOK_EVENTS_PER_NOTICE }, (_, k) => ids[(i * WEBHOOK_EVENTS_PER_NOTICE + k) % ids.length]),
    );
    const webhookCount = () => db.prepare("SELECT (SELECT count(*) FROM webhook_messages) AS messages, (SELECT count(*) FROM webhook_receipts) AS receipts").first();
    const events = WEBHOOK_NOTICES * WEBHOOK_EVENTS_PER_NOTICE;
    const webhooks = await alternate(
      samples,
      async (receipts) => {
        const before = await webhookCount();
        const outcome = await batchOf(origin, { kind: "webhooks", notices: webhookNotices, receipts }, via);
        const after = await webhookCount();
        return { ...outcome, messagesWritten: after.messages - before.messages, receiptsWritten: after.receipts - before.receipts };
      },
      (receipts, o) =>
        o.events !== events || o.messagesWritten !== events || o.receiptsWritten !== (receipts ? events : 0)
          ? `${o.events} events, ${o.messagesWritten} messages written (not ${events}), ${o.receiptsWritten} receipts written`
          : null,
      problems,
      "webhooks",
    );
    // The receipts statements by themselves, as many calls as the batches each way.
    const alone = async (kind, notices) => {
      const times = [];
      for (let i = 0; i < samples; i++) times.push((await batchOf(origin, { kind, notices, receipts: true, alone: true }, via)).elapsedMs);
      return median(times);
    };
    board.aloneMs = await alone("board", boardNotices);
    webhooks.aloneMs = await alone("webhooks", webhookNotices);
    await restore({ db, boardDb, prepared, bump, problems });
    return {
      board: { notices: BOARD_NOTICES, eventsPerNotice: BOARD_EVENTS_PER_NOTICE, ...board },
      webhooks: { notices: WEBHOOK_NOTICES, eventsPerNotice: WEBHOOK_EVENTS_PER_NOTICE, ...webhooks },
    };
  } finally {
    via.destroy();
  }
}

/**
 * What the batches left, put back for the rows that follow in bench/run.mjs: the board's revisions
 * of these jobs back to the jobs' own (the board is compared with the jobs, and a rebuild keeps
 * board_revisions: a newer one there would keep the jobs off the rebuilt board), and the webhook
 * messages and endpoint gone (nobody delivers them; the cron's sweep would meet them).
 */
async function restore({ db, boardDb, prepared, bump, problems }) {
  const { jobs, employer } = prepared;
  // Only board_revisions holds the bumped revisions: board_jobs' row takes its revision from the job's data.
  await boardDb.prepare("UPDATE board_revisions SET revision = revision - ?3 WHERE job_id BETWEEN ?1 AND ?2").bind(jobs.first, jobs.last, bump).run();
  await db.batch([
    db.prepare("DELETE FROM webhook_messages WHERE employer_id = ?").bind(employer.employerId),
    db.prepare("DELETE FROM webhook_endpoints WHERE employer_id = ?").bind(employer.employerId),
  ]);
  const sumOf = (d, table, column) => d.prepare(`SELECT coalesce(sum(revision), 0) AS s, count(*) AS n FROM ${table} WHERE ${column} BETWEEN ?1 AND ?2`).bind(jobs.first, jobs.last).first();
  const [own, revisions, shown] = await Promise.all([sumOf(db, "jobs", "id"), sumOf(boardDb, "board_revisions", "job_id"), sumOf(boardDb, "board_jobs", "job_id")]);
  if (own.s !== revisions.s || own.s !== shown.s || shown.n !== own.n) {
    problems.push(`receipts: the board's revisions of its jobs not put back: jobs ${JSON.stringify(own)}, board_revisions ${JSON.stringify(revisions)}, board_jobs ${JSON.stringify(shown)}`);
  }
}

/**
 * PUT by id (a title, each job in turn) against floor (c), as bench/run.mjs measures every
 * operation: a warm-up of each, then floor, PUT, floor, …, floor; the PUT's mean req/s over the
 * floor's mean.
 */
export async function measureWriteRatio(origin, { writes, connections, seconds, rounds, problems }) {
  let next = writes.first;
  const put = {
    host: HOSTS.api,
    method: "PUT",
    headers: { "API-Key": writes.apiKey, "Content-Type": "application/json" },
    next: () => {
      const id = next;
      next = next === writes.last ? writes.first : next + 1;
      return { path: `/api/v1.1/jobs/${id}`, body: JSON.stringify({ title: `Payroll Specialist ${id}` }) };
    },
  };
  const floorC = { host: HOSTS.floor, path: "/floor/limited" };
  const slice = async (request, s = seconds) => {
    const result = await load(origin, { ...request, connections, seconds: s });
    const unexpected = Object.keys(result.statuses).filter((code) => code !== "200");
    if (unexpected.length || result.errors || result.timeouts) problems.push(`receipts write ${request.host}: ${JSON.stringify({ statuses: result.statuses, errors: result.errors, timeouts: result.timeouts })}`);
    return result.requestsPerSecond;
  };
  await slice(floorC, 1);
  await slice(put, 1);
  const floors = [];
  const puts = [];
  for (let i = 0; i < rounds; i++) {
    floors.push(await slice(floorC));
    puts.push(await slice(put));
  }
  floors.push(await slice(floorC));
  return { putRps: mean(puts), floorCRps: mean(floors), slices: { put: puts, floorC: floors }, rounds, seconds, connections, source: "measured by bench/lib/receipts.mjs" };
}

/**
 * The row: the consumer batches, and the write. `write` (optional): `{ putRps, floorCRps, source }`
 * already measured in this runtime (bench/run.mjs hands its PUT by id row); without it, measured here.
 */
export async function measureReceipts(origin, { db, boardDb, kv, samples, write, writes, connections, seconds, rounds, problems, step }) {
  const prepared = await prepare(origin, { db, boardDb, kv, problems });
  step(`receipts: ${prepared.ids.length} events of ${JOBS} jobs written, taken by the board's consumer ${prepared.takenAfterMs} ms after the last`);
  const consumers = await measureConsumerBatches(origin, { db, boardDb, prepared, samples, problems });
  for (const [name, c] of Object.entries(consumers)) {
    step(
      `receipts ${name}: ${c.notices} × ${c.eventsPerNotice} events, median ${c.withMs} ms with ÷ ${c.withoutMs} ms without = ${c.timeRatio.toFixed(3)} × time (${c.throughputRatio.toFixed(3)} × throughput; median of the pairs ${c.pairedTimeRatio.toFixed(3)} × time), ${c.samples} each; the receipts statement(s) alone ${c.aloneMs} ms`,
    );
  }
  const measuredWrite = write ?? (await measureWriteRatio(origin, { writes, connections, seconds, rounds, problems }));
  const ratio = measuredWrite.putRps / measuredWrite.floorCRps;
  const outcome = {
    ...consumers,
    write: { ...measuredWrite, ratio },
  };
  step(`receipts write: PUT by id ${measuredWrite.putRps.toFixed(0)} ÷ floor (c) ${measuredWrite.floorCRps.toFixed(0)} = ${ratio.toFixed(2)} ×`);
  return outcome;
}
