// DESIGN 18a: a results page lists 20 jobs. The form itself is the board's (src/board/search-form.ts),
// read the same way by the alert form under the results.

export const RESULTS_PER_PAGE = 20;
