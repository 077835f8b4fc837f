#!/usr/bin/env node
// npm run reports [-- --limit 50] [--remote]: the reports of job postings sent from the board's
// pages (DESIGN 18, Ontario's Working for Workers Seven Act, 2025), newest first, for the operator.
import { parseArgs } from "node:util";
import { applyMigrations } from "./lib/migrations.mjs";
import { queryEveryShard } from "./lib/shards.mjs";

const { values } = parseArgs({ options: { remote: { type: "boolean", default: false }, limit: { type: "string", default: "50" } } });
const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
  console.error("--limit must be a whole number from 1 to 10000.");
  process.exit(1);
}
if (!values.remote) applyMigrations(false);
// A report is kept in its job's shard (DESIGN 22): the newest of every shard, merged.
const rows = queryEveryShard(
  `SELECT id, job_id AS jobId, reason, details, email, created_at AS at, strftime('%Y-%m-%dT%H:%M:%SZ', created_at / 1000, 'unixepoch') AS createdAt
   FROM job_reports ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  values.remote,
)
  .flatMap(({ rows }) => rows)
  .sort((a, b) => b.at - a.at || b.id - a.id)
  .slice(0, limit)
  .map(({ at: _at, ...row }) => row);
if (rows.length === 0) console.log("No reports.");
for (const row of rows) console.log(JSON.stringify(row));
