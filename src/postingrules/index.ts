// The posting rules' public functions (DESIGN 19): pure, used by jobs, board and pages alike.
export { bandsBreaking, brokenRules, checkPostingRules, EMPLOYER_BANDS, type EmployerBand, type PostingRuleOutcome } from "./check";
export {
  canadianExperienceFields,
  canadianExperienceMask,
  type CanadianExperienceField,
  type PostingEmployer,
  type PostingFacts,
} from "./facts";
export { yearly } from "./pay";
export { POSTING_RULES } from "./rules";
export { mentionsCanadianExperience } from "./wording";
