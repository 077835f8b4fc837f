import type { Database } from "../db/client";
import { NotFoundError, ValidationError } from "../http/problem";
import { numbersOf } from "./repository";
import { dailyNumbers, dayOf, rangeOf } from "./rules";

/** GET /jobs/{id}/stats (DESIGN 21): the owner's job only; a test job's numbers stay 0. */
export async function jobStats(db: Database, employerId: number, jobId: number, query: { from?: string; to?: string }) {
  const range = rangeOf(query, dayOf(Date.now()));
  if ("errors" in range) throw new ValidationError(range.errors);
  const numbers = await numbersOf(db, employerId, jobId, range);
  if (!numbers) throw new NotFoundError("You have no job with this id.");
  return numbers.test ? dailyNumbers(range, new Map(), new Map()) : dailyNumbers(range, numbers.views, numbers.applications);
}
