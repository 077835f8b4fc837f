// The posting rules' public functions (DESIGN 19): pure, used by jobs, board and pages alike.
export { bandsBreaking, brokenRules, checkPostingRules, EMPLOYER_BANDS, type EmployerBand, type PostingRuleOutcome, type PostingRuleStatus } from "./check";
export {
  canadianExperienceFields,
  canadianExperienceMask,
  CANADIAN_EXPERIENCE_FIELDS,
  type CanadianExperienceField,
  type PostingEmployer,
  type PostingFacts,
} from "./facts";
export { yearly } from "./pay";
export { ONTARIO_MAX_RANGE_WIDTH, ONTARIO_PAY_EXEMPT_ABOVE, POSTING_RULES, type PostingRule } from "./rules";
export { mentionsCanadianExperience } from "./wording";
