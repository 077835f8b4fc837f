import * as z from "../http/zod";
import { codePoints, int32, MAX_BODY_BYTES, searchTermSchema } from "../http/limits";
import { PagingQuerySchema, PagingSchema } from "../http/schemas";
import {
  ApplicantRoutingTypeSchema,
  CategorySchema,
  LocationSchema,
  PositionTypeSchema,
  SalaryTypeSchema,
} from "../reference/schemas";
import { MAX_CLEANED_BYTES } from "../description/clean";
import { MAX_OPEN_ELEMENTS, MAX_TAGS } from "../description/markup";
import { CLOSE_DATE_FORM, parseCloseDate } from "./dates";
import { MAX_AMOUNT, toTenThousandths } from "./money";
import { QuestionSchema, QuestionsInputSchema } from "../screening";
import { OPERATOR_REASONS, type OperatorReason } from "../events/types";

export const JOB_STATUSES = ["active", "archived", "draft"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Spec 4.2 and 8: the routing addresses' lengths, in characters (code points), whatever the routing type. */
export const MAX_EMAIL = 50;
export const MAX_URL = 200;


/** A string of at most `max` characters (code points); `""` means none (null). */
const optionalText = (max: number | undefined, field: string) =>
  z
    .string()
    .refine((s) => max === undefined || codePoints(s) <= max, { message: `${field} must be at most ${max} characters.` })
    .transform((s) => (s === "" ? null : s))
    .nullable()
    .optional()
    // JSON Schema's maxLength counts code points, as the rule does.
    .openapi({ maxLength: max });

/** Requests name reference data by id; the response's other members (name, unit) are ignored. */
const RefInputSchema = z.object({ id: int32() });

// No `type` override in the metadata: one would replace what the validator documents (its
// bounds, and `null` where the member admits it) with a bare `number` (issue 34).
const AmountInputSchema = z
  .number()
  .min(0)
  .max(MAX_AMOUNT)
  .transform(toTenThousandths)
  .openapi({
    description: `At least 0, at most ${MAX_AMOUNT.toLocaleString("en-US")}; up to four decimals are kept (rounded half to even beyond).`,
    example: 65000,
  });

const SalaryInputSchema = z
  .object({
    amount: AmountInputSchema.nullable().optional(),
    maxAmount: AmountInputSchema.nullable().optional().openapi({ description: "Optional upper bound, at least `amount`; `null` removes it." }),
    type: RefInputSchema.nullable().optional().openapi({ description: "Salary type; required with amount." }),
    plusCommission: z.boolean().nullable().optional(),
  })
  .openapi("SalaryInput");

const CLOSE_DATE_MESSAGE = "closeDate must be a real date (2026-12-31) or an ISO 8601 date-time with Z or an offset (2026-12-31T17:00:00Z).";

// The pattern is the parser's own (documented as `pattern`); the transform adds what a pattern
// cannot say (2026-02-30 is no date). No `type` override: it would hide the `null` the member admits.
const CloseDateInputSchema = z
  .string()
  .regex(CLOSE_DATE_FORM, CLOSE_DATE_MESSAGE)
  .transform((text, ctx) => {
    const seconds = parseCloseDate(text);
    if (seconds === undefined) {
      ctx.addIssue({ code: "custom", message: CLOSE_DATE_MESSAGE });
      return z.NEVER;
    }
    return seconds;
  })
  // The pattern admits at most 35 characters.
  .openapi({ maxLength: 40, example: "2026-12-31" });

const DESCRIPTION_RULES =
  "HTML, cleaned to the allow-list (strong b em i br p div ul ol li a) and stored as cleaned. " +
  `At most ${MAX_TAGS.toLocaleString("en-US")} tags (start and end tags, implied end tags and comments together) and ` +
  `${MAX_OPEN_ELEMENTS.toLocaleString("en-US")} elements open at once; the cleaned form, where text's \`&\`, \`<\` and \`>\` ` +
  `are written as \`&amp;\`, \`&lt;\` and \`&gt;\`, at most ${MAX_CLEANED_BYTES.toLocaleString("en-US")} bytes in UTF-8.`;

/** The languages a job may have a version in besides its own (DESIGN 19: French, for now). */
export const TRANSLATION_LANGUAGES = ["fr"] as const;

const TranslationInputSchema = z
  .object({
    title: optionalText(256, "translations.fr.title").openapi({ example: "Comptable principal" }),
    description: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: `${DESCRIPTION_RULES} Past any of these: 400 on \`translations.fr.description\`.`, maxLength: MAX_BODY_BYTES, example: "<p>Joignez-vous à notre équipe des <strong>finances</strong>.</p>" }),
  })
  .openapi("TranslationInput");

