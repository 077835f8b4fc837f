import { spawn } from "node:child_process";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEV_ACCESS_AUD, standInOrigin } from "../../scripts/lib/dev-access.mjs";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { send } from "./load.mjs";
import { HOSTS, migrateAll, startRuntime } from "./runtime.mjs";
import { createEmployer, descriptionOf, seedJobs } from "./seed.mjs";

// DESIGN 22b: moving an employer with `jobs` jobs (applications with résumés, a webhook endpoint,
// a test space) from shard 0 to shard 1 the way people do it — `npm run shards -- move`, which
// asks the operator's routes of the running Worker to start the move and follows it — while an
// employer of each shard writes 20 times a second and the moved employer keeps writing too. The
// Worker is the bench's own runtime with npm run dev's stand-in of Access (its key in a .dev.vars
// the command reads). Measured: how long the moved employer's writes were refused (first 503 to
// last), how long the move took, nothing lost or doubled, and the other employers' p99 during the
// move against the same load without one.

const SHARDS_COMMAND = "scripts/shards.mjs";
/** Each writer renames its jobs in turn, one a write (a PUT by id, an event each). */
const WRITER_JOBS = 500;
const PER_SECOND = 20;
/** Seconds of the load without a move, for the others' p99 to compare with (after a warm-up). */
const BASELINE_SECONDS = 20;
const WARMUP_SECONDS = 3;
/** Applications with a résumé of the moved employer, on its first jobs. */
const APPLICATIONS = 1_000;
const TEST_SPACE_JOBS = 100;
const RESUME = new TextEncoder().encode("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

const percentile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * PUTs renaming the jobs first … last of `apiKey`'s employer, PER_SECOND, until stopped: each
 * answer's status, when it came and how long it took. Each writer has connections of its own, as
 * many as it needs: a write never waits behind another for a socket, so its time is the Worker's.
 */
function writes(origin, { apiKey, first, last }) {
  const connections = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const answers = [];
  const pending = new Set();
  let next = first;
  const body = JSON.stringify({ title: "Moving Clerk" });
  const timer = setInterval(() => {
    for (let i = 0; i < PER_SECOND / 10; i++) {
      const started = performance.now();
      const write = send(origin, { host: HOSTS.api, method: "PUT", path: `/api/v1.1/jobs/${next}`, headers: { "API-Key": apiKey, "Content-Type": "application/json" }, body }, connections)
        .then((res) => answers.push({ status: res.status, at: Date.now(), ms: performance.now() - started, ...(res.status !== 200 && res.status !== 503 && { body: res.body.slice(0, 300) }) }))
        .catch(() => answers.push({ status: "error", at: Date.now(), ms: performance.now() - started }))
        .finally(() => pending.delete(write));
      pending.add(write);
      next = next === last ? first : next + 1;
    }
  }, 100);
  return {
    answers,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      connections.destroy();
    },
  };
}

/** The latencies' p99 of the answers between `from` and `to` (ms since the epoch). */
const p99Of = (answers, from, to) =>
  percentile(
    answers.filter((answer) => answer.at >= from && answer.at <= to).map((answer) => answer.ms).sort((a, b) => a - b),
    0.99,
  );

