// Bench-only (never deployed): the probe's job-alert routes (DESIGN 23), so the harness
// (bench/lib/alerts.mjs) can measure inside workerd what the alerts queue's consumer and the
// cron do, through their own public functions: matching a job's events as a reverse search and
// a day's digests. The alerts queue and the EMAIL binding are replaced here by stubs that count
// (nothing leaves: no queue message waits in Miniflare, no email is sent); every D1 binding the
// alerts reach is counted by test/support/count-d1.ts, as the probe counts the API's.
import { boardEntryOf } from "../src/board/alerts";
import { consumeAlertsBatch, type AlertsQueueBody } from "../src/alerts/consumer";
import { createAlertsDatabase } from "../src/alerts/database/client";
import { candidateAlerts } from "../src/alerts/repository";
import { jobFactsOf, matches, termsOfAlert, termsOfJob, type AlertSearch } from "../src/alerts/rules";
import { runAlertsUpkeep } from "../src/alerts/scheduled";
import { nextScheduledAt, timeZoneOf, type Frequency, type Weekday } from "../src/alerts/schedule";
import { ALERT_EVENTS_PER_NOTICE } from "../src/alerts/subscriber";
import { createDatabase } from "../src/db/client";
import type { Env } from "../src/env";
import { findEvents } from "../src/events/repository";
import { jobOfEvent } from "../src/jobs/event-data";
import { countingD1 } from "../test/support/count-d1";

/** wrangler.toml's `max_batch_size` of the alerts queue's consumer: messages per batch. */
const MESSAGES_PER_BATCH = 10;
/** Alerts read and written per statement by the index route (a bench seed, not the Worker's code). */
const INDEX_CHUNK = 2_000;
/** Only when ALERTS_TOKEN_KEY is not set for the bench's environment: links still need a key. */
const BENCH_TOKEN_KEY = btoa("bench-alerts-token-key-32-bytes!");

interface Queued {
  body: AlertsQueueBody;
  attempts: number;
}

/**
 * The Worker's bindings as the alerts see them, with every D1 database behind a round-trip
 * counter, the alerts queue kept in memory (what is sent to it waits in `queued`) and the EMAIL
 * binding counting what it is given.
 */
function alertsEnv(env: Env) {
  const counters = { DB: countingD1(env.DB), BOARD_DB: countingD1(env.BOARD_DB), ALERTS_DB: countingD1(env.ALERTS_DB) };
  const queued: Queued[] = [];
  const emails = { sent: 0, bytes: 0 };
  const queue = {
    send: async (body: AlertsQueueBody) => void queued.push({ body, attempts: 1 }),
    sendBatch: async (messages: { body: AlertsQueueBody }[]) => void queued.push(...messages.map((message) => ({ body: message.body, attempts: 1 }))),
  };
  const email = {
    send: async (mail: { text?: string; html?: string }) => {
      emails.sent++;
      emails.bytes += (mail.text?.length ?? 0) + (mail.html?.length ?? 0);
    },
  };
  const wrapped: Env = {
    ...env,
    DB: counters.DB.db,
    BOARD_DB: counters.BOARD_DB.db,
    ALERTS_DB: counters.ALERTS_DB.db,
    ALERTS_QUEUE: queue as unknown as Env["ALERTS_QUEUE"],
    EMAIL: email as unknown as Env["EMAIL"],
    ALERTS_TOKEN_KEY: env.ALERTS_TOKEN_KEY ?? BENCH_TOKEN_KEY,
  };
  const trips = () => {
    const byBinding = Object.fromEntries(Object.entries(counters).map(([name, counter]) => [name, counter.count()]));
    return { ...byBinding, total: Object.values(counters).reduce((sum, counter) => sum + counter.count(), 0) };
  };
  return { env: wrapped, queued, emails, trips };
}

let messageSeq = 0;

/** A queue batch of these messages, as the alerts queue delivers it; a retried message goes back to `requeue`. */
function batchOf(items: Queued[], requeue: (item: Queued) => void): MessageBatch<AlertsQueueBody> {
  const messages = items.map((item) => ({
    id: `bench-${++messageSeq}`,
    timestamp: new Date(),
    body: item.body,
    attempts: item.attempts,
    ack() {},
    retry() {
      requeue({ body: item.body, attempts: item.attempts + 1 });
    },
  }));
  return {
    queue: "job-posting-alerts",
    messages,
    ackAll() {},
    retryAll() {
      for (const item of items) requeue({ body: item.body, attempts: item.attempts + 1 });
    },
  } as unknown as MessageBatch<AlertsQueueBody>;
}

