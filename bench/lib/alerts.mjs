// Job alerts (DESIGN 23) in the benchmark: alerts of realistic variety seeded into ALERTS_DB
// set-based (filed in the reverse-search index and scheduled by the probe with the Worker's own
// functions), then, inside workerd through the probe (bench/probe-alerts.ts): matching one new
// job's event as the alerts queue's consumer does, at two sizes with the same true matches, its D1
// round trips, and a day's digests for every alert (the cron's runs, hour by hour, each handing
// its due alerts to the consumer until every email is built, recorded and given to a counting
// EMAIL binding), with workerd's memory sampled from here.
import { peakMemoryDuring } from "./board.mjs";
import { send } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";
import { createEmployer, descriptionOf, TITLES } from "./seed.mjs";

const API = "/api/v1.1";
const HOUR_MS = 3_600_000;
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What people type into a search: every word of the seeded job titles (so alerts share words with
 * jobs, as real ones do), a few prefixes (the board matches a word's start) and words no seeded
 * title has (an alert the reverse search files, which no job matches).
 */
const WORDS = [
  ...new Set(TITLES.flatMap((title) => title.toLowerCase().split(" "))),
  "account", "develop", "engineer", "nurs",
  "remote", "bilingual", "junior", "python", "java", "teacher", "chef", "receptionist", "paralegal", "architect",
  "consultant", "cashier", "supervisor", "director", "pharmacist", "electrical", "accounting", "logistics", "scientist", "translator",
];
/** Provinces weighted by population (one slot per about 1 % of Canadians): a province-wide search is as often Ontario's as it is. */
const PROVINCE_SLOTS = Object.entries({ ON: 39, QC: 22, BC: 14, AB: 12, MB: 4, SK: 3, NS: 3, NB: 2, NL: 1, PE: 1, NT: 1, YT: 1, NU: 1 }).flatMap(([code, n]) => Array(n).fill(code));
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/**
 * Public places with coordinates, one slot per 50 000 people (at least one), as the job seed draws
 * them: a radius search is around Toronto far more often than around a hamlet.
 */
async function placeSlots(db) {
  const { results } = await db
    .prepare(
      `SELECT id, latitude, longitude, province_code AS province, description, coalesce(population, 0) AS population FROM locations
      WHERE owner_employer_id IS NULL AND type <> 'Province' AND latitude IS NOT NULL ORDER BY id`,
    )
    .all();
  return {
    slots: results.flatMap((p) => Array(Math.max(1, Math.round(p.population / 50_000))).fill([p.id, p.latitude, p.longitude, p.province, p.description])),
    largest: [...results].sort((a, b) => b.population - a.population),
  };
}

/**
 * `count` confirmed, active alerts after those stored, in one set-based statement. The search's
 * kind by a scramble of the row number (in twentieths): words alone (one word, or two), words in
 * a province, words around a place (radius 25, 50 or 100 km, or the default), a place alone or with
 * a category, a province with a category, a province alone, a category alone, a position type in
 * a province, words with a minimum salary. Frequencies 20 % instant, 60 % daily, 20 % weekly;
 * 6 in 10 at 8 h (the form's default), the others at any hour; French for Quebec's and 1 in 17 others.
 * Their time zone, schedule and index terms are the probe's (`/__probe/alerts/index`).
 */
export async function seedAlerts(alertsDb, { count, places, categories, now }) {
  await alertsDb
    .prepare(
      `INSERT INTO alerts (email, email_key, status, language, frequency, hour, weekday, time_zone, search, near_latitude, near_longitude,
        place_name, origin, token_nonce, confirm_hash, manage_hash, feed_hash, renewed_at, consent_text_version, consent_text_sha256, source,
        created_at, client_address, user_agent, confirmed_at)
      WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1),
        words AS MATERIALIZED (SELECT key AS k, value AS word FROM json_each(?2)),
        places AS MATERIALIZED (SELECT key AS k, value ->> 0 AS id, value ->> 1 AS lat, value ->> 2 AS lon, value ->> 3 AS province, value ->> 4 AS name FROM json_each(?3)),
        provinces AS MATERIALIZED (SELECT key AS k, value AS code FROM json_each(?4)),
        scrambled AS (SELECT b.base + n AS m, ((b.base + n) * 2654435761) % 1000003 AS h, ((b.base + n) * 40503) % 999983 AS g
          FROM seq, (SELECT coalesce(max(id), 0) AS base FROM alerts) b),
        shaped AS (
          SELECT s.m, s.h, s.g, s.h % 20 AS kind, w1.word AS w1, w2.word AS w2, p.id AS placeId, p.lat, p.lon, p.province AS placeProvince, p.name AS placeName, pr.code AS province
          FROM scrambled s
          JOIN words w1 ON w1.k = (s.h / 20) % ?5
          JOIN words w2 ON w2.k = (s.g / 7) % ?5
          JOIN places p ON p.k = s.g % ?6
          JOIN provinces pr ON pr.k = (s.h / 400) % ?7)
      SELECT 'seeker' || (m * 2 / 3) || '@mail.example', 'seeker' || (m * 2 / 3) || '@mail.example', 'active',
        CASE WHEN (CASE WHEN kind BETWEEN 9 AND 13 THEN placeProvince ELSE province END) = 'QC' OR h % 17 = 0 THEN 'fr' ELSE 'en' END,
        CASE WHEN g % 10 < 2 THEN 'instant' WHEN g % 10 < 8 THEN 'daily' ELSE 'weekly' END,
        CASE WHEN (h / 3) % 10 < 6 THEN 8 ELSE (h / 31) % 24 END,
        json_extract(?8, '$[' || ((g / 3) % 7) || ']'),
        'America/Toronto',
        json_patch('{}', json_object(
          'q', CASE WHEN kind BETWEEN 4 AND 5 THEN w1 || ' ' || w2 WHEN kind <= 11 OR kind = 19 THEN w1 END,
          'near', CASE WHEN kind BETWEEN 9 AND 13 THEN placeId END,
          'radiusKm', CASE WHEN kind BETWEEN 9 AND 13 THEN CASE g % 4 WHEN 1 THEN 25 WHEN 2 THEN 50 WHEN 3 THEN 100 END END,
          'province', CASE WHEN kind IN (6, 7, 8, 14, 15, 16, 18) THEN province END,
          'category', CASE WHEN kind IN (13, 14, 15, 17) THEN 1 + (h / 7) % ?9 END,
          'positionType', CASE WHEN kind = 18 THEN 1 + (g / 11) % 5 END,
          'salaryMin', CASE WHEN kind = 19 THEN 40000 + ((h / 13) % 8) * 10000 END)),
        CASE WHEN kind BETWEEN 9 AND 13 THEN lat END, CASE WHEN kind BETWEEN 9 AND 13 THEN lon END,
        CASE WHEN kind BETWEEN 9 AND 13 AND h % 4 <> 0 THEN placeName END,
        'https://jobs.example.com', 'bench-' || m, 'bench-c-' || m, 'bench-m-' || m, 'bench-f-' || m,
        ?10 - (h % 300) * 86400000 + 600000, '1', 'bench', CASE WHEN h % 4 = 0 THEN 'api' ELSE 'page' END,
        ?10 - (h % 300) * 86400000, '192.0.2.' || (h % 250), 'Mozilla/5.0 (bench)', ?10 - (h % 300) * 86400000 + 600000
      FROM shaped`,
    )
    .bind(
      count,
      JSON.stringify(WORDS),
      JSON.stringify(places),
      JSON.stringify(PROVINCE_SLOTS),
      WORDS.length,
      places.length,
      PROVINCE_SLOTS.length,
      JSON.stringify(WEEKDAYS),
      categories,
      now,
    )
    .run();
  return (await alertsDb.prepare("SELECT max(id) AS last FROM alerts").first()).last;
}

/** The seeded alerts after `after` filed in the index and scheduled, by the probe. */
async function indexAlerts(origin, { after, now, terms = true, problems }) {
  const res = await send(origin, { host: HOSTS.probe, path: `/__probe/alerts/index?after=${after}&now=${now}&terms=${terms ? 1 : 0}` });
  if (res.status !== 200) {
    problems.push(`alerts index: ${res.status} ${res.body.slice(0, 500)}`);
    return { alerts: 0, terms: 0 };
  }
  return JSON.parse(res.body);
}

/**
 * The day's new jobs, posted through the API (each with its job.created event in the outbox, as
 * the relay hands it to the alerts queue): the seed's titles, the largest places in turn, every
 * category and position type. The first is the job whose matching is timed.
 */
async function postJobs(origin, { db, kv, boardDb, count, largest, categories, problems }) {
  const employer = await createEmployer(db, kv, "Bench Alerts Ltd.", "unlimited");
  const headers = { "API-Key": employer.apiKey, "Content-Type": "application/json" };
  const jobs = [];
  for (let i = 0; i < count; i++) {
    const place = largest[i % Math.min(20, largest.length)];
    const body = {
      title: TITLES[i % TITLES.length],
      status: "active",
      locations: [{ description: place.description }],
      categories: [{ id: 1 + (i % categories) }],
      positionType: { id: 1 + (i % 5) },
      salary: { amount: 50000 + (i % 8) * 10000, maxAmount: 60000 + (i % 8) * 10000, type: { id: 1 }, plusCommission: false },
      description: descriptionOf(500),
      applicantRoutingType: { id: 2 },
      applicationUrl: "https://careers.example.com/apply",
    };
    const res = await send(origin, { host: HOSTS.api, method: "POST", path: `${API}/jobs`, headers, body: JSON.stringify(body) });
    if (res.status !== 201) {
      problems.push(`alerts: POST job ${i}: ${res.status} ${res.body.slice(0, 300)}`);
      continue;
    }
    jobs.push({ jobId: JSON.parse(res.body).id, title: body.title, place: place.description });
  }
  const { results } = await db
    .prepare("SELECT id, subject_id AS jobId FROM events WHERE employer_id = ? AND type = 'job.created'")
    .bind(employer.employerId)
    .all();
  const eventOf = new Map(results.map((row) => [row.jobId, row.id]));
  for (const job of jobs) job.eventId = eventOf.get(job.jobId);
  const missing = jobs.filter((job) => !job.eventId);
  if (missing.length) problems.push(`alerts: ${missing.length} posted jobs without a job.created event in the outbox`);
  // The digests hold only jobs on the board: wait until the board's consumer has them all.
  const ids = JSON.stringify(jobs.map((job) => job.jobId));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(250)) {
    const { n } = await boardDb.prepare("SELECT count(*) AS n FROM board_jobs WHERE job_id IN (SELECT value FROM json_each(?))").bind(ids).first();
    if (n === jobs.length) return jobs.filter((job) => job.eventId);
  }
  problems.push("alerts: the posted jobs did not all reach the board within 60 s");
  return jobs.filter((job) => job.eventId);
}

