import { sql, type SQL } from "drizzle-orm";
import { all, batch, type AlertsDatabase } from "./database/client";
import type { AlertSearch, JobCard } from "./rules";
import type { Frequency, Weekday } from "./schedule";

// The one repository of job alerts (DESIGN 23): every read and write of ALERTS_DB. Writes that
// touch several tables go as one batch (one transaction).

/** An alert as stored (src/alerts/database/tables.ts). */
export interface AlertRow {
  id: number;
  email: string;
  emailKey: string;
  status: "pending" | "active" | "paused" | "ended";
  language: "en" | "fr";
  frequency: Frequency;
  hour: number;
  weekday: Weekday;
  timeZone: string;
  search: string;
  nearLatitude: number | null;
  nearLongitude: number | null;
  placeName: string | null;
  origin: string;
  tokenNonce: string;
  dueAt: number | null;
  lastSentAt: number | null;
  keepAskedAt: number | null;
  createdAt: number;
  confirmedAt: number | null;
  endedAt: number | null;
}

const ALERT_COLUMNS = sql.raw(
  `id, email, email_key AS emailKey, status, language, frequency, hour, weekday, time_zone AS timeZone, search,
   near_latitude AS nearLatitude, near_longitude AS nearLongitude, place_name AS placeName, origin, token_nonce AS tokenNonce, due_at AS dueAt,
   last_sent_at AS lastSentAt, keep_asked_at AS keepAskedAt, created_at AS createdAt, confirmed_at AS confirmedAt, ended_at AS endedAt`,
);

export const searchOfRow = (row: Pick<AlertRow, "search">) => JSON.parse(row.search) as AlertSearch;

/** DESIGN 23: at most 20 alerts per address (ended ones aside), at most 3 confirmation emails per address per day. */
export const ALERTS_PER_ADDRESS = 20;
export const CONFIRMATIONS_PER_DAY = 3;

export interface NewAlert {
  email: string;
  emailKey: string;
  language: "en" | "fr";
  frequency: Frequency;
  hour: number;
  weekday: Weekday;
  timeZone: string;
  search: AlertSearch;
  near: { latitude: number; longitude: number } | null;
  placeName: string | null;
  origin: string;
  tokenNonce: string;
  confirmHash: string;
  manageHash: string;
  feedHash: string;
  consentTextVersion: string;
  consentTextSha256: string;
  source: "page" | "api";
  createdAt: number;
  clientAddress: string | null;
  userAgent: string | null;
}

/**
 * Stores a pending alert and its confirmation email's ledger row, in one batch, only within the
 * address's limits (checked in the same statement, so two requests at once cannot pass them
 * together). Returns the ledger row to send, or null when a limit held it back (nothing stored).
 */
export async function insertPendingAlert(db: AlertsDatabase, alert: NewAlert): Promise<number | null> {
  const day = Math.floor(alert.createdAt / 86_400_000);
  const results = await batch(db, [
    sql`INSERT INTO alerts (email, email_key, status, language, frequency, hour, weekday, time_zone, search, near_latitude, near_longitude,
          place_name, origin, token_nonce, confirm_hash, manage_hash, feed_hash, consent_text_version, consent_text_sha256, source, created_at, client_address, user_agent)
        SELECT ${alert.email}, ${alert.emailKey}, 'pending', ${alert.language}, ${alert.frequency}, ${alert.hour}, ${alert.weekday}, ${alert.timeZone},
          ${JSON.stringify(alert.search)}, ${alert.near?.latitude ?? null}, ${alert.near?.longitude ?? null}, ${alert.placeName}, ${alert.origin}, ${alert.tokenNonce}, ${alert.confirmHash},
          ${alert.manageHash}, ${alert.feedHash}, ${alert.consentTextVersion}, ${alert.consentTextSha256}, ${alert.source}, ${alert.createdAt},
          ${alert.clientAddress}, ${alert.userAgent}
        WHERE (SELECT count(*) FROM alerts WHERE email_key = ${alert.emailKey} AND status <> 'ended') < ${ALERTS_PER_ADDRESS}
          AND coalesce((SELECT confirmations FROM alert_address_days WHERE email_key = ${alert.emailKey} AND day = ${day}), 0) < ${CONFIRMATIONS_PER_DAY}`,
    sql`INSERT INTO alert_address_days (email_key, day, confirmations)
        SELECT ${alert.emailKey}, ${day}, 1 WHERE EXISTS (SELECT 1 FROM alerts WHERE confirm_hash = ${alert.confirmHash})
        ON CONFLICT (email_key, day) DO UPDATE SET confirmations = confirmations + 1`,
    sql`INSERT INTO alert_sends (alert_id, period, kind, status, created_at)
        SELECT id, 'confirm', 'confirm', 'pending', ${alert.createdAt} FROM alerts WHERE confirm_hash = ${alert.confirmHash}
        RETURNING id`,
  ]);
  const sent = results[2].results as { id: number }[];
  return sent[0]?.id ?? null;
}

