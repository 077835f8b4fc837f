import { consentRecordsOf, endAlertsOnRequest, type ConsentRecord } from "../alerts/requests";
import { createDatabase, type Database } from "../db/client";
import type { Env } from "../env";
import { jobsForExport } from "../jobs/published";
import { atShard, shardNumbers } from "../shards/bindings";
import { applicationsOfAddress, eraseApplications, forgetResumeDeletions, type ApplicationRecord } from "./repository";

// DESIGN 26, 26a: a job seeker's requests about what the board holds of their address (PIPEDA,
// Quebec's Law 25), answered by the operator: the export of every application of the address in
// every shard and of its alerts' consent records, and their erasure. Each shard is read a page
// at a time (an address may have many applications), by applications_email_idx.

/** Applications read (and erased) per step. */
const PAGE = 200;

/** DESIGN 26a: one application in the export. */
export interface ExportedApplication {
  id: number;
  jobId: number;
  jobTitle: string | null;
  /** The employer's name: it received the application. */
  employer: string;
  name: string;
  email: string;
  phone: string | null;
  coverLetter: string | null;
  receivedAt: string;
  status: ApplicationRecord["status"];
  resume: { filename: string; contentType: string; size: number } | null;
}

/** DESIGN 26a: the export, one JSON document (the operator's console sends it as an attachment). */
export interface JobSeekerExport {
  email: string;
  exportedAt: string;
  applications: ExportedApplication[];
  alerts: ConsentRecord[];
}

/** Every page of the address's applications in one shard, each page handed to `each` (which may change them). */
async function forEachPage(db: Database, email: string, each: (page: ApplicationRecord[]) => Promise<void>): Promise<void> {
  for (let after = 0; ; ) {
    const page = await applicationsOfAddress(db, email, after, PAGE);
    if (page.length) await each(page);
    if (page.length < PAGE) return;
    after = page[page.length - 1].id;
  }
}

/** DESIGN 26a: what the board holds of `email` — its applications in every shard (oldest first) and its alerts' consent records. */
export async function exportJobSeeker(env: Env, email: string, now = Date.now()): Promise<JobSeekerExport> {
  const address = email.trim();
  const perShard = await Promise.all(
    shardNumbers(env).map(async (shard) => {
      const db = createDatabase(atShard(env, shard).DB);
      const found: ExportedApplication[] = [];
      await forEachPage(db, address, async (page) => {
        const jobs = new Map((await jobsForExport(db, [...new Set(page.map((row) => row.jobId))])).map((job) => [job.id, job]));
        for (const row of page) {
          found.push({
            id: row.id,
            jobId: row.jobId,
            jobTitle: jobs.get(row.jobId)?.title ?? null,
            employer: jobs.get(row.jobId)?.employerName ?? "",
            name: row.name,
            email: row.email,
            phone: row.phone,
            coverLetter: row.coverLetter,
            receivedAt: new Date(row.receivedAt).toISOString(),
            status: row.status,
            resume: row.resumeKey ? { filename: row.resumeFilename!, contentType: row.resumeType!, size: row.resumeSize! } : null,
          });
        }
      });
      return found;
    }),
  );
  const applications = perShard.flat().sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.id - b.id);
  return { email: address, exportedAt: new Date(now).toISOString(), applications, alerts: await consentRecordsOf(env, address) };
}

/** What an erasure did. */
export interface JobSeekerErasure {
  /** Applications erased now. */
  applications: number;
  /**
   * Applications left as they were because their employer is being moved between shards (its
   * rows refuse writes for the seconds it takes): the same request again erases them.
   */
  remaining: number;
  /** Résumés deleted from the bucket (any the bucket refused, the cron's purge deletes). */
  resumes: number;
  /** Alerts ended. */
  alerts: number;
}

/**
 * DESIGN 26a: erases what the board holds of `email`. Every application of the address in every
 * shard keeps its id, job, status and dates (the employer's counts), but its personal data goes
 * (the API answers name, email, phone, coverLetter and resume as null), its résumé is deleted from
 * the bucket at once, its emails still pending are never sent; every alert of the address ends
 * and its tokens answer "unsubscribed" (the consent records are kept as the law allows). Run
 * again, it erases what a move held back, and nothing twice.
 */
export async function eraseJobSeeker(env: Env, email: string, now = Date.now()): Promise<JobSeekerErasure> {
  const address = email.trim();
  const perShard = await Promise.all(
    shardNumbers(env).map(async (shard) => {
      const shardEnv = atShard(env, shard);
      const db = createDatabase(shardEnv.DB);
      const done = { applications: 0, remaining: 0, resumes: 0 };
      await forEachPage(db, address, async (page) => {
        const erased = new Set(await eraseApplications(db, page.map((row) => row.id), now));
        const keys = page.flatMap((row) => (erased.has(row.id) && row.resumeKey ? [row.resumeKey] : []));
        if (keys.length) done.resumes += await deleteResumes(shardEnv, db, keys);
        done.applications += erased.size;
        done.remaining += page.length - erased.size;
      });
      return done;
    }),
  );
  const alerts = await endAlertsOnRequest(env, address, now);
  return {
    applications: perShard.reduce((sum, shard) => sum + shard.applications, 0),
    remaining: perShard.reduce((sum, shard) => sum + shard.remaining, 0),
    resumes: perShard.reduce((sum, shard) => sum + shard.resumes, 0),
    alerts,
  };
}

/** The erased résumés leave the bucket now; should that fail, their keys wait in resume_deletions for the cron's purge. */
async function deleteResumes(env: Pick<Env, "RESUMES">, db: Database, keys: string[]): Promise<number> {
  try {
    await env.RESUMES.delete(keys);
    await forgetResumeDeletions(db, keys);
    return keys.length;
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "erased résumés not deleted at once; the cron will", error: String(error) }));
    return 0;
  }
}
