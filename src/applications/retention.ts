import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { sweepEmailCopies } from "../email/delivery";
import { expiredApplications, forgetResumeDeletions, pendingResumeDeletions } from "./repository";
import { applications } from "./tables";

/** DESIGN 15: personal information is kept no longer than needed. */
export const APPLICATION_RETENTION_MS = 180 * 24 * 60 * 60 * 1000;

/** Résumés whose application is gone (a deleted job, the retention) leave the bucket too. */
export async function purgeDeletedResumes(env: Pick<Env, "DB" | "RESUMES">): Promise<number> {
  const db = createDatabase(env.DB);
  const keys = await pendingResumeDeletions(db, 1_000);
  if (keys.length === 0) return 0;
  await env.RESUMES.delete(keys);
  await forgetResumeDeletions(db, keys);
  return keys.length;
}

/** The cron's share: applications older than 180 days go (set-based), with their résumés; copies due are sent again. */
export async function maintainApplications(env: Pick<Env, "DB" | "RESUMES" | "EMAIL_QUEUE">, now: number) {
  const db = createDatabase(env.DB);
  const expired = await expiredApplications(db, now - APPLICATION_RETENTION_MS).returning({ id: applications.id });
  return { expired: expired.length, resumesDeleted: await purgeDeletedResumes(env), copiesRequeued: await sweepEmailCopies(env, now) };
}
