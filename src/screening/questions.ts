import * as z from "../http/zod";
import { int32 } from "../http/limits";
import { asksForPayHistory } from "./pay-history";

// DESIGN 20: screening questions on a job. Pure: the schema that validates, documents and types
// a question, and the stored form every reader (jobs, applications, board, pages) shares.

export const QUESTION_TYPES = ["yesNo", "singleChoice", "multiChoice", "text", "number"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const MAX_QUESTIONS = 20;
const DEFAULT_MAX_LENGTH = 1_000;
const isChoice = (type: QuestionType) => type === "singleChoice" || type === "multiChoice";
const chars = (text: string) => [...text].length;

/** A question as stored and answered: every member present, null where its type has none. */
export interface Question {
  key: string;
  text: string;
  type: QuestionType;
  required: boolean;
  options: string[] | null;
  maxLength: number | null;
  min: number | null;
  max: number | null;
  /** yesNo: the disqualifying answer; choice types: the disqualifying options. */
  knockout: boolean | string[] | null;
}

const finite = z.number().refine(Number.isFinite, "must be a finite number.");

export const QuestionInputSchema = z
  .object({
    key: z
      .string()
      .regex(/^[a-z0-9_-]{1,40}$/, "key must be 1 to 40 characters of a-z, 0-9, _ and -.")
      .openapi({ minLength: 1, maxLength: 40, pattern: "^[a-z0-9_-]{1,40}$", example: "work_permit" }),
    text: z
      .string()
      .refine((text) => text.trim() !== "" && chars(text) <= 500, "text must be 1 to 500 characters.")
      .refine((text) => !asksForPayHistory(text), {
        message:
          "text asks for the applicant's current or past pay, which BC's Pay Transparency Act (s. 3) and PEI's Employment Standards Act (s. 5.8) forbid; you may ask for expected pay.",
      })
      .openapi({ minLength: 1, maxLength: 500, example: "Are you legally entitled to work in Canada?" }),
    type: z.enum(QUESTION_TYPES).openapi({ example: "yesNo" }),
    required: z.boolean().optional().openapi({ description: "Default false." }),
    options: z
      .array(z.string().refine((option) => option.trim() !== "" && chars(option) <= 200, "An option must be 1 to 200 characters.").openapi({ maxLength: 200 }))
      .min(2)
      .max(20)
      .optional()
      .openapi({ description: "Choice types only: 2 to 20 distinct options of 1 to 200 characters." }),
    maxLength: int32(1, 5_000).optional().openapi({ description: "text only: 1 to 5 000 (default 1 000)." }),
    min: finite.optional().openapi({ type: "number", description: "number only." }),
    max: finite.optional().openapi({ type: "number", description: "number only; at least min." }),
    knockout: z
      .union([z.boolean(), z.array(z.string().max(200)).min(1).max(20)])
      .optional()
      .openapi({ description: "yesNo: the answer that screens the applicant out; choice types: the options that do. Not shown on the board." }),
  })
  .superRefine((question, ctx) => {
    const wrong = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const { type } = question;
    if (isChoice(type)) {
      if (!question.options) wrong("options", `options is required for ${type} (2 to 20 options).`);
      else if (new Set(question.options).size !== question.options.length) wrong("options", "options must be distinct.");
    } else if (question.options !== undefined) wrong("options", `options is only for singleChoice and multiChoice, not ${type}.`);
    if (question.maxLength !== undefined && type !== "text") wrong("maxLength", `maxLength is only for text, not ${type}.`);
    for (const bound of ["min", "max"] as const) {
      if (question[bound] !== undefined && type !== "number") wrong(bound, `${bound} is only for number, not ${type}.`);
    }
    if (question.min !== undefined && question.max !== undefined && question.max < question.min) wrong("max", "max must be at least min.");
    const knockout = question.knockout;
    if (knockout !== undefined) {
      if (type === "yesNo" && typeof knockout !== "boolean") wrong("knockout", "knockout of a yesNo question is the answer that screens out: true or false.");
      else if (isChoice(type)) {
        if (!Array.isArray(knockout)) wrong("knockout", "knockout of a choice question is the list of options that screen out.");
        else if (question.options && knockout.some((option) => !question.options!.includes(option))) wrong("knockout", "knockout must list only the question's options.");
      } else if (type === "text" || type === "number") wrong("knockout", `knockout is only for yesNo and choice questions, not ${type}.`);
    }
  })
  .openapi("QuestionInput");

export type QuestionInput = z.infer<typeof QuestionInputSchema>;

/** At most 20, with keys unique in the job; replaced as a whole, like lists. */
export const QuestionsInputSchema = z
  .array(QuestionInputSchema)
  .max(MAX_QUESTIONS)
  .superRefine((questions, ctx) => {
    const seen = new Set<string>();
    questions.forEach((question, i) => {
      if (seen.has(question.key)) ctx.addIssue({ code: "custom", path: [i, "key"], message: `key "${question.key}" is used by an earlier question; keys are unique in a job.` });
      seen.add(question.key);
    });
  })
  .openapi({ description: "Screening questions (DESIGN 20): at most 20, replaced as a whole; `null` or `[]` removes them." });

/** The stored form: defaults applied, members of other types null. */
export function normalizeQuestion(input: QuestionInput): Question {
  return {
    key: input.key,
    text: input.text,
    type: input.type,
    required: input.required ?? false,
    options: isChoice(input.type) ? input.options! : null,
    maxLength: input.type === "text" ? (input.maxLength ?? DEFAULT_MAX_LENGTH) : null,
    min: input.type === "number" ? (input.min ?? null) : null,
    max: input.type === "number" ? (input.max ?? null) : null,
    knockout: input.knockout ?? null,
  };
}

const QUESTION_EXAMPLE = {
  key: "permit",
  text: "Are you legally entitled to work in Canada?",
  type: "yesNo" as const,
  required: true,
  options: null,
  maxLength: null,
  min: null,
  max: null,
};

const QuestionOutputShape = {
  key: z.string().max(40),
  text: z.string().max(500),
  type: z.enum(QUESTION_TYPES),
  required: z.boolean(),
  options: z.array(z.string().max(200)).max(20).nullable(),
  maxLength: int32(1, 5_000).nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
};

export const QuestionSchema = z
  .object({ ...QuestionOutputShape, knockout: z.union([z.boolean(), z.array(z.string().max(200)).max(20)]).nullable() })
  .openapi("Question", { example: { ...QUESTION_EXAMPLE, knockout: false } });

/** What job seekers see: no knockout. */
export const PublicQuestionSchema = z.object(QuestionOutputShape).openapi("PublicQuestion", { example: QUESTION_EXAMPLE });

export const withoutKnockout = ({ knockout: _knockout, ...question }: Question) => question;
