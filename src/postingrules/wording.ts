// DESIGN 19: a word check, in English and French, case and accents ignored, across markup and
// line breaks ("Canadian <b>experience</b>" asks for it as much as the plain words do).

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The text's words, lower case, without accents or markup, one space apart. */
export function foldedWords(text: string): string {
  return ` ${text
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? " ";
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
    })
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()} `;
}

/** The phrases Ontario forbids as a requirement, folded like foldedWords folds a text. */
const CANADIAN_EXPERIENCE = [" canadian experience ", " experience canadienne "];

/** True when the text asks for Canadian experience, in English or in French. */
export function mentionsCanadianExperience(text: string | null | undefined): boolean {
  if (!text) return false;
  const words = foldedWords(text);
  return CANADIAN_EXPERIENCE.some((phrase) => words.includes(phrase));
}
