// What the posting rules read of a job and of its employer: plain values, so that a stored
// job, a merged one not stored yet and a list item are all judged by the same functions.

/** The job, as the rules see it. Amounts are ten-thousandths, as stored; dates Unix seconds. */
export interface PostingFacts {
  publishDate: number;
  /** The two-letter codes of the provinces of the job's places (repeats allowed). */
  provinces: readonly string[];
  salary: { amount: number; maxAmount: number | null; typeId: number } | null;
  aiUsedInSelection: boolean | null;
  existingVacancy: boolean | null;
  /** A French version (`translations.fr`, title and description) is published with the job. */
  hasFrench: boolean;
  /** The members that ask for Canadian experience, of CANADIAN_EXPERIENCE_FIELDS. */
  canadianExperienceIn: readonly CanadianExperienceField[];
}

/** The employer's settings the rules depend on (DESIGN 19). */
export interface PostingEmployer {
  /** Employees in Ontario; null when unknown, which counts as 25 or more. */
  ontarioEmployees: number | null;
  federallyRegulated: boolean;
}

/** Where a job's text can ask for Canadian experience, in the order a 422 names them. */
export const CANADIAN_EXPERIENCE_FIELDS = ["title", "description", "translations.fr"] as const;
export type CanadianExperienceField = (typeof CANADIAN_EXPERIENCE_FIELDS)[number];

/** The fields as a bit mask, so a stored job keeps them in one small column. */
export function canadianExperienceMask(fields: readonly CanadianExperienceField[]): number {
  return CANADIAN_EXPERIENCE_FIELDS.reduce((mask, field, bit) => (fields.includes(field) ? mask | (1 << bit) : mask), 0);
}

export function canadianExperienceFields(mask: number): CanadianExperienceField[] {
  return CANADIAN_EXPERIENCE_FIELDS.filter((_, bit) => (mask & (1 << bit)) !== 0);
}
