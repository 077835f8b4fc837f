// DESIGN 14, 21: what job seekers may see, as SQL over `jobs j`: active, open, and not a test job.
// The one definition, for the Worker's reads (published.ts) and for `npm run board:rebuild`'s wait,
// which runs SQL through wrangler outside the Worker: so this module imports nothing and Node
// runs it as it is.

/** On the board at `nowSeconds` (a whole number, written into the SQL: it is no one's input). */
export function onBoardCondition(nowSeconds: number): string {
  if (!Number.isSafeInteger(nowSeconds)) throw new RangeError(`not a time in whole seconds: ${nowSeconds}`);
  return `j.status = 'active' AND j.test = 0 AND j.close_date > ${nowSeconds}`;
}

/** How many jobs of this database belong on the board: what a rebuild puts back. Read from jobs_visible_idx alone. */
export const onBoardCountSql = (nowSeconds: number) => `SELECT count(*) AS jobs FROM jobs j WHERE ${onBoardCondition(nowSeconds)}`;

/**
 * DESIGN 18a: left the board at `nowSeconds`, as far as the employer side still knows: archived,
 * or active past its closeDate, and never a test job. A closeDate always follows the publishDate,
 * so such a job was open once; a job archived straight from draft cannot be told apart (jobs keep
 * no record of having been published) and counts as left too. A deleted job is no longer here.
 * The status comes first, so the test flag (the row's last column, past the description) is read
 * only for these jobs.
 */
export function leftBoardCondition(nowSeconds: number): string {
  if (!Number.isSafeInteger(nowSeconds)) throw new RangeError(`not a time in whole seconds: ${nowSeconds}`);
  return `(j.status = 'archived' OR (j.status = 'active' AND j.close_date <= ${nowSeconds})) AND j.test = 0`;
}
