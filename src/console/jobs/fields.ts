import type { FieldError } from "../../http/problem";
import { locationField, questionField, QUESTION_MEMBERS, type JobForm, type QuestionMember } from "./form";

// DESIGN 25a: where the API's answers go on the form — each error and each posting rule beside
// the field it concerns (the API names members by their paths: `salary.amount`,
// `locations[1].description`, `translations.fr.title`), the rest in a list at the top. Pure.

/** Members whose field has the member's own name. */
const SAME_NAME = new Set([
  "title",
  "referenceId",
  "status",
  "closeDate",
  "description",
  "applicationEmail",
  "applicationUrl",
  "confidential",
  "autoRefresh",
  "aiUsedInSelection",
  "existingVacancy",
]);

/** A member (or a path inside it) → the id of its control, or of its group's fieldset. */
const BY_PATH: [RegExp, string | ((match: RegExpExecArray) => string)][] = [
  [/^locations$/, "locations"],
  [/^locations\[(\d+)\](\.description)?$/, (match) => locationField(Number(match[1]))],
  [/^categories(\[\d+\](\.id)?)?$/, "categories"],
  [/^positionType(\.id)?$/, "positionType"],
  [/^salary$/, "salary"],
  [/^salary\.amount$/, "salaryAmount"],
  [/^salary\.maxAmount$/, "salaryMaxAmount"],
  [/^salary\.type(\.id)?$/, "salaryType"],
  [/^salary\.plusCommission$/, "plusCommission"],
  [/^translations\.fr\.title$/, "frTitle"],
  [/^translations\.fr\.description$/, "frDescription"],
  [/^translations(\.\w+)?$/, "french"],
  [/^applicantRoutingType(\.id)?$/, "applicantRoutingType"],
  [/^questions$/, "questions"],
];

const QUESTION_PATH = /^questions\[(\d+)\](?:\.(\w+))?/;

/**
 * The control (or group) an API path is shown beside; undefined when the form has none (the
 * summary lists it). A question's knockout is beside the field it was typed in.
 */
export function fieldOfPath(path: string, form: Pick<JobForm, "questions">): string | undefined {
  if (SAME_NAME.has(path)) return path;
  for (const [pattern, field] of BY_PATH) {
    const match = pattern.exec(path);
    if (match) return typeof field === "string" ? field : field(match);
  }
  const question = QUESTION_PATH.exec(path);
  if (!question) return undefined;
  const index = Number(question[1]);
  const member = question[2];
  if (member === "knockout") return questionField(index, form.questions[index]?.knockoutAnswer ? "knockoutAnswer" : "knockout");
  return QUESTION_MEMBERS.includes(member as QuestionMember) ? questionField(index, member as QuestionMember) : questionField(index);
}

/** Things said about fields, sorted: beside their field, or in the list at the top. */
export interface Placed<T> {
  byField: Map<string, T[]>;
  elsewhere: T[];
}

/** Each item beside the field its path names. */
export function place<T>(items: T[], pathOf: (item: T) => string | undefined, form: Pick<JobForm, "questions">): Placed<T> {
  const byField = new Map<string, T[]>();
  const elsewhere: T[] = [];
  for (const item of items) {
    const path = pathOf(item);
    const field = path === undefined ? undefined : fieldOfPath(path, form);
    if (field === undefined) elsewhere.push(item);
    else byField.set(field, [...(byField.get(field) ?? []), item]);
  }
  return { byField, elsewhere };
}

/**
 * The service's refusals (`errors: [{ field, message }]`), placed; none on a field the form could
 * not read (`unread`: it was left out of the body, so the service only misses it).
 */
export function placeErrors(errors: FieldError[], form: Pick<JobForm, "questions">, unread: string[] = []): Placed<FieldError> {
  const placed = place(errors, (error) => error.field, form);
  for (const field of unread) placed.byField.delete(field);
  return placed;
}
