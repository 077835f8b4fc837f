import { ProblemError } from "../http/problem";
import { provinceCodeOf } from "../locations/provinces";
import {
  bandsBreaking,
  brokenRules,
  canadianExperienceFields,
  checkPostingRules,
  type EmployerBand,
  type PostingFacts,
  type PostingRuleOutcome,
} from "../postingrules";
import type { Location } from "../reference/schemas";
import type { JobFactsRow, JobRulesRow } from "./repository";
import type { JobStatus } from "./schemas";

// The jobs side of DESIGN 19: a job row (stored, merged or a list item) judged by the posting
// rules, and the refusal of a write that would publish a broken posting under `enforce`.

function factsOf(row: JobFactsRow): PostingFacts {
  const provinces = (JSON.parse(row.locations ?? "[]") as Location[]).flatMap((location) => provinceCodeOf(location) ?? []);
  const salary =
    row.salaryAmount === null || row.salaryTypeId === null
      ? null
      : { amount: row.salaryAmount, maxAmount: row.salaryMaxAmount, typeId: row.salaryTypeId };
  return {
    publishDate: row.publishDate,
    provinces,
    salary,
    aiUsedInSelection: row.aiUsedInSelection === null ? null : Boolean(row.aiUsedInSelection),
    existingVacancy: row.existingVacancy === null ? null : Boolean(row.existingVacancy),
    hasFrench: "hasFrench" in row ? Boolean(row.hasFrench) : row.translations !== null,
    canadianExperienceIn: canadianExperienceFields(row.canadianExperience),
  };
}

/** Every rule of the job's jurisdictions, with its outcome for this job and its employer. */
export function checkJobRules(row: JobRulesRow): PostingRuleOutcome[] {
  return checkPostingRules(factsOf(row), {
    ontarioEmployees: row.employerOntarioEmployees,
    federallyRegulated: Boolean(row.employerFederallyRegulated),
  });
}

/**
 * A job not stored yet, whose owner's settings were not read: the kinds of employer that would
 * break a rule by publishing it. The write is refused in SQL if its owner is of one of them
 * and enforces (src/jobs/repository/statements.ts), in the same atomic step.
 */
export function bandsRefusing(status: JobStatus, row: () => JobFactsRow): EmployerBand[] {
  return status === "active" ? bandsBreaking(factsOf(row())) : [];
}

/** A job answer's `postingRules`. */
export function postingRulesOf(row: JobRulesRow) {
  return checkJobRules(row).map(({ rule, jurisdiction, status, message, source }) => ({ rule, jurisdiction, status, message, source }));
}

/** DESIGN 19a: 422 `/problems/posting-rules`, one entry per broken rule. */
export class PostingRulesError extends ProblemError {
  constructor(broken: PostingRuleOutcome[]) {
    super(
      422,
      "posting-rules",
      "The posting breaks a posting rule.",
      "Your posting rules are set to enforce, and this job would be published breaking the rules listed in errors; nothing was stored. Fix them, save it as a draft, or set postingRules to warn (PUT /api/v1.1/employer).",
      { errors: broken.map(({ field, rule, law, message }) => ({ field: field ?? "", rule, law, message })) },
    );
  }
}

/**
 * Under `enforce`, a write that leaves the job active with a broken rule is refused; drafts and
 * archived jobs never are (DESIGN 19a). `row` is the job as it would be stored.
 */
export function enforcePostingRules(mode: "warn" | "enforce", status: JobStatus, row: () => JobRulesRow): void {
  if (mode !== "enforce" || status !== "active") return;
  const broken = brokenRules(checkJobRules(row()));
  if (broken.length) throw new PostingRulesError(broken);
}
