import type { Database } from "../db/client";
import { NotFoundError, ValidationError } from "../http/problem";
import { numbersOf, totalsOf } from "./repository";
import { dailyNumbers, dayOf, rangeOf } from "./rules";

/** GET /jobs/{id}/stats (DESIGN 21): the owner's job only; a test job's numbers stay 0. */
export async function jobStats(db: Database, employerId: number, jobId: number, query: { from?: string; to?: string }) {
  const range = rangeOf(query, dayOf(Date.now()));
  if ("errors" in range) throw new ValidationError(range.errors);
  const numbers = await numbersOf(db, employerId, jobId, range);
  if (!numbers) throw new NotFoundError("You have no job with this id.");
  return numbers.test ? dailyNumbers(range, new Map(), new Map()) : dailyNumbers(range, numbers.views, numbers.applications);
}

/** The totals of each of the owner's jobs named, since it was posted (a list's column); a test job's stay 0. */
export async function jobTotals(db: Database, employerId: number, jobIds: number[]): Promise<Map<number, { views: number; applications: number }>> {
  const rows = await totalsOf(db, employerId, jobIds);
  return new Map(rows.map((row) => [row.jobId, row.test ? { views: 0, applications: 0 } : { views: row.views, applications: row.applications }]));
}
