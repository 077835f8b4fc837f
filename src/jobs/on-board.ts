// DESIGN 14, 21, 26: what job seekers may see, as SQL over `jobs j`: active, open, not a test job,
// and not of an employer the operator suspended.
// The one definition, for the Worker's reads (published.ts) and for `npm run board:rebuild`'s wait,
// which runs SQL through wrangler outside the Worker: so this module imports nothing and Node
// runs it as it is.

/** DESIGN 26: the suspended employers of this database (employers_suspended_idx: a handful of rows, usually none). */
const SUSPENDED = "(SELECT id FROM employers WHERE suspended_at IS NOT NULL)";

/** On the board at `nowSeconds` (a whole number, written into the SQL: it is no one's input). Read from jobs_visible_idx alone. */
export function onBoardCondition(nowSeconds: number): string {
  if (!Number.isSafeInteger(nowSeconds)) throw new RangeError(`not a time in whole seconds: ${nowSeconds}`);
  return `j.status = 'active' AND j.test = 0 AND j.close_date > ${nowSeconds} AND j.employer_id NOT IN ${SUSPENDED}`;
}

/** How many jobs of this database belong on the board: what a rebuild puts back. Read from jobs_visible_idx alone. */
export const onBoardCountSql = (nowSeconds: number) => `SELECT count(*) AS jobs FROM jobs j WHERE ${onBoardCondition(nowSeconds)}`;

/**
 * DESIGN 18a: left the board at `nowSeconds`, as far as the employer side still knows: archived,
 * or active past its closeDate or of a suspended employer (DESIGN 26), and never a test job. A closeDate always follows the publishDate,
 * so such a job was open once; a job archived straight from draft cannot be told apart (jobs keep
 * no record of having been published) and counts as left too. A deleted job is no longer here.
 * The status comes first, so the test flag (the row's last column, past the description) is read
 * only for these jobs.
 */
export function leftBoardCondition(nowSeconds: number): string {
  if (!Number.isSafeInteger(nowSeconds)) throw new RangeError(`not a time in whole seconds: ${nowSeconds}`);
  return `(j.status = 'archived' OR (j.status = 'active' AND (j.close_date <= ${nowSeconds} OR j.employer_id IN ${SUSPENDED}))) AND j.test = 0`;
}
