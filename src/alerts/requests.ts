import { sql } from "drizzle-orm";
import type { Env } from "../env";
import { all, batch, createAlertsDatabase } from "./database/client";

// DESIGN 26, 26a: a job seeker's requests about their alerts, answered by the operator: the consent
// records of an address (an access request), and the end of every alert of it (an erasure: the
// alerts end, their matches and pending emails go, their tokens answer "unsubscribed"; the consent
// records are kept as the law allows, DESIGN 23).

/** DESIGN 23a: one alert's consent record, as `npm run alerts -- consent` prints it (times ISO 8601 UTC). */
export interface ConsentRecord {
  alertId: number;
  status: string;
  language: string;
  consentTextVersion: string;
  consentTextSha256: string;
  source: string;
  createdAt: string;
  clientAddress: string | null;
  userAgent: string | null;
  confirmedAt: string | null;
  history: { at: string; change: string }[];
}

/** Records of one address at most (20 alerts at a time; ended ones are kept 3 years). */
const MAX_RECORDS = 1_000;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));
const keyOf = (email: string) => email.trim().toLowerCase();

/** The address's consent records, oldest first: one read (alerts_email_idx), each alert with its changes. */
export async function consentRecordsOf(env: Pick<Env, "ALERTS_DB">, email: string): Promise<ConsentRecord[]> {
  const rows = await all<Omit<ConsentRecord, "createdAt" | "confirmedAt" | "history"> & { createdAt: number; confirmedAt: number | null; history: string }>(
    createAlertsDatabase(env.ALERTS_DB),
    sql`SELECT a.id AS alertId, a.status, a.language, a.consent_text_version AS consentTextVersion, a.consent_text_sha256 AS consentTextSha256,
        a.source, a.created_at AS createdAt, a.client_address AS clientAddress, a.user_agent AS userAgent, a.confirmed_at AS confirmedAt,
        (SELECT json_group_array(json_object('at', c.at, 'change', c.change)) FROM (SELECT at, change FROM alert_changes WHERE alert_id = a.id ORDER BY id) c) AS history
      FROM alerts a WHERE a.email_key = ${keyOf(email)} ORDER BY a.id LIMIT ${MAX_RECORDS}`,
  );
  return rows.map((row) => ({
    ...row,
    createdAt: iso(row.createdAt)!,
    confirmedAt: iso(row.confirmedAt),
    history: (JSON.parse(row.history) as { at: number; change: string }[]).map((entry) => ({ at: iso(entry.at)!, change: entry.change })),
  }));
}

/**
 * Ends every alert of the address not ended yet (pending ones too), recorded as `erased`, in one
 * batch: out of the reverse-search index, no email built or sent after this, their matches gone.
 * How many ended.
 */
export async function endAlertsOnRequest(env: Pick<Env, "ALERTS_DB">, email: string, now = Date.now()): Promise<number> {
  const ofAddress = sql`(SELECT id FROM alerts WHERE email_key = ${keyOf(email)})`;
  const [, ended] = await batch(createAlertsDatabase(env.ALERTS_DB), [
    sql`INSERT INTO alert_changes (alert_id, at, change) SELECT id, ${now}, 'erased' FROM alerts WHERE email_key = ${keyOf(email)} AND status <> 'ended'`,
    sql`UPDATE alerts SET status = 'ended', ended_at = ${now}, due_at = NULL WHERE email_key = ${keyOf(email)} AND status <> 'ended' RETURNING id`,
    sql`DELETE FROM alert_terms WHERE alert_id IN ${ofAddress}`,
    sql`UPDATE alert_sends SET status = 'cancelled' WHERE alert_id IN ${ofAddress} AND status = 'pending'`,
    sql`DELETE FROM alert_matches WHERE alert_id IN ${ofAddress}`,
  ]);
  return ended.results.length;
}
