#!/usr/bin/env node
// npm run shards -- list [--remote]: each shard of the employer side (DESIGN 22a), one JSON line
// each: {"shard":k,"binding":"DB_1","employers":…,"jobs":…,"bytes":…}.
// npm run shards -- move --employer N --to K [--remote]: moves employer N (its test space with
// it) to shard K while the service runs (src/shards/move.ts), progress lines then, last, one JSON
// line {"employerId":N,"from":J,"to":K,"rows":…,"ms":…}; exit 0 only once the move is complete.
// A move stopped at any point is finished by running the same command again.
import { parseArgs } from "node:util";
import { shardBinding } from "../src/shards/identity.ts";
import { moveEmployer, MoveRefused } from "../src/shards/move.ts";
import { applyMigrations } from "./lib/migrations.mjs";
import { moveThroughWrangler } from "./lib/move.mjs";
import { queryEveryShard, shardBytes, shardDatabases } from "./lib/shards.mjs";

const USAGE = `Usage:
  npm run shards -- list [--remote]
  npm run shards -- move --employer N --to K [--remote] [--scan-keys]
Local dev state by default (its migrations are applied first; --persist-to DIR: local state kept
elsewhere); --remote acts on the deployed databases and KV and never applies migrations (npm run
deploy does). move: --scan-keys also finds the employer's API keys by listing every key in KV
(keys made before shards listed their keys are found so anyway when its shard lists none).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    remote: { type: "boolean", default: false },
    employer: { type: "string" },
    to: { type: "string" },
    "scan-keys": { type: "boolean", default: false },
    "persist-to": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
const [command] = positionals;
const extraArgs = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];

function list(remote) {
  const databases = shardDatabases(remote);
  // A moved employer counts once, in the shard it lives in (its tombstones elsewhere do not).
  const counts = queryEveryShard(
    "SELECT (SELECT count(*) FROM employers WHERE test_of IS NULL AND moved_to IS NULL) AS employers, (SELECT count(*) FROM jobs) AS jobs",
    remote,
    extraArgs,
  );
  for (const [i, { shard, rows: [row] }] of counts.entries()) {
    console.log(JSON.stringify({ shard, binding: shardBinding(shard), ...row, bytes: shardBytes(databases[i], remote, values["persist-to"]) }));
  }
}

/** A whole number given on the command line, or a clear refusal. */
function wholeNumber(value, option) {
  const number = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(number)) throw new MoveRefused(`${option} must be a whole number.${value === undefined ? `\n${USAGE}` : ""}`);
  return number;
}

async function move(remote) {
  const employerId = wholeNumber(values.employer, "--employer");
  const to = wholeNumber(values.to, "--to");
  const { dbs, keys } = moveThroughWrangler(remote, extraArgs);
  const outcome = await moveEmployer(dbs, keys, { employerId, to, scanKeys: values["scan-keys"] }, { log: (line) => console.log(line) });
  console.log(JSON.stringify(outcome));
}

try {
  if (values.remote && values["persist-to"]) throw new MoveRefused("--persist-to is for local state; --remote acts on the deployed databases.");
  if (values.help || !command) console.log(USAGE);
  else if (command === "list" || command === "move") {
    if (!values.remote) applyMigrations(false, extraArgs);
    if (command === "list") list(values.remote);
    else await move(values.remote);
  } else throw new Error(`Unknown command "${command}".\n${USAGE}`);
} catch (error) {
  // A refusal changed nothing; a move stopped part way (by the move itself, or by wrangler, the
  // network, D1) is recorded, and finished by running the same command again.
  const stopped = command === "move" && !(error instanceof MoveRefused);
  console.error(stopped ? `${error.message}\nThe move is recorded where it stopped: run the same command again to finish it.` : error.message);
  process.exit(1);
}
