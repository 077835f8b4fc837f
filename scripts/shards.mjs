#!/usr/bin/env node
// npm run shards -- list [--remote]: each shard of the employer side (DESIGN 22a), one JSON line
// each: {"shard":k,"binding":"DB_1","employers":…,"jobs":…,"bytes":…}.
// npm run shards -- move --employer N --to K [--remote]: moves employer N (its test space with
// it) to shard K while the service runs (DESIGN 22b). The Worker moves it (its EmployerMove
// Durable Object); this asks the operator's routes to start the move (POST
// /operator/shards/moves) and follows it (GET /operator/shards/moves/N, about every second),
// printing a line when something changes and, last, one JSON line
// {"employerId":N,"from":J,"to":K,"rows":…,"ms":…}; exit 0 only once the move is done. Killing it
// does not stop the move; running it again follows the same move.
import { parseArgs } from "node:util";
import { shardBinding } from "../src/shards/identity.ts";
import { serviceToken } from "./lib/dev-access.mjs";
import { applyMigrations } from "./lib/migrations.mjs";
import { queryEveryShard, shardBytes, shardDatabases } from "./lib/shards.mjs";

const USAGE = `Usage:
  npm run shards -- list [--remote] [--persist-to DIR]
  npm run shards -- move --employer N --to K [--remote]
list: local dev state by default (its migrations are applied first; --persist-to DIR: local state
kept elsewhere); --remote reads the deployed databases (never migrating: npm run deploy does).
move: locally, through npm run dev (it must be running; PORT as npm run dev's, 8787 by default),
as a service token of its stand-in of Access; --remote, through the deployment's operator routes:
OPERATOR_URL (its origin, https://jobs.example.com), CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET
(an Access service token allowed into /operator: docs/operator.md) from the environment.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    remote: { type: "boolean", default: false },
    employer: { type: "string" },
    to: { type: "string" },
    "persist-to": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
const [command] = positionals;
const extraArgs = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];

/** Between two reads of the move's progress. */
const POLL_MS = 1_000;
/** The operator's routes not answering for this long (a restart of npm run dev, the network): given up, the move goes on. */
const UNREACHABLE_MS = 60_000;
/** The service token's name as the console's audit records it: service-token:<this>. */
const LOCAL_COMMON_NAME = "npm-run-shards.dev";

/** Said and exit 1; nothing was started (or the move goes on without this command). */
class Stop extends Error {}
/** Nothing answered at all. */
class Unreachable extends Stop {}

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
  if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(number)) throw new Stop(`${option} must be a whole number.${value === undefined ? `\n${USAGE}` : ""}`);
  return number;
}

/**
 * Where the operator's routes are and how to pass Access: npm run dev's origin with a token of its
 * stand-in (signed anew for each request), or the deployment's with a service token's headers.
 */
function operatorConsole(remote) {
  if (remote) {
    const { OPERATOR_URL, CF_ACCESS_CLIENT_ID, CF_ACCESS_CLIENT_SECRET } = process.env;
    const missing = Object.entries({ OPERATOR_URL, CF_ACCESS_CLIENT_ID, CF_ACCESS_CLIENT_SECRET }).filter(([, value]) => !value).map(([name]) => name);
    if (missing.length) throw new Stop(`--remote needs ${missing.join(", ")} in the environment.\n${USAGE}`);
    return {
      origin: OPERATOR_URL.replace(/\/+$/, ""),
      where: OPERATOR_URL,
      headers: async () => ({ "CF-Access-Client-Id": CF_ACCESS_CLIENT_ID, "CF-Access-Client-Secret": CF_ACCESS_CLIENT_SECRET }),
    };
  }
  const port = process.env.PORT ?? "8787";
  return {
    origin: `http://localhost:${port}`,
    where: `npm run dev (http://localhost:${port})`,
    headers: async () => ({ "Cf-Access-Jwt-Assertion": await serviceToken({ commonName: LOCAL_COMMON_NAME, port }) }),
  };
}

