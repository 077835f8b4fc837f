// Screening questions and answers (DESIGN 20): pure, used by jobs, applications, the board and pages.
export { checkAnswers, type Answer, type CheckedAnswers } from "./answers";
export { asksForPayHistory } from "./pay-history";
export {
  MAX_QUESTIONS,
  normalizeQuestion,
  PublicQuestionSchema,
  QUESTION_TYPES,
  QuestionInputSchema,
  QuestionSchema,
  QuestionsInputSchema,
  withoutKnockout,
  type Question,
  type QuestionInput,
  type QuestionType,
} from "./questions";
