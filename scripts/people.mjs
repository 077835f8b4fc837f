#!/usr/bin/env node
// npm run people -- invite --employer N --email X [--role admin|recruiter] [--remote] [--origin URL]:
// an invitation to employer N's console (DESIGN 25a), single use, 7 days; prints as its last line
// {"invitationUrl":"…","expiresAt":"…"} — the link is the only copy of its token (only its
// SHA-256 is stored). npm run people -- list --employer N [--remote]: one JSON line per person,
// then per invitation, of employer N.
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";
import { emailKey, hashToken, INVITATION_MS, newToken, ROLES } from "../src/accounts/tokens.ts";
import { applyMigrations } from "./lib/migrations.mjs";
import { queryEveryShard } from "./lib/shards.mjs";
import { ACCOUNTS_DATABASE, query, sqlString } from "./lib/wrangler.mjs";

const USAGE = `Usage:
  npm run people -- invite --employer N --email X [--role admin|recruiter] [--remote] [--origin URL]
  npm run people -- list --employer N [--remote]
Local dev state by default (its migrations are applied first; --persist-to DIR: local state kept
elsewhere); --remote acts on the deployed databases and never applies migrations (npm run deploy
does). The link's origin: --origin, else PUBLIC_ORIGIN, else BASE_URL of wrangler.toml's target,
else (locally) http://localhost:$PORT (8787).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    employer: { type: "string" },
    email: { type: "string" },
    role: { type: "string", default: "admin" },
    origin: { type: "string" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
const [command] = positionals;
const extraArgs = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];
const iso = (ms) => (ms === null || ms === undefined ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));

/** Employer N, live (not a test space, not moved away), in whichever shard it lives; or a clear refusal. */
function liveEmployer(remote) {
  const id = Number(values.employer);
  if (!values.employer || !/^\d+$/.test(values.employer) || !Number.isSafeInteger(id) || id < 1) throw new Error(`--employer must be an employer id.\n${USAGE}`);
  const found = queryEveryShard(`SELECT id, name FROM employers WHERE id = ${id} AND test_of IS NULL AND moved_to IS NULL`, remote, extraArgs).find(({ rows }) => rows.length);
  if (!found) throw new Error(`No employer ${id}: create one with npm run keys -- create --name "…", or see npm run keys -- list.`);
  return found.rows[0];
}

/** Where the console is: --origin, PUBLIC_ORIGIN, the target's BASE_URL, else (locally) the dev server's. */
function publicOrigin(remote) {
  const config = unstable_readConfig({ config: fileURLToPath(new URL("../wrangler.toml", import.meta.url)), env: remote ? undefined : "dev" }, { hideWarnings: true });
  const origin = values.origin || process.env.PUBLIC_ORIGIN || config.vars?.BASE_URL || (remote ? "" : `http://localhost:${process.env.PORT ?? "8787"}`);
  if (!origin) throw new Error("The console's public origin is unknown: give --origin https://… (or set PUBLIC_ORIGIN, or BASE_URL in wrangler.toml).");
  return new URL(origin).origin;
}

function invite(remote) {
  const employer = liveEmployer(remote);
  const email = emailKey(values.email ?? "");
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw new Error(`--email must be an email address.\n${USAGE}`);
  if (!ROLES.includes(values.role)) throw new Error(`--role must be one of: ${ROLES.join(", ")}.`);
  const origin = publicOrigin(remote);
  return issue(employer, email, origin, remote);
}

async function issue(employer, email, origin, remote) {
  const token = newToken();
  const now = Date.now();
  const expiresAt = now + INVITATION_MS;
  query(
    `INSERT INTO invitations (token_hash, employer_id, email, role, invited_by, created_at, expires_at)
     VALUES (${sqlString(await hashToken(token))}, ${employer.id}, ${sqlString(email)}, ${sqlString(values.role)}, 'operator', ${now}, ${expiresAt})`,
    remote,
    ACCOUNTS_DATABASE,
    extraArgs,
  );
  console.log(`Invited ${email} to ${employer.name} (employer ${employer.id}) as ${values.role}. Open the link within 7 days; it works once:`);
  console.log(JSON.stringify({ invitationUrl: `${origin}/employer/invitations/${token}`, expiresAt: iso(expiresAt) }));
}

function list(remote) {
  const { id } = liveEmployer(remote);
  const people = query(`SELECT id, email, role, language, created_at AS createdAt FROM people WHERE employer_id = ${id} ORDER BY id`, remote, ACCOUNTS_DATABASE, extraArgs);
  const invitations = query(
    `SELECT email, role, invited_by AS invitedBy, created_at AS createdAt, expires_at AS expiresAt, used_at AS usedAt FROM invitations WHERE employer_id = ${id} ORDER BY created_at`,
    remote,
    ACCOUNTS_DATABASE,
    extraArgs,
  );
  const now = Date.now();
  for (const person of people) console.log(JSON.stringify({ type: "person", ...person, createdAt: iso(person.createdAt) }));
  for (const invitation of invitations) {
    const status = invitation.usedAt !== null ? "accepted" : invitation.expiresAt <= now ? "expired" : "open";
    console.log(JSON.stringify({ type: "invitation", ...invitation, status, createdAt: iso(invitation.createdAt), expiresAt: iso(invitation.expiresAt), usedAt: iso(invitation.usedAt) }));
  }
}

try {
  if (values.remote && values["persist-to"]) throw new Error("--persist-to is for local state; --remote acts on the deployed databases.");
  if (values.help || !command) console.log(USAGE);
  else if (command === "invite" || command === "list") {
    // Locally the command may run before npm run dev ever did: make sure the schema is there.
    if (!values.remote) applyMigrations(false, extraArgs);
    if (command === "invite") await invite(values.remote);
    else list(values.remote);
  } else throw new Error(`Unknown command "${command}".\n${USAGE}`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
