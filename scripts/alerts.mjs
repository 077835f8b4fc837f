#!/usr/bin/env node
// npm run alerts -- consent --email X [--remote]: the consent records of one address (DESIGN 23,
// 23a), one JSON line per alert, oldest first — what an operator needs to answer a complaint:
// { alertId, status, language, consentTextVersion, consentTextSha256, source, createdAt,
//   clientAddress, userAgent, confirmedAt, history: [{ at, change }] } (times ISO 8601 UTC).
import { parseArgs } from "node:util";
import { applyMigrations } from "./lib/migrations.mjs";
import { ALERTS_DATABASE, query, sqlString } from "./lib/wrangler.mjs";

const usage = "Usage: npm run alerts -- consent --email <address> [--remote]";
const { values, positionals } = parseArgs({ allowPositionals: true, options: { email: { type: "string" }, remote: { type: "boolean", default: false } } });
if (positionals[0] !== "consent" || !values.email) {
  console.error(usage);
  process.exit(1);
}
if (!values.remote) applyMigrations(false);

const iso = (ms) => (ms === null || ms === undefined ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));
const email = sqlString(values.email.trim().toLowerCase());
// One statement (one read): each alert of the address with its changes as a JSON array.
const rows = query(
  `SELECT a.id AS alertId, a.status, a.language, a.consent_text_version AS consentTextVersion, a.consent_text_sha256 AS consentTextSha256,
          a.source, a.created_at AS createdAt, a.client_address AS clientAddress, a.user_agent AS userAgent, a.confirmed_at AS confirmedAt,
          (SELECT json_group_array(json_object('at', c.at, 'change', c.change)) FROM (SELECT at, change FROM alert_changes WHERE alert_id = a.id ORDER BY id) c) AS history
   FROM alerts a WHERE a.email_key = ${email} ORDER BY a.id`,
  values.remote,
  ALERTS_DATABASE,
);
if (rows.length === 0) console.error(`No alerts for ${values.email}.`);
for (const row of rows) {
  const history = JSON.parse(row.history).map((entry) => ({ at: iso(entry.at), change: entry.change }));
  console.log(JSON.stringify({ ...row, createdAt: iso(row.createdAt), confirmedAt: iso(row.confirmedAt), history }));
}