export type TokenColumn = "confirm_hash" | "manage_hash" | "feed_hash";

export async function alertByTokenHash(db: AlertsDatabase, column: TokenColumn, hash: string): Promise<AlertRow | undefined> {
  const rows = await all<AlertRow>(db, sql`SELECT ${ALERT_COLUMNS} FROM alerts WHERE ${sql.raw(column)} = ${hash}`);
  return rows[0];
}

export async function alertById(db: AlertsDatabase, id: number): Promise<AlertRow | undefined> {
  return (await all<AlertRow>(db, sql`SELECT ${ALERT_COLUMNS} FROM alerts WHERE id = ${id}`))[0];
}

/** Every alert of an address still kept and not ended (the manage page), oldest first. */
export function alertsOfAddress(db: AlertsDatabase, emailKey: string): Promise<AlertRow[]> {
  return all<AlertRow>(db, sql`SELECT ${ALERT_COLUMNS} FROM alerts WHERE email_key = ${emailKey} AND status IN ('active', 'paused') ORDER BY id`);
}

/** Files an alert under `terms` in the reverse-search index, with its search and point, when `when` holds. */
const fileAlert = (id: number, terms: string[], when: SQL) =>
  sql`INSERT OR IGNORE INTO alert_terms (term, alert_id, search, near_latitude, near_longitude)
      SELECT t.value, a.id, a.search, a.near_latitude, a.near_longitude FROM json_each(${JSON.stringify(terms)}) t, alerts a WHERE a.id = ${id} AND ${when}`;

/**
 * Activates a pending alert: its schedule, its terms in the reverse-search index, and the
 * confirmation in its record, in one batch. The terms and the record follow only the update
 * that did it (its `confirmed_at` is this call's `now`), so a second POST changes nothing.
 */
export async function activateAlert(db: AlertsDatabase, id: number, now: number, dueAt: number | null, terms: string[]): Promise<void> {
  const didIt = sql`(SELECT confirmed_at FROM alerts WHERE id = ${id} AND status = 'active') = ${now}`;
  await batch(db, [
    sql`UPDATE alerts SET status = 'active', confirmed_at = ${now}, renewed_at = ${now}, due_at = ${dueAt} WHERE id = ${id} AND status = 'pending'`,
    fileAlert(id, terms, didIt),
    sql`INSERT INTO alert_changes (alert_id, at, change) SELECT ${id}, ${now}, 'confirmed' WHERE ${didIt}`,
  ]);
}

/**
 * "This was not me": a pending alert goes with its ledger rows, in one batch; an alert confirmed
 * meanwhile is left alone (both statements check it is still pending). True when it was deleted.
 */
