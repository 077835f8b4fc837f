import type { PostingEmployer, PostingFacts } from "./facts";
import { POSTING_RULES, type PostingRule } from "./rules";

// DESIGN 19a: every rule of the job's jurisdictions is listed, each met, broken or not
// applicable to this employer, salary or publication date; other jurisdictions' are not.

export type PostingRuleStatus = "met" | "broken" | "notApplicable";

/** One rule's outcome for one job: what a job answer shows, plus what a refusal names. */
export interface PostingRuleOutcome {
  rule: string;
  jurisdiction: string;
  status: PostingRuleStatus;
  message: string;
  source: string;
  law: string;
  /** The member to change, when broken. */
  field?: string;
}

const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

function outcomeOf(rule: PostingRule, job: PostingFacts, employer: PostingEmployer): PostingRuleOutcome {
  const base = { rule: rule.id, jurisdiction: rule.jurisdiction, source: rule.source, law: rule.law };
  const notApplicable = (message: string) => ({ ...base, status: "notApplicable" as const, message });
  if (dayOf(job.publishDate) < rule.effective) return notApplicable(`Applies to postings published on or after ${rule.effective}.`);
  if (rule.federalExempt && employer.federallyRegulated) {
    return notApplicable("Federally regulated employers follow the Canada Labour Code, not this province's employment standards.");
  }
  if (rule.minimumEmployees !== undefined && employer.ontarioEmployees !== null && employer.ontarioEmployees < rule.minimumEmployees) {
    return notApplicable(`Applies to employers with ${rule.minimumEmployees} or more employees in the province; you have ${employer.ontarioEmployees}.`);
  }
  const verdict = rule.check(job);
  return { ...base, ...verdict };
}

/** The rules of the job's jurisdictions, in the rules' order, each with its outcome. */
export function checkPostingRules(job: PostingFacts, employer: PostingEmployer): PostingRuleOutcome[] {
  const provinces = new Set(job.provinces);
  return POSTING_RULES.filter((rule) => provinces.has(rule.jurisdiction)).map((rule) => outcomeOf(rule, job, employer));
}

export const brokenRules = (outcomes: PostingRuleOutcome[]) => outcomes.filter((outcome) => outcome.status === "broken");

/**
 * The kinds of employer the rules tell apart: federally regulated or not, and each band of
 * Ontario headcount the rules' thresholds make (`below` exclusive; null: no upper bound, where an
 * unknown headcount also falls). A write judged for every band can be refused atomically by the
 * band its employer is in at that moment, without reading the employer first.
 */
export interface EmployerBand {
  federallyRegulated: boolean;
  from: number;
  below: number | null;
}

const thresholds = [...new Set(POSTING_RULES.flatMap((rule) => (rule.minimumEmployees === undefined ? [] : [rule.minimumEmployees])))].sort((a, b) => a - b);

export const EMPLOYER_BANDS: readonly EmployerBand[] = [false, true].flatMap((federallyRegulated) =>
  [0, ...thresholds].map((from, i) => ({ federallyRegulated, from, below: thresholds[i] ?? null })),
);

/** The bands of employer for which this job breaks a rule. */
export function bandsBreaking(job: PostingFacts): EmployerBand[] {
  return EMPLOYER_BANDS.filter(
    (band) => brokenRules(checkPostingRules(job, { federallyRegulated: band.federallyRegulated, ontarioEmployees: band.below === null ? null : band.from })).length > 0,
  );
}