/** `node scripts/shards.mjs move …` as `npm run shards -- move …` runs it, beside the runtime (PORT, the .dev.vars in `cwd`): its exit code, its lines, its wall time. */
function shardsMove(root, cwd, port, employerId, to) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, SHARDS_COMMAND), "move", "--employer", String(employerId), "--to", String(to)], { cwd, env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
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
    // npm run dev's stand-in of Access: its key in the command's .dev.vars and in the Worker, the local origin its team.
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const jwk = JSON.stringify({ ...privateKey.export({ format: "jwk" }), kid: `bench-${randomUUID()}` });
    await writeFile(join(dir, ".dev.vars"), `ACCESS_DEV_PRIVATE_JWK='${jwk}'\n`);
    const port = await freePort();
    const runtime = await startRuntime(root, scripts, {
      port,
      apiVars: { ACCESS_TEAM_DOMAIN: standInOrigin(port), ACCESS_AUD: DEV_ACCESS_AUD, ACCESS_DEV_PRIVATE_JWK: jwk },
    });
    try {
      const { shard1 } = await migrateAll(runtime, root);
      step(`move: workerd up at ${runtime.origin}, the stand-in of Access's key in ${dir}/.dev.vars`);
      return await moveUnderWrites(root, dir, port, runtime, shard1, { jobs, problems, step });
    } finally {
      await runtime.mf.dispose();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The moved employer's rows that say nothing was lost or doubled. */
async function countsOf(db, employerId) {
  return db
    .prepare(
      `SELECT (SELECT count(*) FROM jobs WHERE employer_id = ?1) AS jobs, (SELECT count(DISTINCT id) FROM jobs WHERE employer_id = ?1) AS jobIds,
        (SELECT count(*) FROM applications WHERE employer_id = ?1) AS applications, (SELECT count(*) FROM webhook_endpoints WHERE employer_id = ?1) AS webhooks,
        (SELECT count(*) FROM jobs WHERE employer_id = (SELECT id FROM employers WHERE test_of = ?1)) AS testJobs`,
    )
    .bind(employerId)
    .first();
}

/** The moved employer's things beyond its jobs: applications with résumés in R2, a webhook endpoint, a test space with jobs. */
async function furnish(runtime, db, moved, movedJobs) {
  const bucket = await runtime.mf.getR2Bucket("RESUMES", "api");
  const now = Date.now();
  for (let i = 0; i < APPLICATIONS; i += 100) {
    const rows = Array.from({ length: Math.min(100, APPLICATIONS - i) }, (_, j) => i + j);
    await Promise.all(rows.map((n) => bucket.put(`bench-move/${moved.employerId}/${n}.pdf`, RESUME)));
    await db.batch(
      rows.map((n) =>
        db
          .prepare(
            `INSERT INTO applications (job_id, employer_id, name, email, received_at, resume_key, resume_filename, resume_type, resume_size, email_status, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, 'cv.pdf', 'application/pdf', ?, 'sent', ?)`,
          )
          .bind(movedJobs.first + (n % 100), moved.employerId, `Applicant ${n}`, `a${n}@bench.example`, now, `bench-move/${moved.employerId}/${n}.pdf`, RESUME.length, now),
      ),
    );
  }
  // As bench/lib/capabilities.mjs makes one: its secret is never used (no delivery leaves the bench).
  await db
    .prepare("INSERT INTO webhook_endpoints (employer_id, url, events, enabled, secret, created_at) VALUES (?, 'https://receiver.example/moves', '[]', 1, 'unused.unused', ?)")
    .bind(moved.employerId, now)
    .run();
  const space = await db.prepare("INSERT INTO employers (name, plan, created_at, test_of) VALUES ('Bench Move Ltd. (test)', 'unlimited', ?, ?) RETURNING id").bind(Math.floor(now / 1000), moved.employerId).first();
  await seedJobs(db, space.id, TEST_SPACE_JOBS, { description: descriptionOf(500) });
}

async function moveUnderWrites(root, dir, port, runtime, shard1, { jobs, problems, step }) {
  const { db, kv, origin } = runtime;
  const moved = await createEmployer(db, kv, "Bench Move Ltd.", "unlimited");
  const movedJobs = await seedJobs(db, moved.employerId, jobs, { description: descriptionOf(500) });
  await furnish(runtime, db, moved, movedJobs);
  const others = [];
  for (const [shard, database] of [[0, db], [1, shard1]]) {
    const other = await createEmployer(database, kv, `Bench Bystander ${shard} Ltd.`, "unlimited", shard);
    const pool = await seedJobs(database, other.employerId, WRITER_JOBS, { description: descriptionOf(500) });
    others.push({ ...other, ...pool });
  }
  const before = await countsOf(db, moved.employerId);
  step(`move: employer ${moved.employerId} with ${before.jobs} jobs, ${before.applications} applications with résumés, ${before.webhooks} webhook endpoint, a test space of ${before.testJobs} jobs`);

  // The same load before and during the move: the moved employer writes too, from the start.
  const background = others.map((other) => writes(origin, other));
  const own = writes(origin, { apiKey: moved.apiKey, first: movedJobs.first, last: movedJobs.first + WRITER_JOBS - 1 });
  await pause(WARMUP_SECONDS * 1000);
  const baselineFrom = Date.now();
  await pause(BASELINE_SECONDS * 1000);
  const baselineTo = Date.now();
  const moveFrom = Date.now();
  const command = await shardsMove(root, dir, port, moved.employerId, 1);
  const moveTo = Date.now();
  await pause(1_000);
  await Promise.all([...background, own].map((writer) => writer.stop()));
  let outcome = null;
  try {
    outcome = JSON.parse(command.lines.at(-1));
  } catch {
    // no outcome line: the command failed, said below
  }
  if (command.code !== 0 || !outcome?.rows) problems.push(`move: npm run shards -- move exited ${command.code}: ${`${command.lines.slice(-3).join(" | ")} ${command.error}`.slice(0, 500)}`);

  const [after, leftInSource] = [await countsOf(shard1, moved.employerId), await countsOf(db, moved.employerId)];
  const lost = ["jobs", "applications", "webhooks", "testJobs"].reduce((sum, what) => sum + Math.max(0, before[what] - after[what]), 0);
  const doubled = after.jobs - after.jobIds + ["applications", "webhooks", "testJobs"].reduce((sum, what) => sum + Math.max(0, after[what] - before[what]), 0);
  const refused = own.answers.filter((answer) => answer.status === 503).sort((a, b) => a.at - b.at);
  // The move's own account of its freezes, from the command's last progress line.
  const freezes = command.lines.findLast((line) => line.includes("freezes "))?.match(/freezes (.*?)(;|$)/)?.[1] ?? null;
  const frozenMs = refused.length ? refused.at(-1).at - refused[0].at : 0;
  const otherAnswers = background.flatMap((writer) => writer.answers);
  const othersFailed = otherAnswers.filter((answer) => answer.status !== 200).length;
  const ownFailed = own.answers.filter((answer) => answer.status !== 200 && answer.status !== 503).length;
  const baselineP99 = p99Of(otherAnswers, baselineFrom, baselineTo);
  const duringP99 = p99Of(otherAnswers, moveFrom, moveTo);
  const resume = await (await runtime.mf.getR2Bucket("RESUMES", "api")).head(`bench-move/${moved.employerId}/0.pdf`);
  const getAfter = await send(origin, { host: HOSTS.api, path: `/api/v1.1/jobs/${movedJobs.first}`, headers: { "API-Key": moved.apiKey } });
  if (lost || doubled || leftInSource.jobs || othersFailed || ownFailed || getAfter.status !== 200 || !resume) {
    const failure = [...own.answers, ...otherAnswers].find((answer) => answer.body)?.body;
    problems.push(`move: lost ${lost}, doubled ${doubled}, left in the source ${leftInSource.jobs}, the others' failed writes ${othersFailed}, the moved employer's non-503 failures ${ownFailed}${failure ? ` (the first: ${failure})` : ""}, GET after ${getAfter.status}, résumé ${resume ? "kept" : "gone"}`);
  }
  const count = (answers) => answers.reduce((counts, answer) => ({ ...counts, [answer.status]: (counts[answer.status] ?? 0) + 1 }), {});
  const result = {
    jobs,
    via: "npm run shards -- move (the operator's routes, the Worker's move)",
    ms: command.ms,
    exitCode: command.code,
    progressLines: command.lines.length - 1,
    outcome,
    frozenMs,
    refused: refused.length,
    freezes,
    movedWrites: count(own.answers),
    bystanderWrites: background.map((writer) => count(writer.answers)),
    baselineP99,
    duringP99,
    p99Ratio: baselineP99 && duringP99 ? duringP99 / baselineP99 : null,
    before,
    after,
    lost,
    doubled,
    leftInSource: leftInSource.jobs,
    getAfter: getAfter.status,
  };
  step(
    `move of ${jobs} jobs to shard 1 by npm run shards -- move: done in ${(command.ms / 1000).toFixed(1)} s (the move itself ${outcome?.ms ?? "?"} ms), frozen ${(frozenMs / 1000).toFixed(1)} s (${refused.length} refused); the others' p99 ${duringP99?.toFixed(1)} ms during, ${baselineP99?.toFixed(1)} ms without; lost ${lost}, doubled ${doubled}`,
  );
  return result;
}
