// The board's side of `npm run board:rebuild`'s wait (scripts/board-rebuild.mjs runs it through
// wrangler, outside the Worker: so this module imports nothing and Node runs it as it is).

/** How many jobs the board shows at `nowSeconds`: its rows not past their closeDate, as every read filters them. */
export function openBoardJobsCountSql(nowSeconds: number): string {
  if (!Number.isSafeInteger(nowSeconds)) throw new RangeError(`not a time in whole seconds: ${nowSeconds}`);
  return `SELECT count(*) AS jobs FROM board_jobs WHERE close_date > ${nowSeconds}`;
}
