import type { SQL } from "drizzle-orm";
import { boardEntryOf, jobsOnBoard, searchCentreOf } from "../board/alerts";
import type { Env } from "../env";
import { ValidationError } from "../http/problem";
import type { JobRow } from "../jobs/repository";
import { jobPath } from "../ui/paths";
import { consentRecordOf, senderOf } from "./consent";
import { batch, createAlertsDatabase, type AlertsDatabase } from "./database/client";
import { alertEmail, confirmationEmail, describeSearch, keepEmail, type AlertLinks, type Mail } from "./email";
import {
  activateAlert,
  alertByTokenHash,
  candidateAlerts,
  deletePendingAlert,
  dueWork,
  endAlerts,
  insertPendingAlert,
  liveAlertIdsOfAddress,
  recordAlertEmails,
  recordMatches,
  recordSendOutcomes,
  renameEmployerOnCards,
  searchOfRow,
  sendsWithAlerts,
  setPaused,
  type AlertRow,
  type JobOnBoard,
  type NewAlertEmail,
  type SendOutcome,
  type SendRow,
  type TokenColumn,
} from "./repository";
import { cardOf, jobFactsOf, matches, pickJobs, termsOfAlert, termsOfJob, type AlertSearch, type JobCard } from "./rules";
import { INSTANT_GATHER_MS, INSTANT_PER_DAY, nextScheduledAt, periodOf, timeZoneOf, type Schedule } from "./schedule";
import type { AlertInput } from "./schemas";
import { hashOf, newNonce, TOKEN_PATTERN, tokenOf, type TokenPurpose } from "./tokens";

// DESIGN 23: what job alerts do — subscribe with double opt-in, match jobs as a reverse search,
// build and send the emails through the ledger, end alerts. Handlers and consumers call these.

const dbOf = (env: Pick<Env, "ALERTS_DB">) => createAlertsDatabase(env.ALERTS_DB);

/** What the alerts queue carries besides job events: ledger rows to send (one or several), alerts whose email may be due. */
export type AlertWork = { send: number | number[] } | { due: number[]; now?: number };

/** Ledger rows per message: a consumer batch (10 messages) sends up to 100 emails in two round trips. */
const SENDS_PER_MESSAGE = 10;

/** Hands ledger rows to the alerts queue, SENDS_PER_MESSAGE per message, 100 messages per call. */
export async function queueSends(env: Pick<Env, "ALERTS_QUEUE">, sendIds: number[]): Promise<void> {
  const bodies: { body: AlertWork }[] = [];
  for (let i = 0; i < sendIds.length; i += SENDS_PER_MESSAGE) bodies.push({ body: { send: sendIds.slice(i, i + SENDS_PER_MESSAGE) } });
  for (let i = 0; i < bodies.length; i += 100) await env.ALERTS_QUEUE.sendBatch(bodies.slice(i, i + 100));
}

export interface Origin {
  source: "page" | "api";
  origin: string;
  clientAddress: string | null;
  userAgent: string | null;
  /** With `near` from a page's form: the place's name as resolved. */
  placeName?: string | null;
}

const scheduleOf = (alert: Pick<AlertRow, "frequency" | "hour" | "weekday" | "timeZone">): Schedule => ({ frequency: alert.frequency, hour: alert.hour, weekday: alert.weekday, timeZone: alert.timeZone });

/**
 * POST /alerts and the pages' form: a pending alert and one confirmation email, within the
 * address's limits. Past them nothing is stored or sent, and the caller answers exactly as when
 * something was: nothing tells whether an address has alerts.
 */
