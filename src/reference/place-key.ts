// Shared by the Worker and the seed generator (scripts/), so both compare names the same way.

/** "  MONTRÉAL " → "montreal": case, accents, curly apostrophes and extra spaces ignored. */
export function placeKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}
