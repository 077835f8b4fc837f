import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateState } from "../../scripts/lib/local-load.mjs";
import { send } from "./load.mjs";
import { pacedWrites } from "./relay.mjs";
import { HOSTS, startRuntime } from "./runtime.mjs";
import { createEmployer, descriptionOf, seedJobs } from "./seed.mjs";

// DESIGN 22: moving an employer with `jobs` jobs from shard 0 to shard 1 while an employer of
// each shard writes 10 times a second (20 in all) and the moved employer keeps writing too:
// how long it takes, what the moved employer's writes got (503 while frozen), and whether
// anything was lost or doubled. The move is the one people run, `npm run shards -- move` (each
// batch a `wrangler d1 execute`), on local state the Worker serves at the same time: a runtime
// of its own kept in a directory as `wrangler dev --persist-to` keeps it, migrated by wrangler
// as the command expects.

const SHARDS_COMMAND = "scripts/shards.mjs";
/** Each bystander renames its jobs in turn, one a write (a PUT by id, an event each, as a DELETE has). */
const BYSTANDER_JOBS = 500;
const RENAME = { method: "PUT", body: JSON.stringify({ title: "Moving Clerk" }), cycle: true };

const jobCount = async (db, employerId) =>
  (await db.prepare("SELECT count(*) AS n, count(DISTINCT id) AS ids FROM jobs WHERE employer_id = ?").bind(employerId).first());

/** `node scripts/shards.mjs move …` as `npm run shards -- move …` runs it: its exit code, its lines, its wall time. */
function shardsMove(root, dir, employerId, to) {
  const args = [SHARDS_COMMAND, "move", "--employer", String(employerId), "--to", String(to), "--persist-to", dir];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let error = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (error += chunk));
    child.on("close", (code) => resolve({ code, lines: out.trim().split("\n"), error, ms: performance.now() - started }));
  });
}

export async function measureMove(root, scripts, { jobs, problems, step }) {
  const dir = await mkdtemp(join(tmpdir(), "jpa-bench-move-"));
  try {
    let t = Date.now();
    migrateState(dir);
    const runtime = await startRuntime(root, scripts, { persistTo: dir });
    try {
      step(`move: local state in ${dir} migrated by wrangler (${Date.now() - t} ms), workerd up on it at ${runtime.origin}`);
      return await moveUnderWrites(root, dir, runtime, { jobs, problems, step });
    } finally {
      await runtime.mf.dispose();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function moveUnderWrites(root, dir, { mf, db, kv, origin }, { jobs, problems, step }) {
  const shard1 = await mf.getD1Database("DB_1", "api");
  const moved = await createEmployer(db, kv, "Bench Move Ltd.", "unlimited");
  const movedJobs = await seedJobs(db, moved.employerId, jobs, { description: descriptionOf(500) });
  const others = [];
  for (const [shard, database] of [[0, db], [1, shard1]]) {
    const other = await createEmployer(database, kv, `Bench Bystander ${shard} Ltd.`, "unlimited", shard);
    const pool = await seedJobs(database, other.employerId, BYSTANDER_JOBS, { description: descriptionOf(500) });
    others.push({ ...other, ...pool });
  }
  const before = await jobCount(db, moved.employerId);

  const background = others.map((other) => pacedWrites(origin, { apiKey: other.apiKey, first: other.first, last: other.last, perSecond: 10, ...RENAME }));
  const own = pacedWrites(origin, { apiKey: moved.apiKey, first: movedJobs.first, last: movedJobs.last, perSecond: 10, ...RENAME });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const command = await shardsMove(root, dir, moved.employerId, 1);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await Promise.all([...background, own].map((writes) => writes.stop()));
  let outcome = null;
  try {
    outcome = JSON.parse(command.lines.at(-1));
  } catch {
    // no outcome line: the command failed, said below
  }
  if (command.code !== 0 || !outcome) problems.push(`move: npm run shards -- move exited ${command.code}: ${`${command.lines.slice(-3).join(" | ")} ${command.error}`.slice(0, 500)}`);

  const [inTarget, leftInSource] = [await jobCount(shard1, moved.employerId), await jobCount(db, moved.employerId)];
  const othersStatuses = background.map((writes) => writes.statuses);
  const lost = before.n - inTarget.n;
  const doubled = inTarget.n - inTarget.ids;
  const bystanderFailures = othersStatuses.reduce((sum, statuses) => sum + Object.entries(statuses).filter(([code]) => code !== "200").reduce((s, [, n]) => s + n, 0), 0);
  const after = await send(origin, { host: HOSTS.api, path: `/api/v1.1/jobs/${movedJobs.first}`, headers: { "API-Key": moved.apiKey } });
  if (lost || doubled || leftInSource.n || bystanderFailures || after.status !== 200) {
    problems.push(`move: lost ${lost}, doubled ${doubled}, left in the source ${leftInSource.n}, bystanders' failed writes ${bystanderFailures}, GET after ${after.status}`);
  }
  const result = {
    jobs,
    via: "npm run shards -- move --persist-to",
    ms: command.ms,
    exitCode: command.code,
    progressLines: command.lines.length - 1,
    outcome,
    movedWrites: own.statuses,
    bystanderWrites: othersStatuses,
    lost,
    doubled,
    leftInSource: leftInSource.n,
    getAfter: after.status,
  };
  step(`move of ${jobs} jobs to shard 1 by npm run shards -- move: ${command.ms.toFixed(0)} ms (the move itself ${outcome?.ms ?? "?"} ms); the moved employer's writes ${JSON.stringify(own.statuses)}; bystanders ${JSON.stringify(othersStatuses)}; lost ${lost}, doubled ${doubled}`);
  return result;
}
