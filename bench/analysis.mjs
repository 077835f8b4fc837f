// Why a target was missed and what would close it. Written from reading the profiles and the
// code; `r` is the run, so the text can quote its numbers.
const EXPLANATIONS = {};

export function explain(id, r) {
  return EXPLANATIONS[id]?.(r) ?? "Not analysed yet: see the numbers above.";
}