export async function deletePendingAlert(db: AlertsDatabase, id: number): Promise<boolean> {
  const results = await batch(db, [
    sql`DELETE FROM alert_sends WHERE alert_id = ${id} AND (SELECT status FROM alerts WHERE id = ${id}) = 'pending'`,
    sql`DELETE FROM alerts WHERE id = ${id} AND status = 'pending'`,
  ]);
  return (results[1].meta.changes ?? 0) > 0;
}

/**
 * Ends an alert (unsubscribe, delete, bounce, complaint, no answer to the keep email): out of the
 * index, no email built or sent after this (pending ones cancelled), the change recorded once.
 */
export async function endAlerts(db: AlertsDatabase, ids: number[], change: string, now: number): Promise<void> {
  if (ids.length === 0) return;
  const list = JSON.stringify(ids);
  await batch(db, [
    sql`INSERT INTO alert_changes (alert_id, at, change) SELECT id, ${now}, ${change} FROM alerts WHERE id IN (SELECT value FROM json_each(${list})) AND status IN ('active', 'paused')`,
    sql`UPDATE alerts SET status = 'ended', ended_at = ${now}, due_at = NULL WHERE id IN (SELECT value FROM json_each(${list})) AND status IN ('active', 'paused')`,
    sql`DELETE FROM alert_terms WHERE alert_id IN (SELECT value FROM json_each(${list}))`,
    sql`UPDATE alert_sends SET status = 'cancelled' WHERE alert_id IN (SELECT value FROM json_each(${list})) AND status = 'pending'`,
  ]);
}

/** The kept alerts (not ended) of an address. */
export async function liveAlertIdsOfAddress(db: AlertsDatabase, emailKey: string): Promise<number[]> {
  return (await all<{ id: number }>(db, sql`SELECT id FROM alerts WHERE email_key = ${emailKey} AND status IN ('active', 'paused')`)).map((row) => row.id);
}

/**
 * Pause or resume an active alert, recorded. A paused alert leaves the reverse-search index (it
 * matches nothing, so no job should read it) and is filed again under `terms` when it resumes.
 */
export async function setPaused(db: AlertsDatabase, id: number, paused: boolean, now: number, dueAt: number | null, terms: string[]): Promise<void> {
  const [from, to] = paused ? ["active", "paused"] : ["paused", "active"];
  await batch(db, [
    sql`INSERT INTO alert_changes (alert_id, at, change) SELECT id, ${now}, ${paused ? "paused" : "resumed"} FROM alerts WHERE id = ${id} AND status = ${from}`,
    sql`UPDATE alerts SET status = ${to}, due_at = ${dueAt} WHERE id = ${id} AND status = ${from}`,
    paused
      ? sql`DELETE FROM alert_terms WHERE alert_id = ${id} AND (SELECT status FROM alerts WHERE id = ${id}) = 'paused'`
      : fileAlert(id, terms, sql`a.status = 'active'`),
  ]);
}

/** Change the frequency (and hour, weekday) of a kept alert, recorded. */
export async function setFrequency(db: AlertsDatabase, id: number, schedule: { frequency: Frequency; hour: number; weekday: Weekday }, now: number, dueAt: number | null): Promise<void> {
  await batch(db, [
    sql`INSERT INTO alert_changes (alert_id, at, change) SELECT id, ${now}, ${`frequency:${schedule.frequency}`} FROM alerts WHERE id = ${id} AND status IN ('active', 'paused')`,
    sql`UPDATE alerts SET frequency = ${schedule.frequency}, hour = ${schedule.hour}, weekday = ${schedule.weekday},
        due_at = CASE WHEN status = 'active' THEN ${dueAt} ELSE NULL END WHERE id = ${id} AND status IN ('active', 'paused')`,
  ]);
}

// Matching (DESIGN 23: a reverse search).

export interface CandidateAlert {
  id: number;
  search: string;
  nearLatitude: number | null;
  nearLongitude: number | null;
}

