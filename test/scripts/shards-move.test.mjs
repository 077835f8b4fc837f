import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ACCESS_AUD, ensureStandInKey, readDevVars, standInOrigin } from "../../scripts/lib/dev-access.mjs";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { shardNumbers } from "../../scripts/lib/shards.mjs";
import { KEYS_BINDING, wrangler } from "../../scripts/lib/wrangler.mjs";
import { claimShardSql, shardBinding } from "../../src/shards/identity.ts";

// DESIGN 22a, 22b: `npm run shards -- move` as a person runs it beside `npm run dev`: a dev server
// on local state of its own (a temporary --persist-to directory, removed after) with the stand-in
// of Access, and the command, run from a directory whose .dev.vars holds the stand-in's key,
// asking the operator's routes to move an employer and following the move to its end.

const SCRIPT = fileURLToPath(new URL("../../scripts/shards.mjs", import.meta.url));
const MINUTES = 60_000;
let state;
let devDir;
let server;
let port;
let employerId;

/** The shards command from the .dev.vars directory, with npm run dev's PORT: its exit code and its output's lines. */
function shards(args, { env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: devDir, env: { ...process.env, PORT: String(port), ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let error = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (error += chunk));
    child.on("close", (code) => resolve({ code, lines: out.trim().split("\n"), error }));
  });
}

const local = () => ["--local", "--persist-to", state];
const sql = (command, binding = "DB") => {
  const output = wrangler(["d1", "execute", binding, ...local(), "--json", "--command", command]);
  return JSON.parse(output.slice(output.indexOf("["))).at(-1).results;
};

describe("npm run shards -- move (DESIGN 22a, 22b)", () => {
  beforeAll(async () => {
    state = mkdtempSync(join(tmpdir(), "jpa-shards-move-"));
    devDir = mkdtempSync(join(tmpdir(), "jpa-shards-move-dev-"));
    for (const shard of shardNumbers(true)) {
      wrangler(["d1", "migrations", "apply", shardBinding(shard), ...local()]);
      sql(claimShardSql(shard), shardBinding(shard));
    }
    wrangler(["d1", "migrations", "apply", "ACCOUNTS_DB", ...local()]);
    // An employer in shard 0 with three jobs and its key, as `npm run keys -- create` makes them.
    [{ id: employerId }] = sql("INSERT INTO employers (name, plan, created_at) VALUES ('Script Movers Ltd.', 'standard', unixepoch()) RETURNING id");
    sql(`INSERT INTO jobs (employer_id, title, publish_date, close_date, status, created_at, updated_at)
      SELECT ${employerId}, 'Job ' || value, unixepoch(), unixepoch() + 86400, 'active', unixepoch(), unixepoch() FROM json_each('[1,2,3]')`);
    sql(`INSERT INTO api_keys (hash, employer_id, created_at) VALUES ('${"ab".repeat(32)}', ${employerId}, 0)`);
    wrangler(["kv", "key", "put", "ab".repeat(32), JSON.stringify({ employerId }), `--binding=${KEYS_BINDING}`, ...local()]);
    // npm run dev's stand-in of Access, as scripts/dev.mjs sets it up: its key, its origin, its audience.
    ensureStandInKey(join(devDir, ".dev.vars"));
    const { ACCESS_DEV_PRIVATE_JWK } = readDevVars(join(devDir, ".dev.vars"));
    port = await freePort();
    server = await startDevServer(state, {
      port,
      args: ["--var", `ACCESS_TEAM_DOMAIN:${standInOrigin(port)}`, "--var", `ACCESS_AUD:${DEV_ACCESS_AUD}`, "--var", `ACCESS_DEV_PRIVATE_JWK:${ACCESS_DEV_PRIVATE_JWK}`],
    });
  }, 8 * MINUTES);

  afterAll(() => {
    server?.stop();
    rmSync(state, { recursive: true, force: true });
    rmSync(devDir, { recursive: true, force: true });
  });

  it("refuses clearly, exit 1, changing nothing: not a number (before asking), an unknown employer, an unknown shard (the routes' 409)", async () => {
    const typo = await shards(["move", "--employer", "seven", "--to", "1"]);
    expect(typo.code).toBe(1);
    expect(typo.error).toMatch(/--employer must be a whole number/);
    const unknown = await shards(["move", "--employer", "987654", "--to", "1"]);
    expect(unknown.code).toBe(1);
    expect(unknown.error).toMatch(/No employer 987654/);
    const nowhere = await shards(["move", "--employer", String(employerId), "--to", "7"]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.error).toMatch(/No shard 7/);
    expect(sql(`SELECT moved_to AS movedTo FROM employers WHERE id = ${employerId}`)).toEqual([{ movedTo: null }]);
  }, 5 * MINUTES);

  it("without npm run dev it says so: exit 1, naming the address it tried", async () => {
    const nobody = await freePort();
    const refused = await shards(["move", "--employer", String(employerId), "--to", "1"], { env: { PORT: String(nobody) } });
    expect(refused.code).toBe(1);
    expect(refused.error).toContain(`npm run dev is not running on http://localhost:${nobody}`);
  });

  it("moves the employer to shard 1 through the routes: progress lines, then DESIGN 22a's JSON line, exit 0; the key names shard 1; run again, it follows the same move to the same end; the audit names the command's service token", async () => {
    const moved = await shards(["move", "--employer", String(employerId), "--to", "1"]);
    expect(moved.code, moved.error).toBe(0);
    expect(moved.lines[0]).toMatch(new RegExp(`^moving employer ${employerId} from shard 0 to shard 1`));
    expect(moved.lines.some((line) => line.startsWith("stage done"))).toBe(true);
    const outcome = JSON.parse(moved.lines.at(-1));
    expect(outcome).toEqual({ employerId, from: 0, to: 1, rows: 5, ms: expect.any(Number) });
    expect(sql(`SELECT count(*) AS n FROM jobs WHERE employer_id = ${employerId}`, "DB_1")).toEqual([{ n: 3 }]);
    expect(sql(`SELECT moved_to AS movedTo FROM employers WHERE id = ${employerId}`)).toEqual([{ movedTo: 1 }]);
    expect(JSON.parse(wrangler(["kv", "key", "get", "ab".repeat(32), `--binding=${KEYS_BINDING}`, ...local(), "--text"]))).toEqual({ employerId, shard: 1 });

    const again = await shards(["move", "--employer", String(employerId), "--to", "1"]);
    expect(again.code, again.error).toBe(0);
    expect(JSON.parse(again.lines.at(-1))).toEqual(outcome);
    expect(sql("SELECT operator, action, target, outcome FROM audit ORDER BY id", "ACCOUNTS_DB").filter((act) => act.action === "shards.move").slice(-2)).toEqual(
      [1, 2].map(() => ({ operator: "service-token:npm-run-shards.dev", action: "shards.move", target: `employer:${employerId}`, outcome: "done" })),
    );
  }, 5 * MINUTES);
});