export async function subscribe(env: Env, input: AlertInput, origin: Origin, now: number): Promise<void> {
  const search = input.search as AlertSearch;
  let centre: { latitude: number; longitude: number; provinceCode: string } | null = null;
  if (search.near !== undefined) {
    centre = await searchCentreOf(env, search.near);
    if (!centre) throw new ValidationError([{ field: "search.near", message: "near must be the id of a public place with coordinates (GET /api/v1.1/locations); a province is an area, not a point." }]);
  }
  const nonce = newNonce();
  const [confirmHash, manageHash, feedHash] = await Promise.all((["confirm", "manage", "feed"] as const).map(async (purpose) => hashOf(await tokenOf(env.ALERTS_TOKEN_KEY, purpose, nonce))));
  const consent = await consentRecordOf(input.language, senderOf(env));
  const sendId = await insertPendingAlert(dbOf(env), {
    email: input.email,
    emailKey: input.email.toLowerCase(),
    language: input.language,
    frequency: input.frequency,
    hour: input.hour ?? 8,
    weekday: input.weekday ?? "monday",
    timeZone: timeZoneOf(centre?.provinceCode ?? search.province),
    search,
    near: centre && { latitude: centre.latitude, longitude: centre.longitude },
    placeName: origin.placeName ?? null,
    origin: origin.origin,
    tokenNonce: nonce,
    confirmHash,
    manageHash,
    feedHash,
    consentTextVersion: consent.version,
    consentTextSha256: consent.sha256,
    source: origin.source,
    createdAt: now,
    clientAddress: origin.clientAddress,
    userAgent: origin.userAgent?.slice(0, 500) ?? null,
  });
  if (sendId !== null) await env.ALERTS_QUEUE.send({ send: sendId } satisfies AlertWork);
}

/** The alert a link's token names (only a well-formed token reaches the database), by its hash. */
export async function alertOfToken(env: Pick<Env, "ALERTS_DB">, purpose: TokenPurpose, token: string): Promise<AlertRow | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  return alertByTokenHash(dbOf(env), `${purpose}_hash` as TokenColumn, await hashOf(token));
}

/** Where an alert is filed in the reverse-search index (src/alerts/rules.ts termsOfAlert). */
const termsOfRow = (alert: AlertRow) =>
  termsOfAlert({ search: searchOfRow(alert), centre: alert.nearLatitude !== null && alert.nearLongitude !== null ? { latitude: alert.nearLatitude, longitude: alert.nearLongitude } : null });

/** The confirm button's POST: the alert starts (its schedule, its place in the index); a second POST changes nothing. */
export async function confirmAlert(env: Env, alert: AlertRow, now: number): Promise<void> {
  if (alert.status !== "pending") return;
  await activateAlert(dbOf(env), alert.id, now, nextScheduledAt(scheduleOf(alert), now), termsOfRow(alert));
}

/** Pause (out of the index, nothing due) or resume (filed again, due at its next scheduled time) a kept alert, recorded. */
export async function pauseAlert(env: Pick<Env, "ALERTS_DB">, alert: AlertRow, paused: boolean, now: number): Promise<void> {
  await setPaused(dbOf(env), alert.id, paused, now, paused ? null : nextScheduledAt(scheduleOf(alert), now), paused ? [] : termsOfRow(alert));
}

/** The subject of a mailto: unsubscribe, before the token (src/alerts/inbound.ts reads any subject holding a token). */
export const UNSUBSCRIBE_SUBJECT = "unsubscribe";

/**
 * "This was not me" (the confirmation email's second link): a pending alert is deleted with its
 * ledger (never confirmed, it holds no consent to keep); one already confirmed ends, recorded as an
 * unsubscribe. Returns what happened.
 */
export async function declineAlert(env: Pick<Env, "ALERTS_DB">, alert: AlertRow, now: number): Promise<"deleted" | "ended" | "none"> {
  if (alert.status === "pending") return (await deletePendingAlert(dbOf(env), alert.id)) ? "deleted" : "none";
  if (alert.status === "active" || alert.status === "paused") {
    await endAlert(env, alert, false, "unsubscribed", now);
    return "ended";
  }
  return "none";
}

