// Screening questions and answers (DESIGN 20): pure, used by jobs, applications, the board and pages.
export { checkAnswers, matchesKnockout, type Answer } from "./answers";
export { asksForPayHistory } from "./pay-history";
export {
  normalizeQuestion,
  PublicQuestionSchema,
  QuestionSchema,
  QuestionsInputSchema,
  withoutKnockout,
  type Question,
} from "./questions";
