#!/usr/bin/env node
// npm run alerts -- consent --email X [--remote]: the consent records of one address (DESIGN 23,
// 23a), one JSON line per alert, oldest first — what an operator needs to answer a complaint:
// { alertId, status, language, consentTextVersion, consentTextSha256, source, createdAt,
//   clientAddress, userAgent, confirmedAt, history: [{ at, change }] } (times ISO 8601 UTC).
import { parseArgs } from "node:util";
import { consentRecordOf, consentRecordsSql } from "../src/alerts/consent-records.ts";
import { applyMigrations } from "./lib/migrations.mjs";
import { ALERTS_DATABASE, query, sqlString } from "./lib/wrangler.mjs";

const usage = "Usage: npm run alerts -- consent --email <address> [--remote]";
const { values, positionals } = parseArgs({ allowPositionals: true, options: { email: { type: "string" }, remote: { type: "boolean", default: false } } });
if (positionals[0] !== "consent" || !values.email) {
  console.error(usage);
  process.exit(1);
}
if (!values.remote) applyMigrations(false);

const email = sqlString(values.email.trim().toLowerCase());
const rows = query(consentRecordsSql(email), values.remote, ALERTS_DATABASE);
if (rows.length === 0) console.error(`No alerts for ${values.email}.`);
for (const row of rows) console.log(JSON.stringify(consentRecordOf(row)));
