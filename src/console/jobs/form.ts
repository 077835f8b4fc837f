import type { Job } from "../../jobs/schemas";

// DESIGN 25, 25a: the job form as a person fills it in, and the JSON body the jobs service takes
// from it — the same body an integration would send to the API, so every rule stays the API's.
// Pure. The form only says what it cannot put into JSON (a number that is no number); whether a
// value is allowed is the service's answer.

/** One screening question as its row of the form (DESIGN 20): lists one item a line. */
export interface QuestionRow {
  key: string;
  text: string;
  type: string;
  required: boolean;
  /** Choice questions: one option a line. */
  options: string;
  /** yesNo: the answer that screens out (`true` | `false`), or empty. */
  knockoutAnswer: string;
  /** Choice questions: the options that screen out, one a line. */
  knockout: string;
  maxLength: string;
  min: string;
  max: string;
}

/** Every field of the form, as typed (DESIGN 25a names them). */
export interface JobForm {
  title: string;
  referenceId: string;
  status: string;
  /** YYYY-MM-DD. */
  closeDate: string;
  /** The close date-time of the version opened, so an untouched day keeps its time. */
  closesAt: string;
  /** The places typed, empty ones left out, in order. */
  locations: string[];
  categories: string[];
  positionType: string;
  salaryAmount: string;
  salaryMaxAmount: string;
  salaryType: string;
  plusCommission: boolean;
  description: string;
  frTitle: string;
  frDescription: string;
  applicantRoutingType: string;
  applicationEmail: string;
  applicationUrl: string;
  confidential: boolean;
  autoRefresh: boolean;
  /** `true` | `false`, or empty: not said. */
  aiUsedInSelection: string;
  existingVacancy: string;
  /** The questions typed, empty rows left out, in order. */
  questions: QuestionRow[];
  /** The ETag of the version opened; empty on create. */
  ifMatch: string;
}

/** A field the form could not put into JSON, by its control's id, and why. */
export interface FormProblem {
  field: string;
  problem: "number" | "choice";
}

/** A form as `parseBody({ all: true })` gives it (urlencoded or multipart). */
export type PostedForm = Record<string, string | File | (string | File)[]>;

export const QUESTION_MEMBERS = ["key", "text", "type", "required", "options", "knockoutAnswer", "knockout", "maxLength", "min", "max"] as const;
export type QuestionMember = (typeof QUESTION_MEMBERS)[number];

/** The ids of the controls (the form's names of repeated fields are not ids). */
export const locationField = (index: number) => `location-${index + 1}`;
export const questionField = (index: number, member?: QuestionMember) => `question-${index + 1}${member ? `-${member}` : ""}`;
/** A question row's field names: the API's paths (`questions[0].key`). */
export const questionName = (index: number, member: QuestionMember) => `questions[${index}].${member}`;

const QUESTION_NAME = /^questions\[(\d{1,2})\]\.(\w+)$/;

