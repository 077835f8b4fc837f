// Runs the project's own wrangler (under the pinned Node) for the CLI scripts.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import os from "node:os";
import { dirname, join } from "node:path";
import { isReadOnly, MAX_ATTEMPTS, mayRepeat, retryDelayMs } from "../../src/db/transient-errors.ts";

const require = createRequire(import.meta.url);
const WRANGLER = join(dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

// Local work must not reach for the network (there may be none) or send telemetry.
export const wranglerEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
};

export const DATABASE = "DB";
/** The board's own database (DESIGN 17): migrated alongside DB everywhere. */
export const BOARD_DATABASE = "BOARD_DB";
/** Job alerts' own database (DESIGN 23): migrated alongside the board everywhere. */
export const ALERTS_DATABASE = "ALERTS_DB";
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
      if (attempt >= MAX_ATTEMPTS || !mayRepeat(error, readOnly)) throw error;
      sleep(retryDelayMs(attempt));
    }
  }
}

/** Runs SQL (one statement, so one transaction) and returns the rows of its last statement. */
export function query(sql, remote, database = DATABASE, extraArgs = []) {
  const out = withRetries(() => wrangler(["d1", "execute", database, ...target(remote), ...extraArgs, "--json", "--command", sql]), isReadOnly(sql));
  const results = JSON.parse(out.slice(out.indexOf("[")));
  return results.at(-1)?.results ?? [];
}

export const sqlString = (value) => `'${String(value).replaceAll("'", "''")}'`;