/** DESIGN 19a: only `fr` (another key: 400 naming it); merged member by member, like salary. */
const TranslationsInputSchema = z
  .object({ fr: TranslationInputSchema.nullable().optional() })
  .openapi("TranslationsInput", {
    description: "The job's French version, published with it (Quebec's Charter of the French language, ss. 41–42). `null` clears it.",
  });

/**
 * POST and PUT body (spec 4.2, DESIGN 4). Every member is optional here: what a job must
 * have is checked on the merged job (src/jobs/rules.ts). `null` clears a member (JSON Merge
 * Patch); read-only and unknown members are ignored; no type coercion.
 */
export const JobInputSchema = z
  .object({
    referenceId: optionalText(50, "referenceId").openapi({ example: "ACME-2026-117" }),
    title: optionalText(256, "title").openapi({ example: "Senior Accountant" }),
    closeDate: CloseDateInputSchema
      .nullable()
      .optional()
      .openapi({ description: "`null` means the default: 60 days after publishDate (as on create without one). Must be after publishDate." }),
    confidential: z.boolean().nullable().optional().openapi({ example: false }),
    autoRefresh: z.boolean().nullable().optional().openapi({ example: false }),
    status: z.enum(JOB_STATUSES).optional().openapi({ example: "active" }),
    locations: z
      .array(
        z.object({
          description: z
            .string()
            .refine((s) => codePoints(s) <= 300, { message: "A location description must be at most 300 characters." })
            .openapi({ maxLength: 300, example: "Vancouver, BC" }),
        }),
      )
      .max(10)
      .nullable()
      .optional()
      .openapi({ description: "1 to 3 places: `City` or `City, PC`." }),
    categories: z
      .array(RefInputSchema)
      .max(10)
      .nullable()
      .optional()
      .openapi({ description: "1 to 3 categories (an id repeated counts once).", example: [{ id: 1 }] }),
    positionType: RefInputSchema.nullable().optional().openapi({ example: { id: 1 } }),
    salary: SalaryInputSchema.nullable().optional(),
    description: z
      .string()
      .nullable()
      .optional()
      .openapi({
        description: `${DESCRIPTION_RULES} Past any of these: 400 on \`description\`.`,
        maxLength: MAX_BODY_BYTES,
        example: "<p>Join our <strong>finance</strong> team.</p>",
      }),
    applicantRoutingType: RefInputSchema.nullable().optional().openapi({ example: { id: 1 } }),
    // Issue 34: the spec's lengths hold whatever the routing type; the form (and being there)
    // is checked only for the address the routing type uses (src/jobs/rules.ts).
    applicationEmail: optionalText(MAX_EMAIL, "applicationEmail").openapi({
      description: `Used when applicantRoutingType.id is 1: required then, and a valid address. At most ${MAX_EMAIL} characters whatever the routing type; with another routing type it is ignored (not checked for its form) and returned as null.`,
      example: "jobs@acme.example",
    }),
    applicationUrl: optionalText(MAX_URL, "applicationUrl").openapi({
      description: `Used when applicantRoutingType.id is 2: required then, and an absolute address written with http:// or https://. At most ${MAX_URL} characters whatever the routing type; with another routing type it is ignored (not checked for its form) and returned as null.`,
      example: null,
    }),
    aiUsedInSelection: z
      .boolean()
      .nullable()
      .optional()
      .openapi({ description: "Whether artificial intelligence is used to screen, assess or select applicants (Ontario asks postings to say). `null`: not said.", example: false }),
    existingVacancy: z
      .boolean()
      .nullable()
      .optional()
      .openapi({ description: "Whether the posting is for an existing vacancy (Ontario asks postings to say). `null`: not said.", example: true }),
    translations: TranslationsInputSchema.nullable().optional(),
    questions: QuestionsInputSchema.nullable().optional(),
  })
  .openapi("JobInput");