/** The job's matches taken back (and its instant alerts' gathering), so that the next match is a new job's again; how many it had. */
async function forgetMatches(alertsDb, jobId) {
  const { n } = await alertsDb.prepare("SELECT count(*) AS n FROM alert_matches WHERE job_id = ?").bind(jobId).first();
  await alertsDb.batch([
    alertsDb.prepare("UPDATE alerts SET due_at = NULL WHERE frequency = 'instant' AND id IN (SELECT alert_id FROM alert_matches WHERE job_id = ?)").bind(jobId),
    alertsDb.prepare("DELETE FROM alert_matches WHERE job_id = ?").bind(jobId),
  ]);
  return n;
}

const consume = (origin, events) =>
  send(origin, { host: HOSTS.probe, method: "POST", path: "/__probe/alerts/consume", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ events }) });

/**
 * One job's event through the consumer, `samples` times (after 3 unmeasured), one at a time from
 * here, each time a new job for the alerts (its matches taken back in between, unmeasured): the
 * time of the request, the time inside workerd, the round trips, the true matches; and what the
 * reverse search reads for it.
 */
async function measureMatch(origin, { alertsDb, job, alerts, samples, problems, label }) {
  const times = [];
  const inside = [];
  const trips = [];
  const matched = new Set();
  let first = null;
  for (let i = 0; i < samples + 3; i++) {
    const res = await consume(origin, [job.eventId]);
    if (res.status !== 200) {
      problems.push(`alerts match (${label}): ${res.status} ${res.body.slice(0, 500)}`);
      break;
    }
    const body = JSON.parse(res.body);
    first ??= body.trips;
    if (i >= 3) {
      times.push(res.ms);
      inside.push(body.elapsedMs);
      trips.push(body.trips);
    }
    matched.add(await forgetMatches(alertsDb, job.jobId));
  }
  if (matched.size > 1) problems.push(`alerts match (${label}): the same job matched ${[...matched].join(", ")} alerts in turn`);
  const read = await send(origin, { host: HOSTS.probe, path: `/__probe/alerts/candidates?event=${job.eventId}` });
  if (read.status !== 200) problems.push(`alerts candidates (${label}): ${read.status} ${read.body.slice(0, 300)}`);
  const reverse = read.status === 200 ? JSON.parse(read.body) : {};
  times.sort((a, b) => a - b);
  inside.sort((a, b) => a - b);
  const warm = trips.reduce((worst, t) => (t.total > worst.total ? t : worst), trips[0] ?? { total: null });
  return {
    alerts,
    samples: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    insideP50: percentile(inside, 0.5),
    matched: [...matched][0] ?? null,
    terms: reverse.terms ?? null,
    candidates: reverse.candidates ?? null,
    matching: reverse.matching ?? null,
    trips: { first, warm },
  };
}

