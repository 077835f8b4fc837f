import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { expiredApplications, forgetResumeDeletions, pendingResumeDeletions } from "./repository";
import { applications } from "./tables";

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

/** The cron's share: applications older than 180 days go, set-based (their résumés' keys wait for the purge). */
export async function expireApplications(env: Pick<Env, "DB">, now: number): Promise<{ expired: number }> {
  const expired = await expiredApplications(createDatabase(env.DB), now - APPLICATION_RETENTION_MS).returning({ id: applications.id });
  return { expired: expired.length };
}