/** Unsubscribe (one alert, or every alert of its address), delete: the alert ends at once, recorded. */
export async function endAlert(env: Pick<Env, "ALERTS_DB">, alert: AlertRow, everyAlert: boolean, change: string, now: number): Promise<void> {
  const db = dbOf(env);
  await endAlerts(db, everyAlert ? await liveAlertIdsOfAddress(db, alert.emailKey) : [alert.id], change, now);
}

/** Bounces and complaints (DESIGN 23): every alert of the address ends, recorded with why (pending ones go after 7 days anyway). */
export async function endAlertsOfAddress(env: Pick<Env, "ALERTS_DB">, email: string, change: string, now: number): Promise<number> {
  const db = dbOf(env);
  const ids = await liveAlertIdsOfAddress(db, email.trim().toLowerCase());
  await endAlerts(db, ids, change, now);
  return ids.length;
}

// Matching: a reverse search (DESIGN 23).

/**
 * The jobs as these changes left them (null: deleted), newest change per job: each one on the
 * board is matched against the alerts filed under its terms — one read for all of them — and
 * checked with the board's own rules; the matches are stored in one batch. Instant alerts with a
 * new match get a message 10 minutes later that sends their email. `alongside` (the consumer's
 * receipts, DESIGN 16a) goes in the batch of the matches.
 */
export async function matchJobChanges(env: Env, changes: { jobId: number; row: JobRow | null }[], now: number, alongside: SQL[] = []): Promise<number> {
  const db = dbOf(env);
  const nowSeconds = Math.floor(now / 1000);
  const onBoard: JobOnBoard[] = [];
  const offBoard: number[] = [];
  const entries = await Promise.all(changes.map(async (change) => ({ jobId: change.jobId, entry: await boardEntryOf(env, change.row, nowSeconds) })));
  const facts = entries.flatMap(({ jobId, entry }) => {
    if (!entry) {
      offBoard.push(jobId);
      return [];
    }
    return [{ entry, facts: jobFactsOf(entry) }];
  });
  const candidates = facts.length ? await candidateAlerts(db, [...new Set(facts.flatMap((job) => termsOfJob(job.facts)))]) : [];
  const alerts = candidates.map((alert) => ({
    id: alert.id,
    search: JSON.parse(alert.search) as AlertSearch,
    centre: alert.nearLatitude !== null && alert.nearLongitude !== null ? { latitude: alert.nearLatitude, longitude: alert.nearLongitude } : null,
  }));
  let stored = 0;
  for (const { entry, facts: job } of facts) {
    const alertIds = alerts.filter((alert) => matches(alert, job, nowSeconds)).map((alert) => alert.id);
    stored += alertIds.length;
    onBoard.push({ jobId: entry.jobId, employerId: entry.employerId, publishDate: entry.publishDate, closeDate: entry.closeDate, card: cardOf(entry), alertIds });
  }
  if (onBoard.length === 0 && offBoard.length === 0) {
    await batch(db, alongside);
    return 0;
  }
  const started = await recordMatches(db, onBoard, offBoard, now, INSTANT_GATHER_MS, alongside);
  if (started.length) await env.ALERTS_QUEUE.send({ due: started } satisfies AlertWork, { delaySeconds: INSTANT_GATHER_MS / 1000 });
  return stored;
}

/** An employer's public name, changed: the cards of its matched jobs show it in later emails and feeds. */
export const renameEmployerOnMatches = (env: Env, employerId: number, name: string) => renameEmployerOnCards(dbOf(env), employerId, name);

// Building and sending (DESIGN 23: the ledger).

/**
 * Builds the email of each alert that is due at `now`: the unsent matches still on the board and
 * open, at most 15, newest first, at most 2 per employer; none: no email, only the next due time.
 * Instant alerts past 10 emails in 24 hours wait until the oldest of them is a day old. Set-based
 * (DESIGN 6a): one read of the alerts and their matches, one of the board, one write, whatever
 * the number of alerts; the emails made are handed to the queue. Returns how many.
 */