export type JobInput = z.infer<typeof JobInputSchema>;

/** PUT without an id: the referenceId in the body names the job. */
export const JobByReferenceInputSchema = JobInputSchema.extend({
  referenceId: z
    .string()
    .min(1)
    .refine((s) => codePoints(s) <= 50, { message: "referenceId must be at most 50 characters." })
    .openapi({ maxLength: 50, example: "ACME-2026-117" }),
}).openapi("JobByReferenceInput");

export const ReferenceIdBodySchema = z
  .object({ referenceId: JobByReferenceInputSchema.shape.referenceId })
  .openapi("JobReference");

const EmployerSchema = z.object({ id: int32(), name: z.string().max(128) }).openapi("Employer", {
  example: { id: 7, name: "Acme Ltd." },
});

const AmountSchema = z.number().openapi({ description: "Exactly four decimals.", example: 65000.0 });

const SalarySchema = z
  .object({
    amount: AmountSchema,
    maxAmount: AmountSchema.nullable(),
    type: SalaryTypeSchema,
    plusCommission: z.boolean(),
  })
  .openapi("Salary");

const DateSchema = z.string().max(20).openapi({ format: "date-time", example: "2026-11-21T14:03:00Z" });

/** DESIGN 19: one rule of the job's jurisdictions and how the job stands with it. */
export const PostingRuleResultSchema = z
  .object({
    rule: z.string().max(40).openapi({ description: "Stable id: bc.pay, pe.pay, on.pay, on.ai, on.vacancy, on.canadianExperience, qc.french.", example: "on.pay" }),
    jurisdiction: z.string().length(2).openapi({ description: "The province's two-letter code.", example: "ON" }),
    status: z.enum(["met", "broken", "notApplicable"]).openapi({ example: "met" }),
    message: z.string().max(400).openapi({ example: "The posting gives a pay range at most 50 000 CAD a year wide." }),
    source: z.string().max(200).openapi({ format: "uri", example: "https://www.ontario.ca/laws/regulation/r24476" }),
  })
  .openapi("PostingRuleResult");

const PostingRulesSchema = z.array(PostingRuleResultSchema).max(20).openapi({
  description: "Every posting rule of the jurisdictions of the job's places (docs/posting-rules.md): help with compliance, not legal advice.",
});

const TranslationSchema = z
  .object({ title: z.string().max(256), description: z.string().max(MAX_CLEANED_BYTES) })
  .openapi("Translation", { example: { title: "Comptable principal", description: "<p>Joignez-vous à notre équipe des <strong>finances</strong>.</p>" } });

export const JobHeaderSchema = z
  .object({
    id: int32().openapi({ example: 1234 }),
    referenceId: z.string().max(50).nullable().openapi({ example: "ACME-2026-117" }),
    employer: EmployerSchema,
    title: z.string().max(256).nullable().openapi({ example: "Senior Accountant" }),
    publishDate: DateSchema,
    locations: z.array(LocationSchema).max(3),
    confidential: z.boolean(),
    status: z.enum(JOB_STATUSES),
    postingRules: PostingRulesSchema,
  })
  .openapi("JobHeader");

/** DESIGN 26a: why the board's operator may remove a job. */
export const MODERATION_REASONS = OPERATOR_REASONS;
export type ModerationReason = OperatorReason;