/**
 * One read: the alerts filed under any of these terms (only active ones are: ended and paused
 * alerts leave the index), with what the check needs of them, from the index alone.
 */
export const candidateAlerts = (db: AlertsDatabase, terms: string[]) => all<CandidateAlert>(db, candidatesQuery(terms));

export const candidatesQuery = (terms: string[]) =>
  sql`SELECT DISTINCT alert_id AS id, search, near_latitude AS nearLatitude, near_longitude AS nearLongitude
      FROM alert_terms WHERE term IN (SELECT value FROM json_each(${JSON.stringify(terms)}))`;

export interface JobOnBoard {
  jobId: number;
  employerId: number;
  publishDate: number;
  closeDate: number;
  card: JobCard;
  /** The alerts that match it now. */
  alertIds: number[];
}

/**
 * One batch for a set of job changes: each job still on the board is stored once per alert that
 * matches it (a match already stored is kept, never sent twice) and its card kept current in every
 * stored match; jobs that left the board are marked gone in the matches not yet sent; instant
 * alerts with a new match start their 10-minute gathering; `alongside` (the consumer's receipts)
 * in the same batch. Returns the instant alerts started now.
 */
export async function recordMatches(db: AlertsDatabase, onBoard: JobOnBoard[], offBoard: number[], now: number, gatherMs: number, alongside: SQL[] = []): Promise<number[]> {
  const rows = onBoard.flatMap((job) =>
    job.alertIds.map((alertId) => ({ alertId, jobId: job.jobId, employerId: job.employerId, publishDate: job.publishDate, closeDate: job.closeDate, card: JSON.stringify(job.card) })),
  );
  const cards = onBoard.map((job) => ({ jobId: job.jobId, publishDate: job.publishDate, closeDate: job.closeDate, card: JSON.stringify(job.card) }));
  const results = await batch(db, [
    sql`UPDATE alert_matches SET card = c.value ->> 'card', publish_date = c.value ->> 'publishDate', close_date = c.value ->> 'closeDate', gone = 0
        FROM json_each(${JSON.stringify(cards)}) c WHERE alert_matches.job_id = c.value ->> 'jobId'`,
    // A job published before the alert's pruning horizon (its last email less MATCHES_KEPT_MS) is
    // not matched anew: its match may have been pruned (pruneMatches), and a job is never sent twice.
    sql`INSERT INTO alert_matches (alert_id, job_id, matched_at, card, employer_id, publish_date, close_date)
        SELECT r.value ->> 'alertId', r.value ->> 'jobId', ${now}, r.value ->> 'card', r.value ->> 'employerId', r.value ->> 'publishDate', r.value ->> 'closeDate'
        FROM json_each(${JSON.stringify(rows)}) r JOIN alerts a ON a.id = r.value ->> 'alertId'
        WHERE (r.value ->> 'publishDate') * 1000 >= coalesce(a.last_sent_at, 0) - ${MATCHES_KEPT_MS}
        ON CONFLICT (alert_id, job_id) DO NOTHING`,
    sql`UPDATE alert_matches SET gone = 1 WHERE job_id IN (SELECT value FROM json_each(${JSON.stringify(offBoard)})) AND send_id IS NULL`,
    // By id from the matches just stored (`+`: not by walking the status index).
    sql`UPDATE alerts SET due_at = ${now + gatherMs}
        WHERE +frequency = 'instant' AND +status = 'active' AND +due_at IS NULL
          AND id IN (SELECT alert_id FROM alert_matches WHERE matched_at = ${now} AND send_id IS NULL AND job_id IN (SELECT value ->> 'jobId' FROM json_each(${JSON.stringify(cards)})))
        RETURNING id`,
    ...alongside,
  ]);
  return (results[3].results as { id: number }[]).map((row) => row.id);
}

// Sending (DESIGN 23: a ledger with a unique key per alert and period). Set-based: a consumer
// batch's alerts are built, and its emails sent, in a few round trips whatever their number.

