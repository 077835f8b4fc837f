import type { SQL } from "drizzle-orm";
import { employerAdmins } from "../accounts/service";
import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { pokeRelay } from "../events/dispatch";
import { mostReportedJobs, resolveReports } from "../reports/moderation";
import { atShard, shardNumbers } from "../shards/bindings";
import { removalEmail } from "./moderation-email";
import { findModeratedJobs, moderateJob, RevisionMismatch, type ModeratedJob, type ModerationChange } from "./repository";
import type { ModerationReason } from "./schemas";

// DESIGN 26, 26a: the operator's acts on a job, whoever posted it, for the operator's console
// (src/operator). A removal archives the job and marks it removed, resolves its open reports and
// records `job.removed`, in one batch in the job's shard; the board, its pages, the sitemap, alert
// matching and reach take the event like an archive's (the job is off the board), webhooks send
// it, and the employer's admins are emailed. A restoration clears the mark (`job.restored`): the
// job stays archived, and its employer may publish it again. Each act is idempotent: done again,
// it changes nothing and records nothing.

/** Attempts when the job keeps changing between the read and the act (each conflict is another write stored). */
const MAX_ATTEMPTS = 10;

/** What the operator's console shows and records of an act. */
export interface ModerationOutcome {
  jobId: number;
  title: string | null;
  employerId: number;
  employerName: string;
  /** DESIGN 22: the shard the job lives in. */
  shard: number;
  /** False when the job already was as the act leaves it: nothing was written. */
  changed: boolean;
  /** Admins the removal was emailed to (0 for a restoration). */
  emailed: number;
}

/** A job where its employer lives: every shard is asked at once (a job keeps its id when its employer moves). */
async function locateJob(env: Env, jobId: number): Promise<{ shard: number; job: ModeratedJob } | undefined> {
  const found = await Promise.all(
    shardNumbers(env).map(async (shard) => ({ shard, job: (await findModeratedJobs(createDatabase(atShard(env, shard).DB), [jobId]))[0] })),
  );
  return found.find((entry): entry is { shard: number; job: ModeratedJob } => entry.job !== undefined && entry.job.movedTo === null);
}

const outcomeOf = (shard: number, job: ModeratedJob, changed: boolean, emailed = 0): ModerationOutcome => ({
  jobId: job.id,
  title: job.title,
  employerId: job.employerId,
  employerName: job.employerName,
  shard,
  changed,
  emailed,
});

/**
 * The act on the job as read, again on a newer revision while another write comes first. Undefined
 * when no shard has the job (deleted, or never existed); `done` says when it already is as asked.
 */
async function act(
  env: Env,
  jobId: number,
  done: (job: ModeratedJob) => boolean,
  change: ModerationChange,
  alongside: SQL[],
  now: number,
): Promise<{ shard: number; job: ModeratedJob; changed: boolean } | undefined> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const found = await locateJob(env, jobId);
    if (!found) return undefined;
    if (done(found.job)) return { ...found, changed: false };
    const shardEnv = atShard(env, found.shard);
    try {
      await moderateJob(createDatabase(shardEnv.DB), found.job, change, now, alongside);
    } catch (error) {
      if (error instanceof RevisionMismatch) continue;
      throw error;
    }
    await pokeRelay(shardEnv);
    return { ...found, changed: true };
  }
  throw new Error(`job ${jobId} changed ${MAX_ATTEMPTS} times while the operator's act was applied; try again`);
}

/**
 * DESIGN 26: removes the job from the board for `reason`, resolves its open reports, and emails
 * the employer's admins (in their console language) why and how to answer. Undefined when no
 * such job exists.
 */
export async function removeJobByOperator(env: Env, removal: { jobId: number; reason: ModerationReason }, now = Date.now()): Promise<ModerationOutcome | undefined> {
  const at = Math.floor(now / 1000);
  const done = await act(
    env,
    removal.jobId,
    (job) => job.moderationStatus === "removed",
    { removed: { reason: removal.reason, at } },
    [resolveReports(removal.jobId, "removed", now)],
    now,
  );
  if (!done) return undefined;
  const emailed = done.changed ? await tellAdmins(env, done.job, removal.reason, new Date(at * 1000).toISOString()) : 0;
  return outcomeOf(done.shard, done.job, done.changed, emailed);
}

/** DESIGN 26: the removed job may be published again by its employer (it stays archived until then). Undefined when no such job exists. */
export async function restoreJobByOperator(env: Env, restoration: { jobId: number }, now = Date.now()): Promise<ModerationOutcome | undefined> {
  const done = await act(env, restoration.jobId, (job) => job.moderationStatus !== "removed", { restored: { at: Math.floor(now / 1000) } }, [], now);
  return done && outcomeOf(done.shard, done.job, done.changed);
}

/** Sent after the act: a failure is logged, never undoes it. How many admins it reached. */
async function tellAdmins(env: Env, job: ModeratedJob, reason: ModerationReason, at: string): Promise<number> {
  const from = env.ACCOUNTS_FROM || env.EMAIL_FROM;
  if (!from) return 0;
  let sent = 0;
  for (const admin of await employerAdmins(env, job.employerId)) {
    try {
      await env.EMAIL.send(
        removalEmail({ language: admin.language, to: admin.email, from, job, reason, at, board: env.BOARD_NAME, contact: env.BOARD_CONTACT }),
      );
      sent++;
    } catch (error) {
      console.error(JSON.stringify({ level: "error", message: "removal email not sent", jobId: job.id, error: String(error) }));
    }
  }
  return sent;
}

/** A job in the operator's queue: its open reports, and the job as its shard has it (null: deleted since it was reported). */
export interface QueuedJob {
  jobId: number;
  openReports: number;
  /** The newest open report (ms). */
  latestReportAt: number;
  shard: number;
  job: Pick<ModeratedJob, "title" | "status" | "employerId" | "employerName" | "moderationStatus"> | null;
}

/** The queue's length at most. */
export const MAX_QUEUE = 100;

/**
 * DESIGN 26: the moderation queue — jobs with open reports, most reported first (the newest
 * report first among equals), across every shard: each shard's first `limit` from its index, then
 * those jobs read by id; two reads per shard, whatever the number of reports.
 */
export async function moderationQueue(env: Env, limit = 50): Promise<QueuedJob[]> {
  const size = Math.min(Math.max(1, Math.floor(limit)), MAX_QUEUE);
  const perShard = await Promise.all(
    shardNumbers(env).map(async (shard) => {
      const db = createDatabase(atShard(env, shard).DB);
      const reported = await mostReportedJobs(db, size);
      const jobs = new Map((await findModeratedJobs(db, reported.map((entry) => entry.jobId))).map((job) => [job.id, job]));
      return reported.map((entry): QueuedJob => {
        const job = jobs.get(entry.jobId);
        return {
          jobId: entry.jobId,
          openReports: entry.open,
          latestReportAt: entry.latestAt,
          shard,
          job: job ? { title: job.title, status: job.status, employerId: job.employerId, employerName: job.employerName, moderationStatus: job.moderationStatus } : null,
        };
      });
    }),
  );
  return perShard
    .flat()
    .sort((a, b) => b.openReports - a.openReports || b.latestReportAt - a.latestReportAt)
    .slice(0, size);
}
