// D1's per-invocation limit (Workers Paid): every statement counts, each one of a batch too.
// A request that would send more is refused by D1 part-way, so a loop of write attempts must
// stop before it gets there (DESIGN 6b, 12).
export const D1_QUERIES_PER_INVOCATION = 1_000;