/** What building an email reads of a due alert. */
export interface DueAlert {
  id: number;
  frequency: Frequency;
  hour: number;
  weekday: Weekday;
  timeZone: string;
  dueAt: number;
}

export interface UnsentMatch {
  alertId: number;
  jobId: number;
  employerId: number;
  publishDate: number;
}

/** An email holds at most 15 of these; of more unsent matches, the newest this many are read. */
const UNSENT_READ = 300;

/**
 * One round trip (a batch of reads) for a set of alerts: those still active and due at `now`,
 * their unsent matches still open (newest first, at most UNSENT_READ each), and their alert emails
 * made since `since` (the instant alerts' 10 a day).
 */
export async function dueWork(db: AlertsDatabase, alertIds: number[], now: number, since: number): Promise<{ alerts: DueAlert[]; unsent: UnsentMatch[]; emailsSince: { alertId: number; createdAt: number }[] }> {
  const ids = JSON.stringify(alertIds);
  const [alerts, unsent, emailsSince] = await batch(db, [
    sql`SELECT id, frequency, hour, weekday, time_zone AS timeZone, due_at AS dueAt FROM alerts
        WHERE id IN (SELECT value FROM json_each(${ids})) AND +status = 'active' AND +due_at <= ${now}`,
    sql`SELECT alertId, jobId, employerId, publishDate FROM (
          SELECT alert_id AS alertId, job_id AS jobId, employer_id AS employerId, publish_date AS publishDate,
            row_number() OVER (PARTITION BY alert_id ORDER BY publish_date DESC, job_id DESC) AS n
          FROM alert_matches WHERE alert_id IN (SELECT value FROM json_each(${ids})) AND send_id IS NULL AND gone = 0 AND close_date > ${Math.floor(now / 1000)})
        WHERE n <= ${UNSENT_READ}`,
    sql`SELECT alert_id AS alertId, created_at AS createdAt FROM alert_sends
        WHERE alert_id IN (SELECT value FROM json_each(${ids})) AND kind = 'alert' AND created_at > ${since} ORDER BY created_at`,
  ]);
  return { alerts: alerts.results as DueAlert[], unsent: unsent.results as UnsentMatch[], emailsSince: emailsSince.results as { alertId: number; createdAt: number }[] };
}

export interface NewAlertEmail {
  alertId: number;
  period: string;
  jobIds: number[];
}

/**
 * Builds emails in the ledger, in one batch: each one's row (unique per alert and period: a second
 * build of the same period stores nothing), its jobs marked sent by it, every other unsent match
 * of its alert up to now passed over (an email never repeats a job, and the whole search is a link
 * away); and every alert's next due time (`dues`, emailed or not). Returns the ledger rows made.
 */
export async function recordAlertEmails(db: AlertsDatabase, emails: NewAlertEmail[], dues: { alertId: number; dueAt: number | null }[], now: number): Promise<number[]> {
  const list = JSON.stringify(emails);
  // The emails whose ledger row this build made (a period built before keeps its own).
  const madeNow = sql`SELECT s.alert_id FROM json_each(${list}) e JOIN alert_sends s ON s.alert_id = e.value ->> 'alertId' AND s.period = e.value ->> 'period'
        WHERE s.created_at = ${now} AND s.kind = 'alert'`;
  const results = await batch(db, [
    sql`INSERT INTO alert_sends (alert_id, period, kind, status, jobs, created_at)
        SELECT e.value ->> 'alertId', e.value ->> 'period', 'alert', 'pending', e.value ->> 'jobIds', ${now} FROM json_each(${list}) e WHERE true
        ON CONFLICT (alert_id, period) DO NOTHING RETURNING id`,
    sql`UPDATE alert_matches SET send_id = s.id
        FROM json_each(${list}) e JOIN alert_sends s ON s.alert_id = e.value ->> 'alertId' AND s.period = e.value ->> 'period'
        WHERE s.created_at = ${now} AND s.kind = 'alert' AND alert_matches.alert_id = e.value ->> 'alertId'
          AND alert_matches.job_id IN (SELECT value FROM json_each(e.value -> 'jobIds')) AND alert_matches.send_id IS NULL`,
    sql`UPDATE alert_matches SET send_id = -1 WHERE alert_id IN (${madeNow}) AND send_id IS NULL AND matched_at <= ${now}`,
    // By id from the list (`+`: not by walking the status index).
    sql`UPDATE alerts SET due_at = d.value ->> 'dueAt' FROM json_each(${JSON.stringify(dues)}) d WHERE alerts.id = d.value ->> 'alertId' AND +alerts.status = 'active'`,
  ]);
  return (results[0].results as { id: number }[]).map((row) => row.id);
}