export async function buildDueEmails(env: Env, alertIds: number[], now: number): Promise<number> {
  const db = dbOf(env);
  const work = await dueWork(db, alertIds, now, now - 86_400_000);
  if (work.alerts.length === 0) return 0;
  const unsentOf = Map.groupBy(work.unsent, (match) => match.alertId);
  const emailsOf = Map.groupBy(work.emailsSince, (row) => row.alertId);
  const jobIds = [...new Set(work.alerts.flatMap((alert) => (unsentOf.get(alert.id) ?? []).map((match) => match.jobId)))];
  const open = jobIds.length ? await jobsOnBoard(env, jobIds) : new Set<number>();
  const emails: NewAlertEmail[] = [];
  const dues: { alertId: number; dueAt: number | null }[] = [];
  for (const alert of work.alerts) {
    const schedule = scheduleOf(alert);
    const today = alert.frequency === "instant" ? (emailsOf.get(alert.id) ?? []) : [];
    if (today.length >= INSTANT_PER_DAY) {
      dues.push({ alertId: alert.id, dueAt: today[0].createdAt + 86_400_000 });
      continue;
    }
    dues.push({ alertId: alert.id, dueAt: nextScheduledAt(schedule, now) });
    const picked = pickJobs((unsentOf.get(alert.id) ?? []).filter((match) => open.has(match.jobId)));
    if (picked.length) emails.push({ alertId: alert.id, period: periodOf(schedule, alert.frequency === "instant" ? now : alert.dueAt), jobIds: picked.map((match) => match.jobId) });
  }
  const made = await recordAlertEmails(db, emails, dues, now);
  await queueSends(env, made);
  return made.length;
}

/** Each alert's links, tokens derived again from its nonce (src/alerts/tokens.ts). */
export async function linksOf(env: Pick<Env, "ALERTS_TOKEN_KEY" | "ALERTS_UNSUBSCRIBE_MAILTO">, alert: AlertRow): Promise<AlertLinks & { confirm: string; decline: string }> {
  const [confirm, manage, feed] = await Promise.all((["confirm", "manage", "feed"] as const).map((purpose) => tokenOf(env.ALERTS_TOKEN_KEY, purpose, alert.tokenNonce)));
  const search = searchOfRow(alert);
  const params = new URLSearchParams();
  if (search.q) params.set("q", search.q);
  if (alert.placeName) params.set("place", alert.placeName);
  if (search.radiusKm !== undefined && alert.placeName) params.set("radiusKm", String(search.radiusKm));
  if (search.province) params.set("province", search.province);
  if (search.category !== undefined) params.set("category", String(search.category));
  if (search.positionType !== undefined) params.set("positionType", String(search.positionType));
  if (search.salaryMin !== undefined) params.set("salaryMin", String(search.salaryMin));
  const home = alert.language === "fr" ? "/fr/" : "/";
  const mailto = env.ALERTS_UNSUBSCRIBE_MAILTO?.trim();
  return {
    confirm: `${alert.origin}/alerts/confirm/${confirm}`,
    decline: `${alert.origin}/alerts/decline/${confirm}`,
    manage: `${alert.origin}/alerts/manage/${manage}`,
    unsubscribe: `${alert.origin}/alerts/unsubscribe/${manage}`,
    feed: `${alert.origin}/alerts/feed/${feed}`,
    search: `${alert.origin}${home}${params.size ? `?${params}` : ""}`,
    // The manage token in the subject: the Worker's email handler ends this alert (src/alerts/inbound.ts).
    ...(mailto && /^[^\s@<>,]+@[^\s@<>,]+$/.test(mailto) ? { unsubscribeMailto: `mailto:${mailto}?subject=${encodeURIComponent(`${UNSUBSCRIBE_SUBJECT} ${manage}`)}` } : {}),
  };
}