const valuesOf = (posted: PostedForm, name: string): string[] => {
  const value = posted[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((item): item is string => typeof item === "string");
};
const textOf = (posted: PostedForm, name: string) => valuesOf(posted, name)[0] ?? "";
/** A one-line field: surrounding spaces are no part of what was meant. */
const lineOf = (posted: PostedForm, name: string) => textOf(posted, name).trim();
/** A checkbox: present means true. */
const isChecked = (posted: PostedForm, name: string) => valuesOf(posted, name).length > 0;

const isEmptyRow = (row: QuestionRow) => !row.required && QUESTION_MEMBERS.every((member) => member === "type" || member === "required" || row[member] === "");

/** The form as posted. */
export function readForm(posted: PostedForm): JobForm {
  const rows = new Set<number>();
  for (const name of Object.keys(posted)) {
    const match = QUESTION_NAME.exec(name);
    if (match) rows.add(Number(match[1]));
  }
  const questions = [...rows]
    .sort((a, b) => a - b)
    .map((index): QuestionRow => {
      const line = (member: QuestionMember) => lineOf(posted, questionName(index, member));
      return {
        key: line("key"),
        text: line("text"),
        type: line("type"),
        required: isChecked(posted, questionName(index, "required")),
        options: line("options"),
        knockoutAnswer: line("knockoutAnswer"),
        knockout: line("knockout"),
        maxLength: line("maxLength"),
        min: line("min"),
        max: line("max"),
      };
    })
    .filter((row) => !isEmptyRow(row));
  return {
    title: lineOf(posted, "title"),
    referenceId: lineOf(posted, "referenceId"),
    status: lineOf(posted, "status"),
    closeDate: lineOf(posted, "closeDate"),
    closesAt: lineOf(posted, "closesAt"),
    locations: valuesOf(posted, "location").map((text) => text.trim()).filter(Boolean),
    categories: valuesOf(posted, "category").map((text) => text.trim()),
    positionType: lineOf(posted, "positionType"),
    salaryAmount: lineOf(posted, "salaryAmount"),
    salaryMaxAmount: lineOf(posted, "salaryMaxAmount"),
    salaryType: lineOf(posted, "salaryType"),
    plusCommission: isChecked(posted, "plusCommission"),
    description: textOf(posted, "description"),
    frTitle: lineOf(posted, "frTitle"),
    frDescription: textOf(posted, "frDescription"),
    applicantRoutingType: lineOf(posted, "applicantRoutingType"),
    applicationEmail: lineOf(posted, "applicationEmail"),
    applicationUrl: lineOf(posted, "applicationUrl"),
    confidential: isChecked(posted, "confidential"),
    autoRefresh: isChecked(posted, "autoRefresh"),
    aiUsedInSelection: lineOf(posted, "aiUsedInSelection"),
    existingVacancy: lineOf(posted, "existingVacancy"),
    questions,
    ifMatch: lineOf(posted, "ifMatch"),
  };
}

/** An amount as the API writes it (a JSON number literal with four decimals), as a person reads it. */
const amountText = (amount: number) => String(Number(JSON.stringify(amount)));
const optionalText = (value: number | null) => (value === null ? "" : String(value));
const booleanText = (value: boolean | null) => (value === null ? "" : String(value));

/** A saved job (or one as it would be saved) in the form, opened at version `etag`. */
export function formOfJob(job: Job, etag: string): JobForm {
  return {
    title: job.title ?? "",
    referenceId: job.referenceId ?? "",
    status: job.status,
    closeDate: job.closeDate.slice(0, 10),
    closesAt: job.closeDate,
    locations: job.locations.map((location) => location.description),
    categories: job.categories.map((category) => String(category.id)),
    positionType: job.positionType ? String(job.positionType.id) : "",
    salaryAmount: job.salary ? amountText(job.salary.amount) : "",
    salaryMaxAmount: job.salary?.maxAmount != null ? amountText(job.salary.maxAmount) : "",
    salaryType: job.salary ? String(job.salary.type.id) : "",
    plusCommission: job.salary?.plusCommission ?? false,
    description: job.description ?? "",
    frTitle: job.translations?.fr.title ?? "",
    frDescription: job.translations?.fr.description ?? "",
    applicantRoutingType: job.applicantRoutingType ? String(job.applicantRoutingType.id) : "",
    applicationEmail: job.applicationEmail ?? "",
    applicationUrl: job.applicationUrl ?? "",
    confidential: job.confidential,
    autoRefresh: job.autoRefresh,
    aiUsedInSelection: booleanText(job.aiUsedInSelection),
    existingVacancy: booleanText(job.existingVacancy),
    questions: job.questions.map((question) => ({
      key: question.key,
      text: question.text,
      type: question.type,
      required: question.required,
      options: (question.options ?? []).join("\n"),
      knockoutAnswer: typeof question.knockout === "boolean" ? String(question.knockout) : "",
      knockout: Array.isArray(question.knockout) ? question.knockout.join("\n") : "",
      maxLength: optionalText(question.maxLength),
      min: optionalText(question.min),
      max: optionalText(question.max),
    })),
    ifMatch: etag,
  };
}

/**
 * A number as people write it: spaces between thousands (`65 000`), a decimal point or comma
 * (`27.50`, `27,50`), or commas between thousands (`65,000`). Undefined: not a number.
 */
export function numberOf(text: string): number | undefined {
  let compact = text.replace(/[\s\u00a0\u202f]/g, "");
  compact = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(compact) ? compact.replaceAll(",", "") : compact.replace(",", ".");
  return /^-?\d+(\.\d+)?$/.test(compact) ? Number(compact) : undefined;
}

const ID = /^[0-9]{1,10}$/;
const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The JSON body of the form (DESIGN 25a): on `create` an empty field is a member left out, on
 * `save` it clears the member (null; false for a checkbox), so what the form shows is what is
 * saved. A field the form cannot put into JSON is left out and named in `problems`.
 */
export function bodyOf(form: JobForm, mode: "create" | "save"): { body: Record<string, unknown>; problems: FormProblem[] } {
  const body: Record<string, unknown> = {};
  const problems: FormProblem[] = [];
  const saving = mode === "save";
  const refuse = (field: string, problem: FormProblem["problem"]) => void problems.push({ field, problem });
  /** A member, or on save its clearing when empty. */
  const put = (member: string, value: unknown) => {
    if (value !== undefined) body[member] = value;
    else if (saving) body[member] = null;
  };
  const flag = (member: string, on: boolean) => {
    if (on || saving) body[member] = on;
  };
  /** A reference (`{ id }`) chosen in a list; undefined when none, null when it is no id. */
  const reference = (field: string, text: string) => {
    if (text === "") return undefined;
    if (ID.test(text)) return { id: Number(text) };
    refuse(field, "choice");
    return null;
  };
  const amount = (field: string, text: string) => {
    if (text === "") return undefined;
    const value = numberOf(text);
    if (value === undefined) refuse(field, "number");
    return value ?? null;
  };
  const yesNo = (field: string, text: string) => {
    if (text === "") return undefined;
    if (text === "true" || text === "false") return text === "true";
    refuse(field, "choice");
    return null;
  };
  /** Put unless the field could not be read (null): then the member is left as it is. */
  const putRead = (member: string, value: unknown) => {
    if (value !== null) put(member, value);
  };

  put("title", form.title || undefined);
  put("referenceId", form.referenceId || undefined);
  if (form.status) body.status = form.status;
  // The day opened, untouched, keeps its time (a default close date is not at the day's end).
  put("closeDate", form.closeDate ? (form.closesAt.startsWith(`${form.closeDate}T`) ? form.closesAt : form.closeDate) : undefined);
  flag("confidential", form.confidential);
  flag("autoRefresh", form.autoRefresh);
  put("locations", form.locations.length ? form.locations.map((description) => ({ description })) : undefined);

  const categories = form.categories.filter((id) => ID.test(id)).map((id) => ({ id: Number(id) }));
  if (categories.length < form.categories.length) refuse("categories", "choice");
  put("categories", categories.length ? categories : undefined);
  putRead("positionType", reference("positionType", form.positionType));

  const salaryGiven = form.salaryAmount || form.salaryMaxAmount || form.salaryType || form.plusCommission;
  if (!salaryGiven) put("salary", undefined);
  else {
    const salary: Record<string, unknown> = {};
    const member = (name: string, value: unknown) => {
      if (value === null) return;
      if (value !== undefined) salary[name] = value;
      else if (saving) salary[name] = null;
    };
    member("amount", amount("salaryAmount", form.salaryAmount));
    member("maxAmount", amount("salaryMaxAmount", form.salaryMaxAmount));
    member("type", reference("salaryType", form.salaryType));
    if (form.plusCommission || saving) salary.plusCommission = form.plusCommission;
    body.salary = salary;
  }

  put("description", form.description || undefined);
  if (!form.frTitle && !form.frDescription) put("translations", undefined);
  else {
    const fr = saving
      ? { title: form.frTitle || null, description: form.frDescription || null }
      : { ...(form.frTitle && { title: form.frTitle }), ...(form.frDescription && { description: form.frDescription }) };
    body.translations = { fr };
  }
  putRead("applicantRoutingType", reference("applicantRoutingType", form.applicantRoutingType));
  put("applicationEmail", form.applicationEmail || undefined);
  put("applicationUrl", form.applicationUrl || undefined);
  putRead("aiUsedInSelection", yesNo("aiUsedInSelection", form.aiUsedInSelection));
  putRead("existingVacancy", yesNo("existingVacancy", form.existingVacancy));
  put("questions", form.questions.length ? form.questions.map((row, index) => questionOf(row, index, refuse)) : undefined);
  return { body, problems };
}

/** A question row as the API takes it: members of its type only when typed (DESIGN 20). */
function questionOf(row: QuestionRow, index: number, refuse: (field: string, problem: FormProblem["problem"]) => void): Record<string, unknown> {
  const question: Record<string, unknown> = { key: row.key, text: row.text, type: row.type, required: row.required };
  const options = linesOf(row.options);
  if (options.length) question.options = options;
  for (const member of ["maxLength", "min", "max"] as const) {
    if (row[member] === "") continue;
    const value = numberOf(row[member]);
    if (value === undefined) refuse(questionField(index, member), "number");
    else question[member] = value;
  }
  if (row.knockoutAnswer === "true" || row.knockoutAnswer === "false") question.knockout = row.knockoutAnswer === "true";
  else if (row.knockoutAnswer) refuse(questionField(index, "knockoutAnswer"), "choice");
  else if (linesOf(row.knockout).length) question.knockout = linesOf(row.knockout);
  return question;
}

/** The members a conflict page compares (DESIGN 25: both versions shown). */
export const COMPARED = [
  "title",
  "referenceId",
  "status",
  "closeDate",
  "locations",
  "categories",
  "positionType",
  "salaryAmount",
  "salaryMaxAmount",
  "salaryType",
  "plusCommission",
  "description",
  "frTitle",
  "frDescription",
  "applicantRoutingType",
  "applicationEmail",
  "applicationUrl",
  "confidential",
  "autoRefresh",
  "aiUsedInSelection",
  "existingVacancy",
  "questions",
] as const satisfies readonly (keyof JobForm)[];
export type ComparedMember = (typeof COMPARED)[number];

/** The members where what was typed and what is saved now differ. */
export function differences(typed: JobForm, saved: JobForm): ComparedMember[] {
  return COMPARED.filter((member) => JSON.stringify(typed[member]) !== JSON.stringify(saved[member]));
}