export interface SendRow {
  id: number;
  alertId: number;
  period: string;
  kind: "confirm" | "alert" | "keep";
  status: "pending" | "sent" | "failed" | "cancelled";
  attempts: number;
  createdAt: number;
}

/**
 * One round trip (a batch of reads) for a set of ledger rows: the rows, their alerts, and the
 * jobs of the alert emails among them as the matches they sent hold them (newest first).
 */
export async function sendsWithAlerts(db: AlertsDatabase, sendIds: number[]): Promise<{ sends: SendRow[]; alerts: AlertRow[]; cards: { sendId: number; card: string }[] }> {
  const ids = JSON.stringify(sendIds);
  const [sends, alerts, cards] = await batch(db, [
    sql`SELECT id, alert_id AS alertId, period, kind, status, attempts, created_at AS createdAt FROM alert_sends WHERE id IN (SELECT value FROM json_each(${ids}))`,
    sql`SELECT ${ALERT_COLUMNS} FROM alerts WHERE id IN (SELECT alert_id FROM alert_sends WHERE id IN (SELECT value FROM json_each(${ids})))`,
    // Each email's jobs by (alert, job) from its ledger row, never by walking every match.
    sql`SELECT s.id AS sendId, m.card FROM alert_sends s JOIN json_each(s.jobs) j JOIN alert_matches m ON m.alert_id = s.alert_id AND m.job_id = j.value
        WHERE s.id IN (SELECT value FROM json_each(${ids})) AND s.kind = 'alert' AND m.send_id = s.id
        ORDER BY s.id, m.publish_date DESC, m.job_id DESC`,
  ]);
  return { sends: sends.results as SendRow[], alerts: alerts.results as AlertRow[], cards: cards.results as { sendId: number; card: string }[] };
}

export type SendOutcome = { status: "sent"; at: number } | { status: "failed" | "cancelled" };