/**
 * Delivers what waits in `queued` to the alerts consumer, batch after batch, until nothing is
 * left (what the consumer sends meanwhile is delivered too); a batch that throws is delivered
 * again, at most 3 times, as the queue would.
 */
async function drain(env: Env, queued: Queued[]): Promise<{ batches: number; messages: number; errors: string[] }> {
  let batches = 0;
  let messages = 0;
  const errors: string[] = [];
  while (queued.length) {
    const items = queued.splice(0, MESSAGES_PER_BATCH);
    batches++;
    messages += items.length;
    try {
      await consumeAlertsBatch(batchOf(items, (item) => queued.push(item)), env);
    } catch (error) {
      if (errors.length < 5) errors.push(String((error as Error)?.stack ?? error));
      for (const item of items) if (item.attempts < 3) queued.push({ body: item.body, attempts: item.attempts + 1 });
    }
  }
  return { batches, messages, errors };
}

/**
 * The seeded alerts' place in the reverse-search index (active ones) and their schedule, as confirming an
 * alert makes them (src/alerts/service.ts confirmAlert: termsOfAlert, nextScheduledAt), with the
 * time zone of their place or province (timeZoneOf), for every kept alert after `after`, set-based
 * in chunks. `terms=0`: the schedule alone (after the harness changed frequencies).
 */
async function index(url: URL, env: Env): Promise<Response> {
  const now = Number(url.searchParams.get("now") ?? Date.now());
  const withTerms = url.searchParams.get("terms") !== "0";
  const db = env.ALERTS_DB;
  const { results: places } = await env.BOARD_DB.prepare("SELECT id, province_code AS province FROM board_places").all<{ id: number; province: string }>();
  const provinceOf = new Map(places.map((place) => [place.id, place.province]));
  let after = Number(url.searchParams.get("after") ?? 0);
  let alerts = 0;
  let terms = 0;
  const started = Date.now();
  for (;;) {
    const { results } = await db
      .prepare(
        `SELECT id, status, search, near_latitude AS nearLatitude, near_longitude AS nearLongitude, frequency, hour, weekday, time_zone AS timeZone
        FROM alerts WHERE id > ? AND status IN ('active', 'paused') ORDER BY id LIMIT ?`,
      )
      .bind(after, INDEX_CHUNK)
      .all<{ id: number; status: string; search: string; nearLatitude: number | null; nearLongitude: number | null; frequency: Frequency; hour: number; weekday: Weekday; timeZone: string }>();
    if (results.length === 0) break;
    const rows = results.map((row) => {
      const search = JSON.parse(row.search) as AlertSearch;
      const timeZone = withTerms ? timeZoneOf((search.near !== undefined ? provinceOf.get(search.near) : undefined) ?? search.province) : row.timeZone;
      const centre = row.nearLatitude !== null && row.nearLongitude !== null ? { latitude: row.nearLatitude, longitude: row.nearLongitude } : null;
      return {
        id: row.id,
        timeZone,
        dueAt: nextScheduledAt({ frequency: row.frequency, hour: row.hour, weekday: row.weekday, timeZone }, now),
        // Only active alerts are filed (a paused one leaves the index: src/alerts/repository.ts setPaused).
        terms: withTerms && row.status === "active" ? termsOfAlert({ search, centre }) : [],
      };
    });
    const filed = rows.flatMap((row) => row.terms.map((term) => ({ term, id: row.id })));
    await db.batch([
      db
        .prepare("UPDATE alerts SET time_zone = j.value ->> 'timeZone', due_at = j.value ->> 'dueAt' FROM json_each(?) j WHERE alerts.id = j.value ->> 'id'")
        .bind(JSON.stringify(rows.map(({ id, timeZone, dueAt }) => ({ id, timeZone, dueAt })))),
      // Filed with the search and point the check reads, as src/alerts/repository.ts files them.
      ...(filed.length
        ? [
            db
              .prepare(
                `INSERT OR IGNORE INTO alert_terms (term, alert_id, search, near_latitude, near_longitude)
                SELECT f.value ->> 'term', a.id, a.search, a.near_latitude, a.near_longitude FROM json_each(?) f JOIN alerts a ON a.id = f.value ->> 'id'`,
              )
              .bind(JSON.stringify(filed)),
          ]
        : []),
    ]);
    alerts += rows.length;
    terms += filed.length;
    after = results.at(-1)!.id;
  }
  return Response.json({ alerts, terms, elapsedMs: Date.now() - started });
}

