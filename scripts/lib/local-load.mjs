// The local state and `wrangler dev --env load` that the soak and the crash test drive
// (wrangler.toml: [env.load] is [env.dev] with limits no client here reaches): a fresh
// --persist-to directory migrated like a deployment, employers and keys straight into it, the
// Worker started (and stopped, or killed) on it, the hourly cron run, and the board checked.
import { randomBytes } from "node:crypto";
import { openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hashApiKey } from "../../src/auth/api-keys.ts";
import { claimShardSql, SHARD_ID_SPAN, shardBinding } from "../../src/shards/identity.ts";
import { shardNumbers } from "./shards.mjs";
import { endWithThisProcess, startWrangler, wrangler } from "./wrangler.mjs";

/** The employer side's shards (DESIGN 22), as [env.load] binds them like [env.dev]. */
export const SHARDS = shardNumbers(false);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** mulberry32: a tiny seeded PRNG, so every client's choices are repeatable. */
export function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)] };
}

/** A client's next operation, drawn from `[weight, op]` pairs by `rng`. */
export function weighted(rng, ops) {
  const total = ops.reduce((sum, [weight]) => sum + weight, 0);
  return () => {
    let roll = rng.int(total);
    return ops.find(([weight]) => (roll -= weight) < 0)[1];
  };
}


export function local(dir, ...args) {
  return wrangler([...args, "--local", "--persist-to", dir, "--env", "load"]);
}

export function query(dir, sql, database = "DB") {
  const out = local(dir, "d1", "execute", database, "--json", "--command", sql);
  return JSON.parse(out.slice(out.indexOf("["))).at(-1)?.results ?? [];
}

/** The rows of `sql` in every shard (DESIGN 22), one list. */
export const queryShards = (dir, sql) => SHARDS.flatMap((shard) => query(dir, sql, shardBinding(shard)));

/** Every shard migrated and given its id range, then the board's, job alerts' and the console's (ACCOUNTS_DB) databases. */
export function migrateState(dir) {
  for (const shard of SHARDS) {
    local(dir, "d1", "migrations", "apply", shardBinding(shard));
    local(dir, "d1", "execute", shardBinding(shard), "--command", claimShardSql(shard));
  }
  local(dir, "d1", "migrations", "apply", "BOARD_DB");
  // Job alerts' own database (DESIGN 23): the relays hand it job events too.
  local(dir, "d1", "migrations", "apply", "ALERTS_DB");
  // The employer console's own database (DESIGN 25).
  local(dir, "d1", "migrations", "apply", "ACCOUNTS_DB");
}

/**
 * Employers straight into D1 and their hashed keys into KV, as `npm run keys` stores them,
 * spread over the shards (each numbered in its shard's id range), so every shard takes writes.
 */