/** One JSON request to the operator's routes: its status and body; Stop when nothing answers (said for npm run dev). */
async function call(operator, remote, path, init = {}) {
  let res;
  try {
    res = await fetch(`${operator.origin}${path}`, { ...init, redirect: "manual", headers: { Accept: "application/json", ...(await operator.headers()), ...init.headers } });
  } catch (error) {
    throw new Unreachable(
      remote
        ? `${operator.where} does not answer (${error.cause?.code ?? error.message}).`
        : `npm run dev is not running on ${operator.origin} (${error.cause?.code ?? error.message}): start it (npm run dev, with the same PORT) and run this again.`,
    );
  }
  const text = await res.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: said below
  }
  return { status: res.status, body, text };
}

/** Why the routes refused, as a person reads it. */
function refusal({ status, body, text }, operator) {
  if (status === 403) return `Access refused this command at ${operator.where} (403): ${values.remote ? "the service token is not allowed into /operator (docs/operator.md)" : "npm run dev's Access settings are not its stand-in's (.dev.vars sets ACCESS_TEAM_DOMAIN or ACCESS_AUD)"}.`;
  if (status === 404 && !body?.type?.startsWith("/problems/not-found")) return `${operator.where} has no operator console (404): ACCESS_TEAM_DOMAIN and ACCESS_AUD are not set.`;
  if (body?.detail) return [body.detail, ...(body.errors ?? []).map((error) => `  ${error.field}: ${error.message}`)].join("\n");
  return `${operator.where} answered ${status}: ${text.slice(0, 300)}`;
}

/** A line saying where the move is; printed when it changes. */
function progressLine(status) {
  const parts = [`stage ${status.stage}`, `copied ${status.copied}`, `copied again ${status.synced}`];
  if (status.rounds.length) parts.push(`rounds ${status.rounds.join("/")}`);
  if (status.freezes.length) parts.push(`freezes ${status.freezes.map((freeze) => `${freeze.ms} ms ${freeze.outcome}${freeze.why ? ` (${freeze.why})` : ""}`).join(", ")}`);
  if (status.deleted) parts.push(`deleted from shard ${status.from} ${status.deleted}`);
  if (status.error) parts.push(`last error: ${status.error.message}`);
  return parts.join("; ");
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function move(remote) {
  const employerId = wholeNumber(values.employer, "--employer");
  const to = wholeNumber(values.to, "--to");
  const operator = operatorConsole(remote);
  const path = `/operator/shards/moves/${employerId}`;
  const started = await call(operator, remote, "/operator/shards/moves", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ employerId, to }),
  });
  if (started.status !== 200 && started.status !== 202) throw new Stop(refusal(started, operator));
  let status = started.body;
  console.log(`moving employer ${employerId} from shard ${status.from} to shard ${to} (${operator.where}; started ${new Date(status.startedAt).toISOString()}): ${operator.origin}${path}`);
  let last = "";
  let unreachableSince = null;
  for (;;) {
    const line = progressLine(status);
    if (line !== last) console.log((last = line));
    if (status.stage === "done") break;
    if (status.stage === "failed") throw new Stop(`The move failed; employer ${employerId} lives in shard ${status.from} as before: ${status.error?.message ?? "no reason recorded"}`);
    await pause(POLL_MS);
    try {
      const read = await call(operator, remote, path);
      if (read.status !== 200) throw new Stop(refusal(read, operator));
      status = read.body;
      unreachableSince = null;
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      // A moment without answers (npm run dev restarting): the move goes on in the Worker; keep asking a while.
      unreachableSince ??= Date.now();
      if (Date.now() - unreachableSince > UNREACHABLE_MS) throw new Stop(`${error.message}\nThe move goes on in the Worker: run the same command again to follow it.`);
    }
  }
  console.log(JSON.stringify(status.outcome));
}

try {
  if (values.remote && values["persist-to"]) throw new Stop("--persist-to is for local state; --remote acts on the deployment.");
  if (values.help || !command) console.log(USAGE);
  else if (command === "list") {
    if (!values.remote) applyMigrations(false, extraArgs);
    list(values.remote);
  } else if (command === "move") {
    if (values["persist-to"]) throw new Stop("move acts through npm run dev (or --remote, the deployment): --persist-to is for list.");
    await move(values.remote);
  } else throw new Stop(`Unknown command "${command}".\n${USAGE}`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
