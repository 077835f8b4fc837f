// Runs the project's own wrangler (under the pinned Node) for the CLI scripts.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

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

export function startWrangler(args) {
  return spawn(process.execPath, [WRANGLER, ...args], { env: wranglerEnv, stdio: "inherit" });
}

export const targetFlag = (remote) => (remote ? "--remote" : "--local");

/** Idempotent: applies whatever migrations in drizzle/ the target has not seen yet. */
export function applyMigrations(remote) {
  wrangler(["d1", "migrations", "apply", DATABASE, targetFlag(remote)]);
}

/** Runs SQL and returns the rows of its last statement. */
export function query(sql, remote) {
  const out = wrangler(["d1", "execute", DATABASE, targetFlag(remote), "--json", "--command", sql]);
  const results = JSON.parse(out.slice(out.indexOf("[")));
  return results.at(-1)?.results ?? [];
}

export const sqlString = (value) => `'${String(value).replaceAll("'", "''")}'`;