/** DESIGN 26a: a job the board's operator removed; the member is absent on every other job. */
export const ModerationSchema = z
  .object({
    status: z.enum(["removed"]),
    reason: z.enum(MODERATION_REASONS),
    at: DateSchema,
  })
  .openapi("Moderation", {
    description:
      "The board's operator removed the job (it is archived and off the board): it may be changed, but not published until the operator restores it. Absent on every other job.",
    example: { status: "removed", reason: "misleading", at: "2026-11-23T09:30:00Z" },
  });

export const JobSchema = JobHeaderSchema.extend({
  closeDate: DateSchema.openapi({ example: "2027-01-20T14:03:00Z" }),
  autoRefresh: z.boolean(),
  categories: z.array(CategorySchema).max(3),
  positionType: PositionTypeSchema.nullable(),
  salary: SalarySchema.nullable(),
  // Stored cleaned, at most MAX_CLEANED_BYTES in UTF-8 (DESIGN 6b), so at most as many characters.
  description: z.string().max(MAX_CLEANED_BYTES).nullable(),
  applicantRoutingType: ApplicantRoutingTypeSchema.nullable(),
  applicationEmail: z.string().max(MAX_EMAIL).nullable().openapi({ example: "jobs@acme.example" }),
  applicationUrl: z.string().max(MAX_URL).nullable().openapi({ example: null }),
  aiUsedInSelection: z.boolean().nullable().openapi({ example: false }),
  existingVacancy: z.boolean().nullable().openapi({ example: true }),
  translations: z.object({ fr: TranslationSchema }).nullable(),
  questions: z.array(QuestionSchema).max(20).openapi({ description: "Screening questions (DESIGN 20), with their knockout answers." }),
  moderation: ModerationSchema.optional(),
}).openapi("Job");

export type Job = z.infer<typeof JobSchema>;

/** DESIGN 11, `validateOnly=true`: the job as it would be stored; ids of what would be created are null. */
// Built from the shapes, not by .extend(): an extension of a named schema is documented as
// allOf with it, and `id` cannot be both an integer and null.
export const JobPreviewSchema = z
  .object({
    ...JobSchema.shape,
    id: int32().nullable().openapi({ example: null }),
    locations: z.array(z.object({ ...LocationSchema.shape, id: int32().nullable().openapi({ example: 21 }) })).max(3),
  })
  .openapi("JobPreview", {
    example: {
      id: null,
      referenceId: "ACME-2026-117",
      employer: { id: 7, name: "Acme Ltd." },
      title: "Senior Accountant",
      publishDate: "2026-11-21T14:03:00Z",
      locations: [{ id: null, name: "Smallville", description: "Smallville, SK", type: "City", latitude: null, longitude: null }],
      confidential: false,
      status: "active",
      closeDate: "2027-01-20T14:03:00Z",
      autoRefresh: false,
      categories: [{ id: 1, name: "Accounting" }],
      positionType: { id: 1, name: "Full Time" },
      salary: null,
      description: "<p>Join our <strong>finance</strong> team.</p>",
      applicantRoutingType: { id: 1, name: "Email" },
      applicationEmail: "jobs@acme.example",
      applicationUrl: null,
      aiUsedInSelection: null,
      existingVacancy: null,
      translations: null,
      questions: [],
      postingRules: [],
    },
  });

export type JobPreview = z.infer<typeof JobPreviewSchema>;
export type JobHeader = z.infer<typeof JobHeaderSchema>;

export const JobListSchema = z.object({ data: z.array(JobHeaderSchema).max(100), paging: PagingSchema }).openapi("JobList");

export const JobListQuerySchema = PagingQuerySchema.extend({
  q: searchTermSchema("account"),
  status: z.enum(JOB_STATUSES).optional().openapi({ param: { name: "status", in: "query" }, example: "active" }),
});

/** DESIGN 11: `validateOnly=true` checks everything and writes nothing. */
export const ValidateOnlyQuerySchema = z.object({
  validateOnly: z
    .enum(["true", "false"])
    .optional()
    .transform((value) => value === "true")
    .openapi({ param: { name: "validateOnly", in: "query" }, type: "string", enum: ["true", "false"], example: "true" } as never),
});