/**
 * Job events (POST `{ events, shard }`) through the alerts queue's consumer, as the relay hands
 * them over (ALERT_EVENTS_PER_NOTICE ids per notice, `max_batch_size` notices per batch): the
 * D1 round trips by binding and the time inside workerd. What matching sends to the queue
 * (instant alerts' gathering) is counted, not delivered.
 */
async function consume(request: Request, env: Env): Promise<Response> {
  const { events, shard = 0 } = (await request.json()) as { events: string[]; shard?: number };
  const probe = alertsEnv(env);
  const notices: Queued[] = [];
  for (let i = 0; i < events.length; i += ALERT_EVENTS_PER_NOTICE) notices.push({ body: { events: events.slice(i, i + ALERT_EVENTS_PER_NOTICE), shard }, attempts: 1 });
  const started = Date.now();
  let batches = 0;
  for (let i = 0; i < notices.length; i += MESSAGES_PER_BATCH) {
    await consumeAlertsBatch(batchOf(notices.slice(i, i + MESSAGES_PER_BATCH), () => {}), probe.env);
    batches++;
  }
  return Response.json({ events: events.length, batches, trips: probe.trips(), queued: probe.queued.length, elapsedMs: Date.now() - started });
}

/**
 * What the reverse search reads for one job event (no write): the terms the job is filed under,
 * the alerts filed under them (candidates) and those the board's rules match, through the same
 * public functions the consumer calls.
 */
async function candidates(url: URL, env: Env): Promise<Response> {
  const shard = Number(url.searchParams.get("shard") ?? 0);
  if (shard !== 0) return Response.json({ error: "shard 0 only" }, { status: 400 });
  const [event] = await findEvents(createDatabase(env.DB), [url.searchParams.get("event") ?? ""]);
  const nowSeconds = Math.floor(Date.now() / 1000);
  const entry = event ? await boardEntryOf(env, jobOfEvent(event.type, event.data), nowSeconds) : null;
  if (!entry) return Response.json({ error: "no such event, or its job is not on the board" }, { status: 404 });
  const job = jobFactsOf(entry);
  const terms = termsOfJob(job);
  const found = await candidateAlerts(createAlertsDatabase(env.ALERTS_DB), terms);
  const matching = found.filter((alert) =>
    matches({ search: JSON.parse(alert.search) as AlertSearch, centre: alert.nearLatitude !== null && alert.nearLongitude !== null ? { latitude: alert.nearLatitude, longitude: alert.nearLongitude } : null }, job, nowSeconds),
  );
  return Response.json({ jobId: entry.jobId, terms: terms.length, candidates: found.length, matching: matching.length });
}

/**
 * One cron run of the alerts (runAlertsUpkeep, its bounded chunks: at most 10 000 due alerts, 10
 * per message) at `now`, then every message it sent delivered to the consumer until none is left:
 * the emails built, handed over, sent to the counting EMAIL binding and recorded in the ledger.
 */
async function cron(url: URL, env: Env): Promise<Response> {
  const now = Number(url.searchParams.get("now"));
  const probe = alertsEnv(env);
  const started = Date.now();
  const run = await runAlertsUpkeep(probe.env, now);
  const upkeepMs = Date.now() - started;
  const drained = await drain(probe.env, probe.queued);
  const stage = run.stages.alertsDue;
  const due = stage?.outcome === "ok" ? Number(stage.due) : 0;
  return Response.json({
    now,
    due,
    stages: run.stages,
    errors: [...run.errors.map(String), ...drained.errors],
    messages: drained.messages,
    batches: drained.batches,
    emails: probe.emails.sent,
    emailBytes: probe.emails.bytes,
    trips: probe.trips(),
    upkeepMs,
    elapsedMs: Date.now() - started,
  });
}

/** The probe's alert routes, or null for any other path. */
export function alertsProbe(request: Request, url: URL, env: Env): Promise<Response> | null {
  switch (url.pathname) {
    case "/__probe/alerts/index":
      return index(url, env);
    case "/__probe/alerts/consume":
      return consume(request, env);
    case "/__probe/alerts/candidates":
      return candidates(url, env);
    case "/__probe/alerts/cron":
      return cron(url, env);
    default:
      return null;
  }
}
