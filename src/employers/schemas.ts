import * as z from "../http/zod";
import { codePoints, int32 } from "../http/limits";

// DESIGN 19: the employer's own settings. The posting rules read `ontarioEmployees` and
// `federallyRegulated`; `postingRules` says whether a broken rule refuses a write.

export const POSTING_RULES_MODES = ["warn", "enforce"] as const;
export type PostingRulesMode = (typeof POSTING_RULES_MODES)[number];

/** Headcounts beyond this are surely typing errors; none of the rules distinguishes them. */
const MAX_EMPLOYEES = 10_000_000;

export const EmployerSettingsSchema = z
  .object({
    id: int32().openapi({ example: 7 }),
    name: z.string().max(128).openapi({ example: "Acme Ltd." }),
    ontarioEmployees: int32(0, MAX_EMPLOYEES)
      .nullable()
      .openapi({ description: "Employees in Ontario; null when unknown, which the posting rules count as 25 or more.", example: 40 }),
    federallyRegulated: z
      .boolean()
      .openapi({ description: "Federally regulated employers (banks, airlines, telecoms…) are exempt from provincial pay rules, not from Quebec's French rule.", example: false }),
    postingRules: z
      .enum(POSTING_RULES_MODES)
      .openapi({ description: "`warn`: writes succeed and answers list broken rules. `enforce`: a write that would leave a job active with a broken rule is refused (422).", example: "warn" }),
  })
  .openapi("EmployerSettings");

export type EmployerSettings = z.infer<typeof EmployerSettingsSchema>;

/** PUT /employer: partial; members not sent keep their value; unknown and read-only ones are ignored. */
export const EmployerSettingsInputSchema = z
  .object({
    name: z
      .string()
      .transform((name) => name.trim())
      .refine((name) => name.length > 0 && codePoints(name) <= 128, { message: "name must be 1 to 128 characters (spaces around it are removed)." })
      .optional()
      .openapi({ type: "string", minLength: 1, maxLength: 128, example: "Acme Ltd." }),
    ontarioEmployees: EmployerSettingsSchema.shape.ontarioEmployees.optional(),
    federallyRegulated: EmployerSettingsSchema.shape.federallyRegulated.optional(),
    postingRules: EmployerSettingsSchema.shape.postingRules.optional(),
  })
  .openapi("EmployerSettingsInput");

export type EmployerSettingsInput = z.infer<typeof EmployerSettingsInputSchema>;
