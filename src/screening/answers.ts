import type { FieldError } from "../http/problem";
import type { Question } from "./questions";

// DESIGN 20: an application's answers, checked against the job's questions. Pure.

export type Answer = boolean | number | string | string[];

export interface CheckedAnswers {
  /** The answers as stored: only answered questions, each in its type. */
  answers: Record<string, Answer>;
  /** An answer matched a question's knockout. */
  screenedOut: boolean;
  errors: FieldError[];
}

/** More members than any job has questions is refused as one error, not one per member. */
const MAX_MEMBERS = 100;
const chars = (text: string) => [...text].length;

/**
 * A multipart value is text: yesNo is `true`/`false`, a number a JSON number literal (20a); a
 * multiChoice may be repeated (a list). JSON values are taken as they are.
 */
function fromForm(question: Question, value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (question.type === "yesNo") return value === "true" ? true : value === "false" ? false : value;
  if (question.type === "number") return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value) ? Number(value) : value;
  if (question.type === "multiChoice") return [value];
  return value;
}

/** Not answered: absent, null, an empty text or an empty selection. */
const unanswered = (value: unknown) => value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/** The answer is one the question disqualifies (its `knockout`: a yesNo answer, or any of the choice options). */
export function matchesKnockout(question: Question, answer: Answer): boolean {
  const knockout = question.knockout;
  if (knockout === null) return false;
  if (typeof knockout === "boolean") return answer === knockout;
  return [answer].flat().some((option) => typeof option === "string" && knockout.includes(option));
}

function checkOne(question: Question, value: unknown): { answer?: Answer; message?: string } {
  const { key } = question;
  switch (question.type) {
    case "yesNo":
      if (typeof value !== "boolean") return { message: `answers.${key} must be true or false.` };
      return { answer: value };
    case "singleChoice":
      if (typeof value !== "string" || !question.options!.includes(value)) return { message: `answers.${key} must be one of the question's options.` };
      return { answer: value };
    case "multiChoice": {
      if (!Array.isArray(value) || value.some((option) => typeof option !== "string" || !question.options!.includes(option))) {
        return { message: `answers.${key} must be a list of the question's options.` };
      }
      if (new Set(value).size !== value.length) return { message: `answers.${key} lists an option more than once.` };
      return { answer: value as string[] };
    }
    case "text":
      if (typeof value !== "string") return { message: `answers.${key} must be text.` };
      if (chars(value) > question.maxLength!) return { message: `answers.${key} must be at most ${question.maxLength} characters.` };
      if (/[\p{Cc}]/u.test(value.replace(/[\t\n\r]/g, ""))) return { message: `answers.${key} must not contain control characters.` };
      return { answer: value };
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return { message: `answers.${key} must be a number.` };
      if (question.min !== null && value < question.min) return { message: `answers.${key} must be at least ${question.min}.` };
      if (question.max !== null && value > question.max) return { message: `answers.${key} must be at most ${question.max}.` };
      return { answer: value };
  }
}

/** Every answer against its question; unknown keys and missing required answers are errors too. */
export function checkAnswers(questions: readonly Question[], raw: unknown, multipart: boolean): CheckedAnswers {
  const result: CheckedAnswers = { answers: {}, screenedOut: false, errors: [] };
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    result.errors.push({ field: "answers", message: "answers must be an object: { \"question key\": answer }." });
    return result;
  }
  const given = raw as Record<string, unknown>;
  const keys = Object.keys(given);
  if (keys.length > MAX_MEMBERS) {
    result.errors.push({ field: "answers", message: `answers has ${keys.length} members; the job has ${questions.length} questions.` });
    return result;
  }
  const byKey = new Map(questions.map((question) => [question.key, question]));
  for (const key of keys) {
    if (!byKey.has(key)) result.errors.push({ field: `answers.${key}`, message: `This job has no question "${key}".` });
  }
  for (const question of questions) {
    const value = multipart ? fromForm(question, given[question.key]) : given[question.key];
    if (unanswered(value)) {
      if (question.required) result.errors.push({ field: `answers.${question.key}`, message: `answers.${question.key} is required: "${question.text}"` });
      continue;
    }
    const checked = checkOne(question, value);
    if (checked.message) result.errors.push({ field: `answers.${question.key}`, message: checked.message });
    else {
      result.answers[question.key] = checked.answer!;
      if (matchesKnockout(question, checked.answer!)) result.screenedOut = true;
    }
  }
  return result;
}
