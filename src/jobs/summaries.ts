import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { inList } from "../db/lists";
import { all } from "./repository";

// DESIGN 26: what the operator's console shows of jobs, whoever posted them — a line per reported
// job, and an employer's jobs counted by status (job_counts, kept by triggers: no row is counted).

export interface JobSummary {
  id: number;
  title: string | null;
  status: "active" | "archived" | "draft";
  employerId: number;
  employerName: string;
}

/** These jobs of this shard, with their employers' names (a job gone is left out). */
export async function jobSummaries(db: Database, ids: readonly number[]): Promise<Map<number, JobSummary>> {
  if (ids.length === 0) return new Map();
  const rows = await all<JobSummary>(
    db,
    sql`SELECT j.id, j.title, j.status, j.employer_id AS employerId, e.name AS employerName FROM jobs j JOIN employers e ON e.id = j.employer_id WHERE ${inList(sql`j.id`, [...new Set(ids)])}`,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** The employer's jobs by status (its test space's not included). */
export async function jobCounts(db: Database, employerId: number): Promise<Record<JobSummary["status"], number>> {
  const rows = await all<{ status: JobSummary["status"]; total: number }>(db, sql`SELECT status, total FROM job_counts WHERE employer_id = ${employerId}`);
  const counts = { active: 0, draft: 0, archived: 0 };
  for (const row of rows) counts[row.status] = row.total;
  return counts;
}
