import { employerPeople } from "../accounts/invitations";
import { createDatabase, type Database } from "../db/client";
import { findLiveEmployer } from "../employers/directory";
import type { Env } from "../env";
import { jobCounts, jobSummaries, type JobSummary } from "../jobs/summaries";
import { reportedJobs, reportsOfEmployer } from "../reports/service";
import { shardDatabase, shardNumbers } from "../shards/bindings";

// DESIGN 26: what the operator's pages read, across the employer side's shards (a job and its
// reports live in its employer's shard; DESIGN 22) and the accounts.

/** Jobs shown in the queue, and reports on an employer's page, at most. */
export const QUEUE_SIZE = 50;
const EMPLOYER_REPORTS = 50;

const shardDb = (env: Env, shard: number): Database => createDatabase(shardDatabase(env, shard));

/** DESIGN 26: the jobs with open reports, most reported first, each with its job and employer (a job since deleted has none). */
export async function reportQueue(env: Env) {
  const perShard = await Promise.all(
    shardNumbers(env).map(async (shard) => {
      const db = shardDb(env, shard);
      const reported = await reportedJobs(db, QUEUE_SIZE);
      const jobs = await jobSummaries(db, reported.map((row) => row.jobId));
      return reported.map((row) => ({ ...row, job: jobs.get(row.jobId) as JobSummary | undefined }));
    }),
  );
  return perShard
    .flat()
    .sort((a, b) => b.reports - a.reports || b.latestAt - a.latestAt)
    .slice(0, QUEUE_SIZE);
}

/** An employer as the operator sees it: plan, shard, jobs by status, people and invitations, the newest reports of its jobs. */
export async function employerOverview(env: Env, id: number) {
  const employer = await findLiveEmployer(env, id);
  if (!employer) return undefined;
  const db = shardDb(env, employer.shard);
  const [jobs, people, reports] = await Promise.all([jobCounts(db, id), employerPeople(env, id), reportsOfEmployer(db, id, EMPLOYER_REPORTS)]);
  const titles = await jobSummaries(db, reports.map((report) => report.jobId));
  return { employer, jobs, people, reports: reports.map((report) => ({ ...report, title: titles.get(report.jobId)?.title ?? null })) };
}
