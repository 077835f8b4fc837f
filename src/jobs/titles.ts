import { sql } from "drizzle-orm";
import { inList } from "../db/lists";
import { all } from "./repository";
import type { Caller } from "./service";

// DESIGN 25: what a list of another capability's things shows of their jobs (the console's list of
// all applications names each one's job): the titles of the caller's own jobs, in one read.

/** The titles of these jobs of the caller's (a job not theirs, or gone, is left out). */
export async function jobTitles({ db, employerId }: Caller, ids: readonly number[]): Promise<Map<number, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await all<{ id: number; title: string | null }>(db, sql`SELECT id, title FROM jobs WHERE employer_id = ${employerId} AND ${inList(sql`id`, [...new Set(ids)])}`);
  return new Map(rows.map((row) => [row.id, row.title]));
}