export async function seedEmployers(dir, count, { name = "Soak Employer", keyPrefix = "soak_" } = {}) {
  const employers = Array.from({ length: count }, (_, i) => {
    const shard = SHARDS[i % SHARDS.length];
    return { employerId: shard * SHARD_ID_SPAN + i + 1, shard, name: `${name} ${i + 1}`, apiKey: `${keyPrefix}${randomBytes(24).toString("base64url")}` };
  });
  for (const shard of SHARDS) {
    const mine = employers.filter((e) => e.shard === shard);
    if (mine.length === 0) continue;
    query(dir, `INSERT INTO employers (id, name, plan, created_at) VALUES ${mine.map((e) => `(${e.employerId}, '${e.name}', 'standard', unixepoch())`).join(", ")}`, shardBinding(shard));
  }
  const bulk = join(dir, "keys.json");
  const entries = await Promise.all(
    employers.map(async (e) => ({ key: await hashApiKey(e.apiKey), value: JSON.stringify(e.shard ? { employerId: e.employerId, shard: e.shard } : { employerId: e.employerId }) })),
  );
  writeFileSync(bulk, JSON.stringify(entries));
  local(dir, "kv", "bulk", "put", bulk, "--binding", "API_KEYS");
  return employers;
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

/**
 * `wrangler dev --env load` on `port` over the state in `dir` (its output appended to
 * dir/wrangler.log), once it answers. `stop()` ends it with SIGTERM (SIGKILL after 10 s);
 * `kill()` SIGKILLs its whole process group (wrangler and the workerd it started) at once, as a
 * crash would, and resolves once wrangler is gone. `pid` is the group's id; `alive()` is false once
 * wrangler exited (wrangler dev also exits when a reload, after a change of wrangler.toml, fails).
 */
export async function startApi(dir, port, { args = [], timeoutMs = 90_000 } = {}) {
  const log = join(dir, "wrangler.log");
  const out = openSync(log, "a");
  const child = startWrangler(
    ["dev", "--env", "load", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", dir, "--show-interactive-dev-session=false", ...args],
    { stdio: ["ignore", out, out], detached: true },
  );
  const end = endWithThisProcess(child);
  const origin = `http://127.0.0.1:${port}`;
  const base = `${origin}/api/v1.1`;
  for (let waited = 0; waited < timeoutMs; waited += 250) {
    if (exited(child)) break;
    try {
      if ((await fetch(`${base}/positiontypes`)).ok) {
        return { base, origin, port, log, pid: child.pid, alive: () => !exited(child), stop: () => stopApi(child, end), kill: () => killApi(child, end) };
      }
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stopApi(child, end);
  throw new Error(`wrangler dev did not start:\n${readFileSync(log, "utf8").slice(-5000)}`);
}

async function stopApi(child, end) {
  if (exited(child)) return end();
  const gone = new Promise((resolve) => child.once("exit", resolve));
  end(); // SIGTERM to wrangler and the workerd it started, nothing else
  await Promise.race([gone, sleep(10_000)]);
  if (!exited(child)) process.kill(-child.pid, "SIGKILL");
}

async function killApi(child, end) {
  const gone = exited(child) ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
  await gone;
  end(); // forgets the exit and signal handlers (its SIGTERM finds nobody)
}

/**
 * One run of the hourly Cron Trigger ("0 * * * *"), as Cloudflare would start it, through
 * wrangler dev's /cdn-cgi/local/scheduled (it answers once the handler is done: 200, or 500 when
 * any stage failed). `time` (epoch ms) is its scheduledTime, now when absent. Answers the status,
 * the start of the body, and the handler's own log line (src/scheduled/handler.ts) parsed, with
 * each shard's board stage picked out (what it repaired).
 */
export async function runCron(api, { time } = {}) {
  const res = await fetch(`${api.origin}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("0 * * * *")}&format=json${time === undefined ? "" : `&time=${time}`}`);
  const text = await res.text();
  const line = readFileSync(api.log, "utf8").split("\n").findLast((l) => l.includes('"event":"scheduled"'));
  let logged;
  try {
    logged = line ? JSON.parse(line.slice(line.indexOf("{"))) : undefined;
  } catch {
    logged = undefined;
  }
  // One board stage per shard (DESIGN 22).
  return { status: res.status, body: text.slice(0, 300), boardStage: logged?.shards?.map((run) => run.stages?.board), logged };
}

/**
 * BOARD_DB holds exactly the jobs that should be on the board (active, closeDate not past), with
 * the jobs' revisions and titles, and nothing else. `note(message)` hears each difference.
 */
export function checkBoard(dir, note = () => {}) {
  const now = Math.floor(Date.now() / 1000);
  const visible = queryShards(dir, `SELECT id, revision, title FROM jobs WHERE status = 'active' AND close_date > ${now}`);
  const board = query(dir, "SELECT job_id, revision, title, close_date FROM board_jobs", "BOARD_DB");
  const expected = new Map(visible.map((job) => [job.id, job]));
  const shown = new Map(board.map((row) => [row.job_id, row]));
  const problems = { missing: 0, extra: 0, wrongRevision: 0, wrongTitle: 0 };
  for (const [id, job] of expected) {
    const row = shown.get(id);
    if (!row) {
      problems.missing++;
      note(`board: job ${id} (active, revision ${job.revision}) is not on the board`);
    } else if (row.revision !== job.revision) {
      problems.wrongRevision++;
      note(`board: job ${id} has revision ${row.revision} on the board, ${job.revision} in jobs`);
    } else if (row.title !== job.title) {
      problems.wrongTitle++;
      note(`board: job ${id} is titled ${JSON.stringify(row.title)} on the board, ${JSON.stringify(job.title)} in jobs`);
    }
  }
  for (const [id, row] of shown) {
    if (!expected.has(id)) {
      problems.extra++;
      note(`board: job ${id} (revision ${row.revision}) is on the board but is not an active, open job`);
    }
  }
  return { visibleJobs: expected.size, boardRows: shown.size, ...problems };
}

export const boardIsExact = (board) => board.missing + board.extra + board.wrongRevision + board.wrongTitle === 0;

/** After a cron run: gives the board's consumer, still running, up to `ms` to apply what the cron handed it, then checks for good. */
export async function settleBoard(dir, note, ms = 30_000) {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(1_000)) {
    if (boardIsExact(checkBoard(dir))) break;
  }
  return checkBoard(dir, note);
}
