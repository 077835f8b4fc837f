import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS_BINDING, target, wrangler } from "../../scripts/lib/wrangler.mjs";

// DESIGN 22a: `npm run shards -- move` as a person runs it, on local state of its own (a
// temporary --persist-to directory, removed after), never the state `npm run dev` serves.

const SCRIPT = fileURLToPath(new URL("../../scripts/shards.mjs", import.meta.url));
const MINUTES = 60_000;
let state;

/** The shards command on the temporary state: its exit code and its output's lines. */
function shards(...args) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args, "--persist-to", state], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  return { code: run.status, lines: run.stdout.trim().split("\n"), error: run.stderr };
}

const local = () => [...target(false), "--persist-to", state];
const sql = (command, binding = "DB") => JSON.parse(wrangler(["d1", "execute", binding, ...local(), "--json", "--command", command])).at(-1).results;

describe("npm run shards -- move (DESIGN 22a)", () => {
  beforeAll(() => {
    state = mkdtempSync(join(tmpdir(), "jpa-shards-move-"));
    // `list` applies the migrations to the fresh state first, as every local command does.
    expect(shards("list").code).toBe(0);
    // An employer in shard 0 with three jobs and its key, as `npm run keys -- create` makes them.
    const [{ id }] = sql("INSERT INTO employers (name, plan, created_at) VALUES ('Script Movers Ltd.', 'standard', unixepoch()) RETURNING id");
    sql(`INSERT INTO jobs (employer_id, title, publish_date, close_date, status, created_at, updated_at)
      SELECT ${id}, 'Job ' || value, unixepoch(), unixepoch() + 86400, 'active', unixepoch(), unixepoch() FROM json_each('[1,2,3]')`);
    sql(`INSERT INTO api_keys (hash, employer_id, created_at) VALUES ('${"ab".repeat(32)}', ${id}, 0)`);
    wrangler(["kv", "key", "put", "ab".repeat(32), JSON.stringify({ employerId: id }), `--binding=${KEYS_BINDING}`, ...local()]);
  }, 8 * MINUTES);

  afterAll(() => rmSync(state, { recursive: true, force: true }));

  it("refuses clearly, exit 1, changing nothing: an unknown employer, an unknown shard", () => {
    const unknown = shards("move", "--employer", "987654", "--to", "1");
    expect(unknown.code).toBe(1);
    expect(unknown.error).toMatch(/No employer 987654/);
    const nowhere = shards("move", "--employer", "1", "--to", "7");
    expect(nowhere.code).toBe(1);
    expect(nowhere.error).toMatch(/No shard 7: the shards are 0, 1/);
    expect(sql("SELECT frozen_at AS frozenAt FROM employers WHERE id = 1")).toEqual([{ frozenAt: null }]);
  }, 5 * MINUTES);

  it("moves employer 1 to shard 1: progress, then the last line's JSON, exit 0; list shows the counts moved and the key names shard 1", () => {
    const moved = shards("move", "--employer", "1", "--to", "1");
    expect(moved.code, moved.error).toBe(0);
    expect(moved.lines.some((line) => line.startsWith("verified"))).toBe(true);
    expect(JSON.parse(moved.lines.at(-1))).toEqual({ employerId: 1, from: 0, to: 1, rows: 5, ms: expect.any(Number) });
    const listed = shards("list");
    expect(listed.code).toBe(0);
    expect(listed.lines.map((line) => JSON.parse(line)).map(({ shard, employers, jobs }) => ({ shard, employers, jobs }))).toEqual([
      { shard: 0, employers: 0, jobs: 0 },
      { shard: 1, employers: 1, jobs: 3 },
    ]);
    expect(JSON.parse(wrangler(["kv", "key", "get", "ab".repeat(32), `--binding=${KEYS_BINDING}`, ...local(), "--text"]))).toEqual({ employerId: 1, shard: 1 });
    // Run again, it says where the employer lives (exit 1: there is nothing to move).
    const again = shards("move", "--employer", "1", "--to", "1");
    expect(again.code).toBe(1);
    expect(again.error).toMatch(/already lives in shard 1/);
  }, 8 * MINUTES);
});
