import { employerPeople } from "../accounts/invitations";
import { listKeys } from "../auth/service";
import { testSpaceOf } from "../employers/service";
import { createDatabase, type Database } from "../db/client";
import { findLiveEmployer } from "../employers/directory";
import type { Env } from "../env";
import { toJob } from "../jobs/representation";
import { getJob } from "../jobs/service";
import { jobCounts, jobSummaries } from "../jobs/summaries";
import { removalsOfEmployer, reportsOfEmployer, reportsOfJob } from "../reports/service";
import { shardDatabase, shardNumbers } from "../shards/bindings";

// DESIGN 26: what the operator's pages read, across the employer side's shards (a job and its
// reports live in its employer's shard; DESIGN 22) and the accounts.

/** Reports on an employer's page, and on a job's page, at most. */
const EMPLOYER_REPORTS = 50;
const JOB_REPORTS = 100;
/** An employer's earlier removals shown, at most. */
const REMOVALS = 20;

/** The audit's names of the acts that suspend and reinstate an employer. */
export const SUSPENSION_ACTIONS = { suspend: "employer.suspend", reinstate: "employer.reinstate" } as const;

const shardDb = (env: Env, shard: number): Database => createDatabase(shardDatabase(env, shard));

/** An employer as the operator sees it: plan, shard, jobs by status, people and invitations, its API keys (prefixes only), the newest reports of its jobs, whether it is suspended. */
export async function employerOverview(env: Env, id: number) {
  const employer = await findLiveEmployer(env, id);
  if (!employer) return undefined;
  const db = shardDb(env, employer.shard);
  const suspended = employer.suspendedAt !== null;
  const [jobs, people, reports, testSpace] = await Promise.all([jobCounts(db, id), employerPeople(env, id), reportsOfEmployer(db, id, EMPLOYER_REPORTS), testSpaceOf(db, id)]);
  const [titles, keys] = await Promise.all([jobSummaries(db, reports.map((report) => report.jobId)), listKeys(db, { live: id, test: testSpace })]);
  return { employer, jobs, people, keys, suspended, reports: reports.map((report) => ({ ...report, title: titles.get(report.jobId)?.title ?? null })) };
}

/**
 * DESIGN 26: a reported job as the operator judges it — its reports (every shard: a report
 * outlives its job), the job as its employer's API has it (null when it is gone), and that
 * employer's earlier removals (jobs removed after reports).
 */
export async function jobCase(env: Env, jobId: number) {
  const perShard = await Promise.all(
    shardNumbers(env).map(async (shard) => {
      const db = shardDb(env, shard);
      const [reports, summaries] = await Promise.all([reportsOfJob(db, jobId, JOB_REPORTS), jobSummaries(db, [jobId])]);
      return { shard, db, reports, summary: summaries.get(jobId) };
    }),
  );
  const reports = perShard
    .flatMap((entry) => entry.reports)
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
    .slice(0, JOB_REPORTS);
  const holders = perShard.filter((entry) => entry.summary);
  if (holders.length === 0) return { reports, job: null, removals: [] };
  // DESIGN 22: a moved employer's old shard may still hold a stale copy for a moment; its own shard is the truth.
  const home = holders.length > 1 ? (await findLiveEmployer(env, holders[0].summary!.employerId))?.shard : undefined;
  const holder = holders.find((entry) => entry.shard === home) ?? holders[0];
  const employerId = holder.summary!.employerId;
  const [row, removed] = await Promise.all([getJob({ db: holder.db, employerId }, jobId), removalsOfEmployer(holder.db, employerId, REMOVALS)]);
  const titles = await jobSummaries(holder.db, removed.map((removal) => removal.jobId));
  return { reports, job: toJob(row), removals: removed.map((removal) => ({ ...removal, title: titles.get(removal.jobId)?.title ?? null })) };
}
