#!/usr/bin/env node
// npm run shards -- list [--remote]: each shard of the employer side (DESIGN 22a), one JSON line
// each: {"shard":k,"binding":"DB_1","employers":…,"jobs":…,"bytes":…}.
import { parseArgs } from "node:util";
import { shardBinding } from "../src/shards/identity.ts";
import { applyMigrations } from "./lib/migrations.mjs";
import { queryEveryShard, shardBytes, shardDatabases } from "./lib/shards.mjs";

const USAGE = `Usage:
  npm run shards -- list [--remote]
Local dev state by default (its migrations are applied first); --remote reads the deployed
databases and never applies migrations (npm run deploy does).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { remote: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } },
});
const [command] = positionals;

function list(remote) {
  const databases = shardDatabases(remote);
  const counts = queryEveryShard("SELECT (SELECT count(*) FROM employers WHERE test_of IS NULL) AS employers, (SELECT count(*) FROM jobs) AS jobs", remote);
  for (const [i, { shard, rows: [row] }] of counts.entries()) {
    console.log(JSON.stringify({ shard, binding: shardBinding(shard), ...row, bytes: shardBytes(databases[i], remote) }));
  }
}

try {
  if (values.help || !command) console.log(USAGE);
  else if (command === "list") {
    if (!values.remote) applyMigrations(false);
    list(values.remote);
  } else throw new Error(`Unknown command "${command}".\n${USAGE}`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
