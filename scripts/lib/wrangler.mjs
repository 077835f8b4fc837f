// Runs the project's own wrangler (under the pinned Node) for the CLI scripts.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { COMMAND_RETRIES, isReadOnly, mayRepeat, retryDelayMs } from "../../src/db/transient-errors.ts";

const require = createRequire(import.meta.url);
const WRANGLER = join(dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

// Local work must not reach for the network (there may be none) or send telemetry.
export const wranglerEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
};

/**
 * A local session of the whole app (`wrangler dev`): the main Worker's config first (it serves
 * the port), then the passkeys Worker's, which its service binding PASSKEYS reaches (DESIGN 25,
 * workers/passkeys). wrangler runs both in one workerd, each with the session's `--env`.
 */
export const APP_CONFIGS = ["-c", "wrangler.toml", "-c", "workers/passkeys/wrangler.toml"];

export const DATABASE = "DB";
/** The board's own database (DESIGN 17): migrated alongside DB everywhere. */
export const BOARD_DATABASE = "BOARD_DB";
/** Job alerts' own database (DESIGN 23): migrated alongside the board everywhere. */
export const ALERTS_DATABASE = "ALERTS_DB";
/** The employer console's own database (DESIGN 25): migrated alongside the alerts' everywhere. */
export const ACCOUNTS_DATABASE = "ACCOUNTS_DB";
export const KEYS_BINDING = "API_KEYS";

/** Runs wrangler and returns stdout; throws with wrangler's own output on failure. */
export function wrangler(args, { quiet = true } = {}) {
  const result = spawnSync(process.execPath, [WRANGLER, ...args], {
    env: wranglerEnv,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`wrangler ${args.slice(0, 3).join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
  if (!quiet) process.stderr.write(result.stdout);
  return result.stdout;
}

export function startWrangler(args, options = {}) {
  return spawn(process.execPath, [WRANGLER, ...args], { env: wranglerEnv, stdio: "inherit", ...options });
}

/**
 * For a wrangler started `detached` (a process group of its own, so that stopping it ends the
 * workerd it started too): that group receives no Ctrl-C or SIGTERM meant for this script, so
 * it is ended here whenever this process ends — on exit, and on SIGINT or SIGTERM, after which
 * this process exits as the signal would have ended it. Returns the stop, which also forgets
 * the handlers.
 */
export function endWithThisProcess(child) {
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  const onSignal = (signal) => {
    stop();
    process.exit(128 + os.constants.signals[signal]);
  };
  process.once("exit", stop);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return () => {
    process.off("exit", stop);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    stop();
  };
}

/**
 * Where a command acts: the deployed resources (top-level config), or the local state that
 * `npm run dev` serves (`[env.dev]`, whose ids stay fixed even after a deployer fills in the
 * real ones at the top level).
 */
export const target = (remote) => (remote ? ["--remote"] : ["--local", "--env", "dev"]);

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `run` again after a jittered wait while it fails with one of D1's transient errors that
 * allow it (the Worker's own rules, src/db/transient-errors.ts): a busy local database while
 * `npm run dev` writes, an overloaded or restarting remote one.
 */
export function withRetries(run, readOnly) {
  for (let attempt = 1; ; attempt++) {
    try {
      return run();
    } catch (error) {
      if (attempt >= COMMAND_RETRIES.attempts || !mayRepeat(error, readOnly)) throw error;
      sleep(retryDelayMs(attempt, COMMAND_RETRIES));
    }
  }
}

/**
 * Locally, a command's SQL first takes SQLite's write lock with a write that changes no row.
 * Local D1 writes its bookmark at the end of every call, reads included, so a call that read
 * first fails (SQLITE_BUSY_SNAPSHOT) whenever `npm run dev` committed anything meanwhile: a
 * long batch never got through while the dev server served writes. Holding the lock from its
 * first statement, the command waits only for the lock (retried below), and the dev server's
 * calls wait for it in turn (the Worker's own retries, src/db/retrying.ts). Every local database
 * has wrangler's migrations table (each command applies the migrations first).
 */
const TAKE_WRITE_LOCK = "UPDATE d1_migrations SET id = id WHERE 0";
/** What one `--command` carries at most: Linux passes an argument of at most 128 KiB (D1 takes a statement of 100 KB). */
export const COMMAND_BYTES = 90_000;

/**
 * Runs SQL statements (`;`-separated text) on `database` in one transaction and returns each
 * statement's rows. Too long for a command line, it goes as a file (remotely, D1's import, which
 * also applies it whole or not at all). Retried as the Worker retries (withRetries).
 */
export function execute(text, remote, database = DATABASE, extraArgs = []) {
  const readOnly = isReadOnly(text);
  const sql = remote ? text : `${TAKE_WRITE_LOCK};\n${text}`;
  const args = ["d1", "execute", database, ...target(remote), ...extraArgs, "--json"];
  const out = withRetries(
    () => (sql.length <= COMMAND_BYTES ? wrangler([...args, "--command", sql]) : withFile(sql, (file) => wrangler([...args, "--file", file, ...(remote ? ["--yes"] : [])]))),
    readOnly,
  );
  const results = JSON.parse(out.slice(out.indexOf("["))).map((result) => result.results ?? []);
  return remote ? results : results.slice(1);
}

/** Runs `run(file)` with `text` in a temporary file, removed after. */
export function withFile(text, run) {
  const dir = mkdtempSync(join(tmpdir(), "jpa-sql-"));
  try {
    const file = join(dir, "batch.sql");
    writeFileSync(file, text);
    return run(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs SQL (one statement, so one transaction) and returns the rows of its last statement. */
export function query(sql, remote, database = DATABASE, extraArgs = []) {
  return execute(sql, remote, database, extraArgs).at(-1) ?? [];
}

export const sqlString = (value) => `'${String(value).replaceAll("'", "''")}'`;
