import { sql } from "drizzle-orm";
import type { Env } from "../env";
import { consentRecordOf, consentRecordsSql, type ConsentRecord, type ConsentRow } from "./consent-records";
import { batch, createAlertsDatabase } from "./database/client";

export type { ConsentRecord };

// DESIGN 26, 26a: a job seeker's requests about their alerts, answered by the operator: the consent
// records of an address (an access request), and the end of every alert of it (an erasure: the
// alerts end, their matches and pending emails go, their tokens answer "unsubscribed"; the consent
// records are kept as the law allows, DESIGN 23).

/** Records of one address at most (20 alerts at a time; ended ones are kept 3 years). */
const MAX_RECORDS = 1_000;

const keyOf = (email: string) => email.trim().toLowerCase();

/** The address's consent records, oldest first (DESIGN 23a), as `npm run alerts -- consent` prints them. */
export async function consentRecordsOf(env: Pick<Env, "ALERTS_DB">, email: string): Promise<ConsentRecord[]> {
  const { results } = await env.ALERTS_DB.prepare(consentRecordsSql("?", MAX_RECORDS)).bind(keyOf(email)).all<ConsentRow>();
  return results.map(consentRecordOf);
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
