import { foldedWords } from "../postingrules/wording";

// DESIGN 20: a screening question may not ask for the applicant's current or past pay (BC Pay
// Transparency Act s. 3, PEI Employment Standards Act s. 5.8). Expected pay may be asked.
// Phrases, folded (lower case, no accents, words one space apart), English and French.
const PAY_HISTORY = [
  "current salary", "current pay", "current wage", "current wages", "current compensation", "current earnings", "current income",
  "present salary", "present pay", "salary history", "pay history", "wage history", "compensation history", "earnings history",
  "previous salary", "previous pay", "previous wage", "previous wages", "previous compensation", "past salary", "past pay",
  "past wage", "past wages", "prior salary", "prior pay", "prior wage", "last salary", "last pay", "former salary",
  "salary now", "do you currently earn", "do you earn now", "are you currently paid", "are you paid now", "did you earn",
  "were you paid", "do you currently make",
  "salaire actuel", "salaire present", "remuneration actuelle", "paie actuelle", "paye actuelle", "traitement actuel",
  "salaire precedent", "salaire anterieur", "ancien salaire", "dernier salaire", "salaire passe", "historique salarial",
  "historique de salaire", "historique de remuneration", "historique de paie", "remuneration anterieure",
  "remuneration precedente", "gagnez vous actuellement", "combien gagnez vous", "combien gagniez vous",
].map((phrase) => ` ${phrase} `);

/** True when the text asks for the applicant's current or past pay. */
export function asksForPayHistory(text: string): boolean {
  const words = foldedWords(text);
  return PAY_HISTORY.some((phrase) => words.includes(phrase));
}
