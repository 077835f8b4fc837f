// The board's site as the browser checks use it: `wrangler dev` on a free port with fresh local
// state, one employer and its key, and two jobs made through the API (one routed by email with a
// screening question, one by URL with a French version), waited for until the board shows both.
// Job alerts' links (DESIGN 23): the server's ALERTS_TOKEN_KEY is set here, so `alertLinks(email)`
// derives an alert's confirm, decline, manage and unsubscribe addresses as the Worker does for
// its emails (src/alerts/tokens.ts), from the alert's nonce in ALERTS_DB.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { shardNumbers } from "../../scripts/lib/shards.mjs";
import { ALERTS_DATABASE, query, sqlString, wrangler } from "../../scripts/lib/wrangler.mjs";
import { claimShardSql, shardBinding } from "../../src/shards/identity.ts";
import { hashApiKey, newApiKey } from "../../src/auth/api-keys.ts";
import { tokenOf } from "../../src/alerts/tokens.ts";

export const EMAIL_JOB = {
  title: "Warehouse Lead", status: "active", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 18 }],
  salary: { amount: 55000, maxAmount: 62000, type: { id: 1 } }, applicantRoutingType: { id: 1 }, applicationEmail: "hr@browser.example",
  description: "<p>Lead a <strong>friendly</strong> team.</p>",
  questions: [{ key: "permit", text: "Are you legally entitled to work in Canada?", type: "yesNo", required: true }],
};
export const URL_JOB = {
  title: "Senior Accountant", status: "active", locations: [{ description: "Montréal, QC" }], categories: [{ id: 1 }],
  applicantRoutingType: { id: 2 }, applicationUrl: "https://careers.example.com/apply",
  translations: { fr: { title: "Comptable principal", description: "<p>Joignez-vous à l'équipe.</p>" } },
};

/** Resolves with the running site and its two jobs (`{ status, body }` each); `stop()` ends it. `args`: more for `wrangler dev`. */
export async function startSite({ args = [] } = {}) {
  const state = mkdtempSync(join(tmpdir(), "board-site-state-"));
  const local = ["--local", "--persist-to", state];
  for (const shard of shardNumbers(true)) {
    wrangler(["d1", "migrations", "apply", shardBinding(shard), ...local]);
    wrangler(["d1", "execute", shardBinding(shard), ...local, "--command", claimShardSql(shard)]);
  }
  wrangler(["d1", "migrations", "apply", "BOARD_DB", ...local]);
  // Job alerts' own database (DESIGN 23): the search pages' alert form writes to it.
  wrangler(["d1", "migrations", "apply", "ALERTS_DB", ...local]);
  // The employer console's own database (DESIGN 25).
  wrangler(["d1", "migrations", "apply", "ACCOUNTS_DB", ...local]);
  // The employer lives in shard 1 (DESIGN 22): every page, the apply form and the report form
  // then write to a shard other than DB, as the board's row of the job names it.
  const inserted = wrangler(["d1", "execute", "DB_1", ...local, "--json", "--command", "INSERT INTO employers (name, plan, created_at) VALUES ('Browser Test Ltd.', 'standard', unixepoch()) RETURNING id"]);
  const [{ id: employerId }] = JSON.parse(inserted.slice(inserted.indexOf("["))).at(-1).results;
  const apiKey = newApiKey();
  wrangler(["kv", "key", "put", await hashApiKey(apiKey), JSON.stringify({ employerId, shard: 1 }), "--binding=API_KEYS", ...local]);
  // Given on the command line, it wins over a developer's .dev.vars (CI has none).
  const alertsTokenKey = randomBytes(32).toString("base64");
  const worker = await startDevServer(state, { args: ["--var", `ALERTS_TOKEN_KEY:${alertsTokenKey}`, ...args] });
  const stop = () => {
    worker.stop();
    rmSync(state, { recursive: true, force: true });
  };
  try {
    const api = async (path, init = {}) => {
      const res = await fetch(`${worker.origin}/api/v1.1${path}`, {
        ...init,
        headers: { "API-Key": apiKey, "Content-Type": "application/json", ...init.headers },
        body: init.json ? JSON.stringify(init.json) : undefined,
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    const emailJob = await api("/jobs", { method: "POST", json: EMAIL_JOB });
    const urlJob = await api("/jobs", { method: "POST", json: URL_JOB });
    // The board is fed by its queue: wait until both jobs are on it.
    for (let i = 0; i < 60; i++) {
      const board = await fetch(`${worker.origin}/api/v1.1/board/jobs?t=${i}`).then((res) => res.json());
      if (board.data?.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    /** The newest alert of this address: its pages' paths, as its emails would link them. */
    const alertLinks = async (email) => {
      const [row] = query(`SELECT token_nonce AS nonce FROM alerts WHERE email_key = ${sqlString(email.toLowerCase())} ORDER BY id DESC LIMIT 1`, false, ALERTS_DATABASE, ["--persist-to", state]);
      if (!row) throw new Error(`no alert for ${email}`);
      const [confirm, manage] = await Promise.all([tokenOf(alertsTokenKey, "confirm", row.nonce), tokenOf(alertsTokenKey, "manage", row.nonce)]);
      return { confirm: `/alerts/confirm/${confirm}`, decline: `/alerts/decline/${confirm}`, manage: `/alerts/manage/${manage}`, unsubscribe: `/alerts/unsubscribe/${manage}` };
    };
    /** The text of the emails the Worker sent to `to` (the local Email binding keeps each in a file and logs where), oldest first. */
    const emailsTo = (to) =>
      [...worker.output().matchAll(/send_email binding called with MessageBuilder:([\s\S]*?)Text: (\S+\.txt)/g)]
        .filter(([, header]) => header.includes(to))
        .map(([, , file]) => readFileSync(file, "utf8"));
    return { origin: worker.origin, api, emailJob, urlJob, alertLinks, emailsTo, employerId, state, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