/** What became of ledger rows still pending, in one batch; an alert's last email is its newest sent one. */
export async function recordSendOutcomes(db: AlertsDatabase, outcomes: { send: SendRow; outcome: SendOutcome }[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map(({ send, outcome }) => ({ id: send.id, status: outcome.status, at: outcome.status === "sent" ? outcome.at : null }));
  const lastSent = new Map<number, number>();
  for (const { send, outcome } of outcomes) {
    if (outcome.status === "sent" && send.kind !== "confirm") lastSent.set(send.alertId, Math.max(outcome.at, lastSent.get(send.alertId) ?? 0));
  }
  await batch(db, [
    sql`UPDATE alert_sends SET status = o.value ->> 'status', sent_at = o.value ->> 'at', attempts = attempts + 1
        FROM json_each(${JSON.stringify(rows)}) o WHERE alert_sends.id = o.value ->> 'id' AND +alert_sends.status = 'pending'`,
    sql`UPDATE alerts SET last_sent_at = o.value ->> 1 FROM json_each(${JSON.stringify([...lastSent])}) o WHERE alerts.id = o.value ->> 0`,
  ]);
}

// The cron's upkeep (src/alerts/scheduled.ts).

export async function dueAlertIds(db: AlertsDatabase, now: number, limit: number): Promise<number[]> {
  return (await all<{ id: number }>(db, sql`SELECT id FROM alerts WHERE status = 'active' AND due_at IS NOT NULL AND due_at <= ${now} ORDER BY due_at LIMIT ${limit}`)).map((row) => row.id);
}

/** Ledger rows still pending a minute after they were made: handed to the queue again. */
export async function stalePendingSends(db: AlertsDatabase, before: number, limit: number): Promise<number[]> {
  return (await all<{ id: number }>(db, sql`SELECT id FROM alert_sends WHERE status = 'pending' AND created_at <= ${before} ORDER BY created_at LIMIT ${limit}`)).map((row) => row.id);
}

/**
 * DESIGN 23: pending alerts (never confirmed: no consent) go after 7 days with their ledger; ended
 * alerts 3 years after they ended, with their record, matches and ledger. Bounded per run.
 */
export async function purgeAlerts(db: AlertsDatabase, pendingBefore: number, endedBefore: number, limit: number): Promise<number> {
  const doomed = await all<{ id: number }>(
    db,
    sql`SELECT id FROM alerts WHERE (status = 'pending' AND created_at < ${pendingBefore}) OR (status = 'ended' AND ended_at < ${endedBefore}) LIMIT ${limit}`,
  );
  if (doomed.length === 0) return 0;
  const list = JSON.stringify(doomed.map((row) => row.id));
  const ids = sql`(SELECT value FROM json_each(${list}))`;
  await batch(db, [
    sql`DELETE FROM alert_changes WHERE alert_id IN ${ids}`,
    sql`DELETE FROM alert_matches WHERE alert_id IN ${ids}`,
    sql`DELETE FROM alert_sends WHERE alert_id IN ${ids}`,
    sql`DELETE FROM alert_terms WHERE alert_id IN ${ids}`,
    sql`DELETE FROM alerts WHERE id IN ${ids}`,
  ]);
  return doomed.length;
}

/** Matches (sent or passed over) are kept 30 days past the alert's last email; an ended alert's go at once (its consent record stays). */
export const MATCHES_KEPT_MS = 30 * 86_400_000;

/** Alerts that ended this recently have their matches looked for: more than any gap between cron runs. */
export const ENDED_LOOKBACK_MS = 7 * 86_400_000;
/** Alerts that emailed this recently (the run before last included) have their old matches looked for. */
export const SENT_LOOKBACK_MS = 2 * 3_600_000;

/**
 * Deletes at most `limit` old matches: every match of an ended alert, and each match already sent
 * or passed over that was made more than MATCHES_KEPT_MS before its alert's last email. Matches
 * become so only when their alert ends or emails, so only alerts that did lately are looked at
 * (DESIGN 6a: a run costs what changed since, never a walk of every match); those a long outage
 * left go at the alert's next email, or with it (purgeAlerts). The cron calls it in chunks
 * (src/alerts/scheduled.ts). Returns how many went.
 */
export async function pruneMatches(db: AlertsDatabase, now: number, limit: number): Promise<number> {
  const [result] = await batch(db, [
    sql`DELETE FROM alert_matches WHERE rowid IN (
          SELECT m.rowid FROM alerts a JOIN alert_matches m ON m.alert_id = a.id WHERE a.status = 'ended' AND a.ended_at >= ${now - ENDED_LOOKBACK_MS}
          UNION ALL
          SELECT m.rowid FROM alerts a JOIN alert_matches m ON m.alert_id = a.id
          WHERE a.id IN (SELECT alert_id FROM alert_sends WHERE status = 'sent' AND created_at >= ${now - SENT_LOOKBACK_MS})
            AND m.send_id IS NOT NULL AND m.matched_at < a.last_sent_at - ${MATCHES_KEPT_MS}
          LIMIT ${limit})`,
  ]);
  return result.meta.changes ?? 0;
}

/** Matches renamed per statement: an employer with many matched jobs is renamed in bounded steps. */
const RENAMED_PER_STATEMENT = 1_000;

/**
 * An employer's new public name on the cards of its matched jobs (sent or not: the feed shows
 * both), in statements of at most RENAMED_PER_STATEMENT rows. A confidential job's card names no
 * employer and stays so. Returns how many cards changed.
 */
export async function renameEmployerOnCards(db: AlertsDatabase, employerId: number, name: string): Promise<number> {
  let renamed = 0;
  for (;;) {
    const [result] = await batch(db, [
      sql`UPDATE alert_matches SET card = json_set(card, '$.employer', ${name}) WHERE rowid IN (
            SELECT rowid FROM alert_matches WHERE employer_id = ${employerId} AND card ->> '$.employer' IS NOT NULL AND card ->> '$.employer' <> ${name}
            LIMIT ${RENAMED_PER_STATEMENT})`,
    ]);
    const changed = result.meta.changes ?? 0;
    renamed += changed;
    if (changed < RENAMED_PER_STATEMENT) return renamed;
  }
}

/** The newest matches of an alert (its Atom feed). */
export function recentMatches(db: AlertsDatabase, alertId: number, limit: number): Promise<{ jobId: number; matchedAt: number; card: string }[]> {
  return all(db, sql`SELECT job_id AS jobId, matched_at AS matchedAt, card FROM alert_matches WHERE alert_id = ${alertId} ORDER BY matched_at DESC, job_id DESC LIMIT ${limit}`);
}

// The 12-month "keep this alert?" email (DESIGN 23): asked once; 30 days without an answer end it.

/** Alerts renewed before `renewedBefore` and not asked yet: asked now (a ledger row each, in one batch); returns the rows to send. */
export async function askToKeep(db: AlertsDatabase, renewedBefore: number, now: number, limit: number): Promise<number[]> {
  const due = await all<{ id: number }>(
    db,
    sql`SELECT id FROM alerts WHERE status IN ('active', 'paused') AND renewed_at < ${renewedBefore} AND keep_asked_at IS NULL ORDER BY renewed_at LIMIT ${limit}`,
  );
  if (due.length === 0) return [];
  const list = JSON.stringify(due.map((row) => row.id));
  const results = await batch(db, [
    sql`UPDATE alerts SET keep_asked_at = ${now} WHERE id IN (SELECT value FROM json_each(${list}))`,
    sql`INSERT INTO alert_sends (alert_id, period, kind, status, created_at)
        SELECT a.id, 'keep:' || a.renewed_at, 'keep', 'pending', ${now} FROM alerts a WHERE a.id IN (SELECT value FROM json_each(${list}))
        ON CONFLICT (alert_id, period) DO NOTHING RETURNING id`,
  ]);
  return (results[1].results as { id: number }[]).map((row) => row.id);
}

/** Alerts asked before `askedBefore` with no answer since. */
export async function unansweredKeepIds(db: AlertsDatabase, askedBefore: number, limit: number): Promise<number[]> {
  return (await all<{ id: number }>(db, sql`SELECT id FROM alerts WHERE status IN ('active', 'paused') AND keep_asked_at < ${askedBefore} LIMIT ${limit}`)).map((row) => row.id);
}

/** The person answered "keep" (the manage page's button): 12 more months, recorded. */
export async function keepAlert(db: AlertsDatabase, id: number, now: number): Promise<void> {
  await batch(db, [
    sql`INSERT INTO alert_changes (alert_id, at, change) SELECT id, ${now}, 'kept' FROM alerts WHERE id = ${id} AND status IN ('active', 'paused')`,
    sql`UPDATE alerts SET renewed_at = ${now}, keep_asked_at = NULL WHERE id = ${id} AND status IN ('active', 'paused')`,
  ]);
}
