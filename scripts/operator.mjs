#!/usr/bin/env node
// npm run operator -- sign-in --email X: under npm run dev, a link that signs a browser in to the
// operator's console through the dev stand-in of Cloudflare Access (DESIGN 26a); it works for an hour.
// npm run operator -- audit [--since YYYY-MM-DD] [--remote]: one JSON line per act of the console,
// oldest first: { at, operator, action, target, reason, note, outcome } (DESIGN 26a; docs/operator.md).
import { parseArgs } from "node:util";
import { signInLink } from "./lib/dev-access.mjs";
import { ACCOUNTS_DATABASE, query, target, withRetries, wrangler } from "./lib/wrangler.mjs";

const USAGE = `Usage:
  npm run operator -- sign-in --email X        (local only: npm run dev's stand-in of Access; PORT as npm run dev's)
  npm run operator -- audit [--since YYYY-MM-DD] [--remote]
Local dev state by default (its migrations are applied first; --persist-to DIR: local state kept
elsewhere); --remote reads the deployed ACCOUNTS_DB.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: "string" },
    since: { type: "string" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
const [command] = positionals;
const extraArgs = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];
/** Acts read per query: the output streams, whatever the audit's size. */
const PAGE = 1_000;
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

async function signIn() {
  const email = (values.email ?? "").trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`--email must be an email address.\n${USAGE}`);
  const { link, expiresAt } = await signInLink({ email, port: process.env.PORT ?? "8787" });
  console.log(`Open this link in the browser where npm run dev serves the console; it signs in ${email} until ${expiresAt}:`);
  console.log(link);
}

function audit(remote) {
  let since = 0;
  if (values.since !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.since) || Number.isNaN(Date.parse(`${values.since}T00:00:00Z`))) throw new Error(`--since must be a date, YYYY-MM-DD.\n${USAGE}`);
    since = Date.parse(`${values.since}T00:00:00Z`);
  }
  let after = 0;
  for (;;) {
    const acts = query(
      `SELECT id, at, operator, action, target, reason, note, outcome FROM audit WHERE at >= ${since} AND id > ${after} ORDER BY id LIMIT ${PAGE}`,
      remote,
      ACCOUNTS_DATABASE,
      extraArgs,
    );
    for (const { id: _id, at, ...act } of acts) console.log(JSON.stringify({ at: iso(at), ...act }));
    if (acts.length < PAGE) return;
    after = acts.at(-1).id;
  }
}

try {
  if (values.remote && values["persist-to"]) throw new Error("--persist-to is for local state; --remote reads the deployed database.");
  if (values.help || !command) console.log(USAGE);
  else if (command === "sign-in") {
    if (values.remote) throw new Error("sign-in is npm run dev's stand-in of Access: deployments sign in through Cloudflare Access itself (docs/operator.md).");
    await signIn();
  } else if (command === "audit") {
    // Locally the command may run before npm run dev ever did: make sure the audit's schema is
    // there (only ACCOUNTS_DB's: the audit is all it reads).
    if (!values.remote) withRetries(() => wrangler(["d1", "migrations", "apply", ACCOUNTS_DATABASE, ...target(false), ...extraArgs]), false);
    audit(values.remote);
  } else throw new Error(`Unknown command "${command}".\n${USAGE}`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