export const searchWordsOf = (alert: AlertRow) => describeSearch(searchOfRow(alert), alert.language, alert.placeName);
export const jobLinkOf = (alert: Pick<AlertRow, "origin" | "language">) => (card: JobCard) => `${alert.origin}${jobPath(alert.language, card.id, card.title)}`;
const listIdOf = (env: Pick<Env, "ALERTS_FROM">) => `<job-alerts.${(env.ALERTS_FROM ?? "alerts@jobs.example").split("@")[1] ?? "jobs.example"}>`;

/** The email of one ledger row, or null when it must not go (its alert ended, or no job left to hold). */
async function mailOf(env: Env, send: SendRow, alert: AlertRow | undefined, cards: string[]): Promise<Mail | null> {
  // DESIGN 23: no email is built or sent for an alert after its unsubscribe is stored.
  const wanted = send.kind === "confirm" ? ["pending"] : send.kind === "keep" ? ["active", "paused"] : ["active"];
  if (!alert || !wanted.includes(alert.status)) return null;
  const sender = senderOf(env);
  const links = await linksOf(env, alert);
  const search = searchWordsOf(alert);
  if (send.kind === "confirm") return confirmationEmail({ language: alert.language, to: alert.email, search, confirmLink: links.confirm, declineLink: links.decline, sender });
  const askedAt = alert.confirmedAt ?? alert.createdAt;
  if (send.kind === "keep") return keepEmail({ language: alert.language, to: alert.email, search, askedAt, links, sender, listId: listIdOf(env) });
  if (cards.length === 0) return null;
  const jobs = cards.map((card) => JSON.parse(card) as JobCard);
  return alertEmail({ language: alert.language, to: alert.email, search, askedAt, jobs, jobLink: jobLinkOf(alert), links, sender, listId: listIdOf(env) });
}

/** Attempts of one email (the queue's retries, 30 s apart and more); after them the ledger row is recorded failed. */
export const SEND_ATTEMPTS = 5;

const sendIdsOf = (message: Message<AlertWork>) => ("send" in message.body ? [message.body.send].flat() : []);

/**
 * The ledger rows of a consumer batch's messages through the Email Service binding, one by one,
 * read in one round trip and recorded in another (sent, or cancelled when it must not go), so no
 * retry or later run sends them again. A message whose email failed is retried (its other emails,
 * recorded sent, are not sent again); after SEND_ATTEMPTS its failed rows are recorded failed.
 */
export async function sendLedgerRows(env: Env, messages: Message<AlertWork>[]): Promise<void> {
  const db = dbOf(env);
  const { sends, alerts, cards } = await sendsWithAlerts(db, [...new Set(messages.flatMap(sendIdsOf))]);
  const alertOf = new Map(alerts.map((alert) => [alert.id, alert]));
  const cardsOf = Map.groupBy(cards, (row) => row.sendId);
  const outcomes = new Map<number, { send: SendRow; outcome: SendOutcome }>();
  const failed = new Set<number>();
  for (const send of sends) {
    if (send.status !== "pending") continue;
    try {
      const mail = await mailOf(env, send, alertOf.get(send.alertId), (cardsOf.get(send.id) ?? []).map((row) => row.card));
      if (mail) await env.EMAIL.send(mail);
      outcomes.set(send.id, { send, outcome: mail ? { status: "sent", at: Date.now() } : { status: "cancelled" } });
    } catch (error) {
      console.error(JSON.stringify({ level: "error", message: "alert email not sent", send: send.id, error: String(error) }));
      failed.add(send.id);
    }
  }
  const retried: Message<AlertWork>[] = [];
  for (const message of messages) {
    const failedHere = sendIdsOf(message).filter((id) => failed.has(id));
    if (failedHere.length === 0 || message.attempts >= SEND_ATTEMPTS) {
      for (const id of failedHere) outcomes.set(id, { send: sends.find((send) => send.id === id)!, outcome: { status: "failed" } });
    } else retried.push(message);
  }
  await recordSendOutcomes(db, [...outcomes.values()]);
  for (const message of messages) {
    if (retried.includes(message)) message.retry({ delaySeconds: 30 * message.attempts });
    else message.ack();
  }
}
