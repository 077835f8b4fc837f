#!/usr/bin/env node
// npm run keys -- create --name "Acme Ltd." [--plan unlimited] [--shard K] [--remote]
// npm run keys -- create --test --employer N | --test --name "Acme Ltd."   (a jpa_test_ key, DESIGN 21)
// npm run keys -- revoke --stdin [--remote]   (or revoke KEY: the key then shows in shell history)
// npm run keys -- list [--remote]
import { parseArgs } from "node:util";
import { createEmployerWithKey, listEmployers, revokeKey } from "./lib/employers.mjs";
import { applyMigrations } from "./lib/migrations.mjs";

const USAGE = `Usage:
  npm run keys -- create --name "Acme Ltd." [--plan standard|unlimited] [--shard K] [--remote]
  npm run keys -- create --test --employer N [--remote]   (a test key for employer N's test space)
  npm run keys -- create --test --name "Acme Ltd."        (a new employer with only a test key)
  npm run keys -- revoke --stdin [--remote]   (reads the key from standard input)
  npm run keys -- revoke KEY [--remote]       (the key shows in shell history and process lists)
  npm run keys -- list [--remote]
Local dev state by default (its migrations are applied first); --remote acts on the deployed
D1 database and KV namespace and never applies migrations (npm run deploy does).`;

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8").trim();
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: "string" },
      plan: { type: "string", default: "standard" },
      remote: { type: "boolean", default: false },
      stdin: { type: "boolean", default: false },
      test: { type: "boolean", default: false },
      employer: { type: "string" },
      shard: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) return console.log(USAGE);
  // Locally the CLI may run before npm run dev ever did: make sure the schema is there. Never
  // remotely: production migrations are a deploy's decision (npm run deploy), not a key's.
  if (!values.remote) applyMigrations(false);

  switch (command) {
    case "create": {
      if (values.employer !== undefined && !values.test) throw new Error("--employer goes with --test: a live key comes with a new employer (--name).");
      if (values.shard !== undefined && values.test && values.employer !== undefined) throw new Error("--shard goes with a new employer: a test key lives in its employer's shard.");
      const { employerId, apiKey, shard } = await createEmployerWithKey(values.test && values.employer !== undefined ? { ...values, employerId: values.employer } : values);
      if (values.test) console.log(`A test key for employer ${employerId}'s test space: it never publishes to the board and sends no email.`);
      else console.log(`Created employer ${employerId} (${values.name.trim()}, ${values.plan} plan) in shard ${shard}.`);
      console.log("Its API key is shown this once; store it now (only its SHA-256 hash is kept):");
      console.log(`  ${apiKey}`);
      console.log(JSON.stringify({ employerId, apiKey, shard }));
      return;
    }
    case "revoke": {
      const key = values.stdin ? await readStdin() : rest[0];
      if (values.stdin ? rest.length !== 0 : rest.length !== 1) throw new Error("revoke takes exactly one KEY, or --stdin.");
      if (!key) throw new Error("No key given.");
      if (!(await revokeKey(key, values.remote))) throw new Error("No such key.");
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
