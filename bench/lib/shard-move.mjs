import { pacedWrites } from "./relay.mjs";
import { HOSTS } from "./runtime.mjs";
import { send } from "./load.mjs";
import { createEmployer, descriptionOf, seedJobs } from "./seed.mjs";

// DESIGN 22: moving an employer with `jobs` jobs from shard 0 to shard 1 while an employer of
// each shard writes 10 times a second (20 in all) and the moved employer keeps writing too:
// how long it takes, what the moved employer's writes got (503 while frozen), and whether
// anything was lost or doubled.

const jobCount = async (db, employerId) =>
  (await db.prepare("SELECT count(*) AS n, count(DISTINCT id) AS ids FROM jobs WHERE employer_id = ?").bind(employerId).first());

export async function measureMove(origin, { db, shard1, kv, jobs, problems, step }) {
  const moved = await createEmployer(db, kv, "Bench Move Ltd.", "unlimited");
  const movedJobs = await seedJobs(db, moved.employerId, jobs, { description: descriptionOf(500) });
  const others = [];
  for (const [shard, database] of [[0, db], [1, shard1]]) {
    const other = await createEmployer(database, kv, `Bench Bystander ${shard} Ltd.`, "unlimited", shard);
    const pool = await seedJobs(database, other.employerId, 3_000, { description: descriptionOf(500) });
    others.push({ ...other, ...pool });
  }
  const before = await jobCount(db, moved.employerId);

  const background = others.map((other) => pacedWrites(origin, { apiKey: other.apiKey, first: other.first, last: other.last, perSecond: 10 }));
  const own = pacedWrites(origin, { apiKey: moved.apiKey, first: movedJobs.first, last: movedJobs.last, perSecond: 10, method: "PUT", body: JSON.stringify({ title: "Moving Clerk" }) });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const started = performance.now();
  const res = await send(origin, { host: HOSTS.probe, path: `/__probe/move?employer=${moved.employerId}&to=1` });
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await Promise.all([...background, own].map((writes) => writes.stop()));
  if (res.status !== 200) problems.push(`move: ${res.status} ${res.body.slice(0, 300)}`);

  const [inTarget, leftInSource] = [await jobCount(shard1, moved.employerId), await jobCount(db, moved.employerId)];
  const othersStatuses = background.map((writes) => writes.statuses);
  const lost = before.n - inTarget.n;
  const doubled = inTarget.n - inTarget.ids;
  const bystanderFailures = othersStatuses.reduce((sum, statuses) => sum + Object.entries(statuses).filter(([code]) => code !== "204" && code !== "poolExhausted").reduce((s, [, n]) => s + n, 0), 0);
  const after = await send(origin, { host: HOSTS.api, path: `/api/v1.1/jobs/${movedJobs.first}`, headers: { "API-Key": moved.apiKey } });
  if (lost || doubled || leftInSource.n || bystanderFailures || after.status !== 200) {
    problems.push(`move: lost ${lost}, doubled ${doubled}, left in the source ${leftInSource.n}, bystanders' failed writes ${bystanderFailures}, GET after ${after.status}`);
  }
  const result = {
    jobs,
    ms,
    outcome: res.status === 200 ? JSON.parse(res.body) : null,
    movedWrites: own.statuses,
    bystanderWrites: othersStatuses,
    lost,
    doubled,
    leftInSource: leftInSource.n,
    getAfter: after.status,
  };
  step(`move of ${jobs} jobs to shard 1: ${ms.toFixed(0)} ms; the moved employer's writes ${JSON.stringify(own.statuses)}; bystanders ${JSON.stringify(othersStatuses)}; lost ${lost}, doubled ${doubled}`);
  return result;
}
