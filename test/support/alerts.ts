import { env, exports } from "cloudflare:workers";
import worker from "../../src/index";
import type { AlertsQueueBody } from "../../src/alerts/consumer";
import type { Mail } from "../../src/alerts/email";
import { alertsSubscriber } from "../../src/alerts/subscriber";
import { BASE, createEmployer, request, shardDb } from "./api";
import { settleBoard } from "./board";
import { postJob } from "./jobs";

// Job alerts in tests (DESIGN 23): the Worker's alerts queue has no consumer here
// (test/vitest.config.ts), so a test drives it hop by hop — the events its writes recorded, the
// ledger rows the Worker made — through the real consumer with the real bindings, and reads the
// emails it sent as a developer would (the Email Service binding replaced by a recorder).

export const ALERTS_API = "/alerts";

/** Every email the consumer sent during this file, newest last. */
export const sentMail: Mail[] = [];
const recordingEmail = { send: async (mail: Mail) => void sentMail.push(mail) } as unknown as SendEmail;

/** What the consumer hands to the alerts queue (a delayed instant message, the next ledger rows), kept for the test. */
export const queued: { body: AlertsQueueBody; delaySeconds?: number }[] = [];
const recordingQueue = {
  send: async (body: AlertsQueueBody, options?: { delaySeconds?: number }) => void queued.push({ body, delaySeconds: options?.delaySeconds }),
  sendBatch: async (messages: { body: AlertsQueueBody }[]) => void queued.push(...messages),
} as unknown as Queue;

export function alertsEnv(overrides: Record<string, unknown> = {}) {
  return { ...env, EMAIL: recordingEmail, ALERTS_QUEUE: recordingQueue, ...overrides } as typeof env;
}

/** A MessageBatch of the alerts queue, recording each message's outcome. */
export function alertsBatch(bodies: AlertsQueueBody[], attempts = 1) {
  const outcomes: { index: number; ack?: true; retryDelay?: number }[] = [];
  const messages = bodies.map((body, index) => ({
    id: `alert-message-${index}`,
    body,
    timestamp: new Date(),
    attempts,
    ack: () => void outcomes.push({ index, ack: true }),
    retry: (options?: { delaySeconds?: number }) => void outcomes.push({ index, retryDelay: options?.delaySeconds }),
  }));
  return { batch: { queue: "job-posting-alerts", messages, ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<AlertsQueueBody>, outcomes };
}

/** Runs the real consumer on these bodies, through the Worker's entry (as the queue would). */
export async function consume(bodies: AlertsQueueBody[], overrides: Record<string, unknown> = {}) {
  const { batch, outcomes } = alertsBatch(bodies);
  await worker.queue!(batch as MessageBatch<never>, alertsEnv(overrides));
  return outcomes;
}

/** Sends every ledger row still pending (as the queue would deliver the Worker's messages); returns the emails sent now. */
export async function deliverPending(): Promise<Mail[]> {
  const before = sentMail.length;
  const { results } = await env.ALERTS_DB.prepare("SELECT id FROM alert_sends WHERE status = 'pending' ORDER BY id").all<{ id: number }>();
  if (results.length) await consume(results.map((row) => ({ send: row.id })));
  return sentMail.slice(before);
}

let counter = 0;
/** A fresh address per call (the per-address limits would otherwise meet across tests). */
export const freshEmail = (name = "seeker") => `${name}.${Date.now().toString(36)}.${++counter}@example.com`;

export function alertBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { email: freshEmail(), language: "en", frequency: "daily", consent: true, search: { q: "accountant" }, ...overrides };
}

export const postAlert = (json: unknown, init: { headers?: Record<string, string> } = {}) => request(ALERTS_API, { method: "POST", json, headers: init.headers });

/** The links of an email's plain text that start with `${BASE}/alerts/{kind}/`. */
export function linkIn(mail: Mail, kind: "confirm" | "decline" | "unsubscribe" | "manage" | "feed"): string {
  const found = new RegExp(`${BASE.replace(/[.]/g, "\\.")}/alerts/${kind}/[A-Za-z0-9_-]{43}`).exec(mail.text);
  if (!found) throw new Error(`no ${kind} link in: ${mail.text}`);
  return found[0];
}

/** A page of the Worker (not the API): its HTML answer. */
export const page = (url: string, init: RequestInit = {}) => exports.default.fetch(new Request(url.startsWith("http") ? url : `${BASE}${url}`, { redirect: "manual", ...init }));

/** Subscribes and confirms through HTTP, as a person would; returns the address and the confirmation email. */
export async function activeAlert(overrides: Record<string, unknown> = {}) {
  const body = alertBody(overrides);
  const res = await postAlert(body);
  if (res.status !== 202) throw new Error(`POST /alerts answered ${res.status}: ${await res.text()}`);
  const [mail] = (await deliverPending()).filter((m) => m.to === body.email);
  const confirmed = await page(linkIn(mail, "confirm"), { method: "POST" });
  if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}`);
  const row = await env.ALERTS_DB.prepare("SELECT id FROM alerts WHERE email = ? ORDER BY id DESC").bind(body.email).first<{ id: number }>();
  return { email: body.email as string, id: row!.id, confirmation: mail };
}

/** The recording order of the newest event of shard k (0: none). */
export async function lastEventSeq(shard = 0): Promise<number> {
  return (await shardDb(shard).prepare("SELECT coalesce(max(seq), 0) AS seq FROM events").first<{ seq: number }>())!.seq;
}

/** The relay's hop, by hand: the events of shard k recorded after `afterSeq` that alerts accept, as notices to the alerts consumer. */
export async function matchEventsSince(afterSeq: number, shard = 0) {
  const { results } = await shardDb(shard).prepare("SELECT id, type FROM events WHERE seq > ? ORDER BY seq").bind(afterSeq).all<{ id: string; type: string }>();
  const ids = results.filter((event) => alertsSubscriber.accepts(event.type)).map((event) => event.id);
  const notices: AlertsQueueBody[] = [];
  for (let i = 0; i < ids.length; i += 10) notices.push({ events: ids.slice(i, i + 10), shard });
  if (notices.length) await consume(notices);
}

export async function matchesOf(alertId: number): Promise<number[]> {
  const { results } = await env.ALERTS_DB.prepare("SELECT job_id AS jobId FROM alert_matches WHERE alert_id = ? ORDER BY job_id").bind(alertId).all<{ jobId: number }>();
  return results.map((row) => row.jobId);
}

/** An instant alert whose first email is built (its ledger row pending, not sent yet), and the job it holds. */
export async function alertWithEmailBuilt(q: string, overrides: Record<string, unknown> = {}, employerName = "Alerts Test Ltd.") {
  const alert = await activeAlert({ frequency: "instant", search: { q }, ...overrides });
  const employer = await createEmployer({ name: employerName, plan: "unlimited" });
  const before = await lastEventSeq();
  const job = await postJob(employer, { title: `${q} Clerk`, status: "active" });
  await settleBoard();
  await matchEventsSince(before);
  const { dueAt } = (await env.ALERTS_DB.prepare("SELECT due_at AS dueAt FROM alerts WHERE id = ?").bind(alert.id).first<{ dueAt: number }>())!;
  await consume([{ due: [alert.id], now: dueAt }]);
  return { ...alert, q, job, employer };
}
