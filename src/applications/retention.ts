import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { runChunked, type Bounds, type RuleProgress } from "../scheduled/chunks";
import { type Chunk } from "../db/windows";
import { expiredApplications, forgetResumeDeletions, pendingResumeDeletions } from "./repository";

/** DESIGN 15: personal information is kept no longer than needed. */
export const APPLICATION_RETENTION_MS = 180 * 24 * 60 * 60 * 1000;

/** R2 deletes at most 1 000 keys per call; later runs take the rest. */
const PURGE_LIMIT = 1_000;

/** Résumés whose application is gone (a deleted job, the retention) leave the bucket too. */
export async function purgeDeletedResumes(env: Pick<Env, "DB" | "RESUMES">): Promise<number> {
  const db = createDatabase(env.DB);
  const keys = await pendingResumeDeletions(db, PURGE_LIMIT);
  if (keys.length === 0) return 0;
  await env.RESUMES.delete(keys);
  await forgetResumeDeletions(db, keys);
  return keys.length;
}

/** The cron's share: applications older than 180 days go, a chunk at a time (their résumés' keys wait for the purge). */
export async function expireApplications(env: Pick<Env, "DB">, now: number, bounds: Bounds): Promise<RuleProgress[]> {
  const db = createDatabase(env.DB);
  const rule = { rule: "application-retention", chunk: (chunk: Chunk) => expiredApplications(db, now - APPLICATION_RETENTION_MS, chunk) };
  return (await runChunked(db, [rule], bounds)).rules;
}
