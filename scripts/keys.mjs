#!/usr/bin/env node
// npm run keys -- create --name "Acme Ltd." [--plan unlimited] [--remote]
// npm run keys -- revoke KEY [--remote]
// npm run keys -- list [--remote]
import { parseArgs } from "node:util";
import { createEmployerWithKey, listEmployers, revokeKey } from "./lib/employers.mjs";
import { applyMigrations } from "./lib/wrangler.mjs";

const USAGE = `Usage:
  npm run keys -- create --name "Acme Ltd." [--plan standard|unlimited] [--remote]
  npm run keys -- revoke KEY [--remote]
  npm run keys -- list [--remote]
Local dev state by default; --remote acts on the deployed D1 database and KV namespace.`;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: "string" },
      plan: { type: "string", default: "standard" },
      remote: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) return console.log(USAGE);
  // The key store lives beside the employers table, so make sure the schema is there first.
  applyMigrations(values.remote);

  switch (command) {
    case "create": {
      const { employerId, apiKey } = await createEmployerWithKey(values);
      console.log(`Created employer ${employerId} (${values.name.trim()}, ${values.plan} plan).`);
      console.log("Its API key is shown this once; store it now (only its SHA-256 hash is kept):");
      console.log(`  ${apiKey}`);
      console.log(JSON.stringify({ employerId, apiKey }));
      return;
    }
    case "revoke": {
      if (rest.length !== 1) throw new Error("revoke takes exactly one KEY.");
      if (!(await revokeKey(rest[0], values.remote))) throw new Error("No such key.");
      console.log("Revoked. Running isolates may still accept it for up to 60 seconds (their key cache).");
      return;
    }
    case "list": {
      const rows = listEmployers(values.remote);
      if (rows.length === 0) return console.log("No employers yet. Create one with: npm run keys -- create --name \"Acme Ltd.\"");
      console.table(rows);
      return;
    }
    default:
      throw new Error(`Unknown command "${command}".\n${USAGE}`);
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
