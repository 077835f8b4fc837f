import type { Lang } from "./i18n";

// DESIGN 18, 18a: the pages' addresses. A job's canonical address carries a slug of its title;
// `/jobs/{id}` and a wrong slug redirect to it.

const JOB_BASE: Record<Lang, string> = { en: "/jobs", fr: "/fr/emplois" };
export const HOME: Record<Lang, string> = { en: "/", fr: "/fr/" };
export const FRAUD_POLICY: Record<Lang, string> = { en: "/fraud-policy", fr: "/fr/politique-fraude" };
/** After a job's address: its report form. */
export const REPORT = "/report";

/** "Comptable principal(e) — Montréal" → "comptable-principal-e-montreal"; never empty. */
export function slugOf(title: string | null, lang: Lang): string {
  const slug = (title ?? "")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || (lang === "fr" ? "emploi" : "job");
}

export const jobPath = (lang: Lang, id: number, title: string | null) => `${JOB_BASE[lang]}/${id}-${slugOf(title, lang)}`;

/** `{id}` or `{id}-{slug}` of a job address; null when it names no job id. */
export function parseJobAddress(segment: string): { id: number; slug: string | null } | null {
  const match = /^([1-9][0-9]{0,9})(?:-(.*))?$/.exec(segment);
  if (!match) return null;
  const id = Number(match[1]);
  return id <= 2_147_483_647 ? { id, slug: match[2] ?? null } : null;
}