/**
 * Everything above, in order: the day's jobs posted; `small` alerts seeded and one job matched;
 * `large` in all and the same job matched, the added alerts that match it paused first so both
 * sizes have the same true matches (paused as the Worker pauses them: out of the index); every
 * alert active again and all the day's jobs matched, one event at a time; then the first `digests`
 * alerts (all of them at the sizes; fewer for a shorter run, the others paused) made daily
 * and a day of hourly cron runs (24, at scheduledTimes an hour apart), each run's due alerts
 * delivered to the consumer until every email is built and sent.
 */
export async function measureAlerts(origin, { db, kv, boardDb, alertsDb, small, large, digests: digestAlerts, dayJobs, samples, problems, step }) {
  const { slots, largest } = await placeSlots(db);
  const { categories } = await db.prepare("SELECT count(*) AS categories FROM categories").first();
  const jobs = await postJobs(origin, { db, kv, boardDb, count: dayJobs, largest, categories, problems });
  const job = jobs[0];
  if (!job) {
    problems.push("alerts: no job to match");
    return null;
  }
  step(`alerts: ${jobs.length} jobs posted for the day (the timed one: ${job.title}, ${job.place}, job ${job.jobId})`);

  const seedNow = Date.now();
  let t = Date.now();
  const smallLast = await seedAlerts(alertsDb, { count: small, places: slots, categories, now: seedNow });
  const smallIndex = await indexAlerts(origin, { after: 0, now: seedNow, problems });
  step(`alerts: seeded ${small} alerts, ${smallIndex.terms} index terms (${Date.now() - t} ms)`);
  const atSmall = await measureMatch(origin, { alertsDb, job, alerts: small, samples, problems, label: `${small} alerts` });
  step(`alerts match at ${small}: p50 ${atSmall.p50?.toFixed(2)} ms (inside ${atSmall.insideP50} ms), ${atSmall.matched} true matches of ${atSmall.candidates} candidates, ${atSmall.trips.warm.total} round trips`);

  t = Date.now();
  await seedAlerts(alertsDb, { count: large - small, places: slots, categories, now: seedNow });
  const largeIndex = await indexAlerts(origin, { after: smallLast, now: seedNow, problems });
  const seedMs = Date.now() - t;
  step(`alerts: seeded ${large - small} more (${large} in all), ${largeIndex.terms} more index terms (${seedMs} ms)`);
  // The same true matches at both sizes: of the added alerts, those the job matches are paused,
  // as the Worker pauses them (src/alerts/repository.ts setPaused): out of the reverse-search
  // index. Their index rows are kept here, to file them again when every alert is active again.
  const warmUp = await consume(origin, [job.eventId]);
  if (warmUp.status !== 200) problems.push(`alerts match (warm-up at ${large}): ${warmUp.status} ${warmUp.body.slice(0, 300)}`);
  const { results: toPause } = await alertsDb
    .prepare("SELECT id FROM alerts WHERE id > ? AND status = 'active' AND id IN (SELECT alert_id FROM alert_matches WHERE job_id = ?)")
    .bind(smallLast, job.jobId)
    .all();
  const pausedIds = JSON.stringify(toPause.map((row) => row.id));
  const { results: pausedTerms } = await alertsDb.prepare("SELECT term, alert_id AS alertId FROM alert_terms WHERE alert_id IN (SELECT value FROM json_each(?))").bind(pausedIds).all();
  await alertsDb.batch([
    alertsDb.prepare("UPDATE alerts SET status = 'paused' WHERE id IN (SELECT value FROM json_each(?))").bind(pausedIds),
    alertsDb.prepare("DELETE FROM alert_terms WHERE alert_id IN (SELECT value FROM json_each(?))").bind(pausedIds),
  ]);
  const paused = toPause.length;
  await forgetMatches(alertsDb, job.jobId);
  const atLarge = await measureMatch(origin, { alertsDb, job, alerts: large, samples, problems, label: `${large} alerts` });
  if (atLarge.matched !== atSmall.matched) problems.push(`alerts match: ${atSmall.matched} true matches at ${small} alerts, ${atLarge.matched} at ${large}`);
  const ratio = atLarge.p50 / atSmall.p50;
  step(
    `alerts match at ${large}: p50 ${atLarge.p50?.toFixed(2)} ms (inside ${atLarge.insideP50} ms) = ${ratio.toFixed(2)} × at ${small}; ` +
      `${atLarge.matched} true matches of ${atLarge.candidates} candidates (${paused} added alerts matching it paused), ${atLarge.trips.warm.total} round trips`,
  );
  await alertsDb.batch([
    alertsDb.prepare("UPDATE alerts SET status = 'active' WHERE status = 'paused'"),
    alertsDb
      .prepare(
        `INSERT OR IGNORE INTO alert_terms (term, alert_id, search, near_latitude, near_longitude)
        SELECT t.value ->> 'term', a.id, a.search, a.near_latitude, a.near_longitude FROM json_each(?) t JOIN alerts a ON a.id = t.value ->> 'alertId'`,
      )
      .bind(JSON.stringify(pausedTerms)),
  ]);

  // The day's jobs, one event at a time as they come in over a day, through the consumer.
  const dayTimes = [];
  const dayTrips = [];
  const dayStarted = process.hrtime.bigint();
  for (const j of jobs) {
    const res = await consume(origin, [j.eventId]);
    if (res.status !== 200) {
      problems.push(`alerts day matching (job ${j.jobId}): ${res.status} ${res.body.slice(0, 500)}`);
      continue;
    }
    dayTimes.push(res.ms);
    dayTrips.push(JSON.parse(res.body).trips.total);
  }
  dayTimes.sort((a, b) => a - b);
  const dayMatching = {
    jobs: jobs.length,
    wallMs: Number(process.hrtime.bigint() - dayStarted) / 1e6,
    p50: percentile(dayTimes, 0.5),
    max: dayTimes.at(-1),
    maxTrips: Math.max(0, ...dayTrips),
    ...(await alertsDb.prepare("SELECT count(*) AS matches, count(DISTINCT alert_id) AS alertsMatched FROM alert_matches").first()),
  };
  step(
    `alerts: the day's ${jobs.length} jobs matched one by one at ${large} alerts: p50 ${dayMatching.p50?.toFixed(1)} ms, slowest ${dayMatching.max?.toFixed(1)} ms, ` +
      `at most ${dayMatching.maxTrips} round trips; ${dayMatching.matches} matches for ${dayMatching.alertsMatched} alerts`,
  );

  // A day of digests for the first `digests` alerts (every kind of search is among them; the
  // others paused): each daily, scheduled from the day's start, then the cron every hour for 24 hours.
  await alertsDb.prepare("UPDATE alerts SET status = 'paused' WHERE status = 'active' AND id > ?").bind(digestAlerts).run();
  await alertsDb.prepare("UPDATE alerts SET frequency = 'daily' WHERE status = 'active'").run();
  // The day starts at the next 05:00 UTC (midnight in Toronto in winter, 1 h in summer), so the
  // busiest hour (8 h in Toronto) falls early in it whenever the bench runs.
  const dayStart = Math.ceil((Date.now() - 5 * HOUR_MS) / (24 * HOUR_MS)) * 24 * HOUR_MS + 5 * HOUR_MS;
  await indexAlerts(origin, { after: 0, now: dayStart, terms: false, problems });
  const { alerts, expected } = await alertsDb
    .prepare(
      `SELECT (SELECT count(*) FROM alerts WHERE status = 'active' AND due_at <= ?1) AS alerts,
        (SELECT count(DISTINCT m.alert_id) FROM alert_matches m JOIN alerts a ON a.id = m.alert_id
          WHERE m.send_id IS NULL AND m.gone = 0 AND a.status = 'active' AND a.due_at <= ?1) AS expected`,
    )
    .bind(dayStart + 24 * HOUR_MS)
    .first();
  const runs = [];
  const started = process.hrtime.bigint();
  const { peak } = await peakMemoryDuring(async () => {
    for (let hour = 1; hour <= 24; hour++) {
      const res = await send(origin, { host: HOSTS.probe, path: `/__probe/alerts/cron?now=${dayStart + hour * HOUR_MS}` });
      if (res.status !== 200) {
        problems.push(`alerts cron (hour ${hour}): ${res.status} ${res.body.slice(0, 500)}`);
        continue;
      }
      const run = JSON.parse(res.body);
      if (run.errors.length) problems.push(`alerts cron (hour ${hour}): ${run.errors.join("; ").slice(0, 500)}`);
      runs.push({ hour, ms: res.ms, due: run.due, emails: run.emails, emailBytes: run.emailBytes, messages: run.messages, trips: run.trips.total, elapsedMs: run.elapsedMs });
    }
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const after = await alertsDb
    .prepare(
      `SELECT (SELECT count(*) FROM alerts WHERE status = 'active' AND due_at <= ?1) AS left,
        (SELECT count(*) FROM alert_sends WHERE kind = 'alert' AND status = 'sent') AS sent,
        (SELECT count(*) FROM alert_sends WHERE kind = 'alert' AND status <> 'sent') AS notSent`,
    )
    .bind(dayStart + 24 * HOUR_MS)
    .first();
  const sum = (field) => runs.reduce((total, run) => total + run[field], 0);
  const digests = {
    alerts,
    expectedEmails: expected,
    runs: runs.length,
    due: sum("due"),
    emails: sum("emails"),
    emailBytes: sum("emailBytes"),
    trips: sum("trips"),
    maxDuePerRun: Math.max(0, ...runs.map((run) => run.due)),
    busiestRunMs: Math.max(0, ...runs.map((run) => run.ms)),
    wallMs,
    insideMs: sum("elapsedMs"),
    ...after,
    peak,
    perRun: runs,
  };
  digests.alertsPerSecond = (digests.due * 1000) / wallMs;
  digests.emailsPerSecond = (digests.emails * 1000) / wallMs;
  if (digests.due !== alerts || digests.left !== 0) problems.push(`alerts digests: ${alerts} alerts due in the day, ${digests.due} handled by the cron, ${digests.left} still due after it`);
  if (digests.emails !== expected || digests.sent !== expected || digests.notSent !== 0) {
    problems.push(`alerts digests: ${expected} alerts had new matches; ${digests.emails} emails sent, ledger ${digests.sent} sent and ${digests.notSent} not`);
  }
  const mib = (bytes) => (bytes == null ? "?" : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
  step(
    `alerts digests: ${digests.due} alerts in ${(wallMs / 1000).toFixed(1)} s (${digests.alertsPerSecond.toFixed(0)} alerts/s), ${digests.emails} emails, ` +
      `${digests.trips} round trips, busiest run ${digests.maxDuePerRun} alerts in ${digests.busiestRunMs.toFixed(0)} ms; ` +
      `workerd RSS ${mib(peak.workerdRssAtStartBytes)} at the start, peak ${mib(peak.workerdRssBytes)} (high-water ${mib(peak.workerdRssHighWaterBytes)})`,
  );
  return {
    sizes: { small, large, digests: digestAlerts },
    job: { jobId: job.jobId, title: job.title, place: job.place },
    seed: { small: smallIndex, large: largeIndex, largeMs: seedMs },
    match: { small: atSmall, large: atLarge, paused, ratio },
    dayMatching,
    digests,
  };
}
