import type { Database } from "../db/client";
import { NotFoundError, ValidationError } from "../http/problem";
import { listJobs, type ListFilter } from "../jobs/service";
import { numbersOf, totalsOf, type TotalsRow } from "./repository";
import { dailyNumbers, dayOf, rangeOf } from "./rules";

/** GET /jobs/{id}/stats (DESIGN 21): the owner's job only; a test job's numbers stay 0. */
export async function jobStats(db: Database, employerId: number, jobId: number, query: { from?: string; to?: string }) {
  const range = rangeOf(query, dayOf(Date.now()));
  if ("errors" in range) throw new ValidationError(range.errors);
  const numbers = await numbersOf(db, employerId, jobId, range);
  if (!numbers) throw new NotFoundError("You have no job with this id.");
  return numbers.test ? dailyNumbers(range, new Map(), new Map()) : dailyNumbers(range, numbers.views, numbers.applications);
}

/**
 * DESIGN 25: a page of the employer's jobs as GET /jobs lists it, with each one's views and
 * applications since it was posted (a test job's stay 0), in one round trip: the totals are read
 * in the list's own batch, over the page's job ids.
 */
export async function listJobsWithTotals(db: Database, employerId: number, filter: ListFilter) {
  const { rows, total, alongside } = await listJobs(db, employerId, filter, (pageIds) => totalsOf(employerId, pageIds));
  const totals = new Map((alongside as unknown as TotalsRow[]).map((row) => [row.jobId, row.test ? { views: 0, applications: 0 } : { views: row.views, applications: row.applications }]));
  return { rows, total, totals };
}
