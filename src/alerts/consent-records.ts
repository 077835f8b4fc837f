// DESIGN 23a, 26a: an address's consent records, as `npm run alerts -- consent` prints them and as
// the operator's export holds them. One statement for both: the command runs it through wrangler
// outside the Worker, so this module imports nothing and Node runs it as it is.

/** One alert's consent record (times ISO 8601 UTC). */
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

/** A record as the statement reads it: times in ms, its history as JSON. */
export type ConsentRow = Omit<ConsentRecord, "createdAt" | "confirmedAt" | "history"> & { createdAt: number; confirmedAt: number | null; history: string };

/**
 * Each alert of an address (its lowercase form, as SQL: `?` to bind, or a quoted literal) with its
 * changes, oldest first, all or at most `limit`: one read by alerts_email_idx.
 */
export function consentRecordsSql(emailKey: string, limit?: number): string {
  if (limit !== undefined && !Number.isSafeInteger(limit)) throw new RangeError(`not a limit: ${limit}`);
  return `SELECT a.id AS alertId, a.status, a.language, a.consent_text_version AS consentTextVersion, a.consent_text_sha256 AS consentTextSha256,
      a.source, a.created_at AS createdAt, a.client_address AS clientAddress, a.user_agent AS userAgent, a.confirmed_at AS confirmedAt,
      (SELECT json_group_array(json_object('at', c.at, 'change', c.change)) FROM (SELECT at, change FROM alert_changes WHERE alert_id = a.id ORDER BY id) c) AS history
    FROM alerts a WHERE a.email_key = ${emailKey} ORDER BY a.id${limit === undefined ? "" : ` LIMIT ${limit}`}`;
}

const iso = (ms: number | null) => (ms === null || ms === undefined ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));

export function consentRecordOf(row: ConsentRow): ConsentRecord {
  const history = (JSON.parse(row.history) as { at: number; change: string }[]).map((entry) => ({ at: iso(entry.at) as string, change: entry.change }));
  return { ...row, createdAt: iso(row.createdAt) as string, confirmedAt: iso(row.confirmedAt), history };
}
