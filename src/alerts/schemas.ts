import * as z from "../http/zod";
import { PROVINCES } from "../locations/provinces";
import { FREQUENCIES, WEEKDAYS } from "./schedule";

// DESIGN 23a: POST /api/v1.1/alerts. The schema is the check and the OpenAPI document at once.
// The search takes the board API's parameters with the board's own bounds and messages
// (src/board/schemas.ts BoardQuerySchema), as JSON values rather than query strings.

const PROVINCE_CODES = PROVINCES.map((province) => province.code) as [string, ...string[]];
const id = (name: string) =>
  z
    .number({ error: `${name} must be an id (a whole number from 1).` })
    .int(`${name} must be an id (a whole number from 1).`)
    .min(1, `${name} must be an id (a whole number from 1).`)
    .max(2_147_483_647, `${name} must be an id (a whole number from 1).`)
    .openapi({ format: "int32" });

const RADIUS = "radiusKm must be a number of km from 1 to 500.";
const SALARY = "salaryMin must be a whole number of CAD a year from 0 to 10000000.";

export const AlertSearchSchema = z
  .object({
    q: z.string().max(200).optional().openapi({ description: "Words of the title or the employer's public name, all required; each may be the start of a word.", example: "comptab" }),
    near: id("near").optional().openapi({ description: "Jobs with a place within `radiusKm` of this public place (a city or town with coordinates).", example: 21 }),
    radiusKm: z
      .number({ error: RADIUS })
      .min(1, RADIUS)
      .max(500, RADIUS)
      .refine((value) => Math.round(value * 1000) === value * 1000, RADIUS)
      .optional()
      .openapi({ description: "With `near` only; default 50; at most 3 decimals.", example: 25 }),
    province: z.enum(PROVINCE_CODES).optional().openapi({ example: "QC" }),
    category: id("category").optional().openapi({ example: 1 }),
    positionType: id("positionType").optional().openapi({ example: 1 }),
    salaryMin: z.number({ error: SALARY }).int(SALARY).min(0, SALARY).max(10_000_000, SALARY).optional().openapi({ format: "int32", example: 60000 }),
  })
  .strict()
  .superRefine((search, ctx) => {
    // On the search itself, so that these are named with every other broken member of the body.
    if (Object.values(search).every((value) => value === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "search must have at least one of q, near, radiusKm, province, category, positionType, salaryMin." });
    }
    if (search.radiusKm !== undefined && search.near === undefined) ctx.addIssue({ code: "custom", path: ["near"], message: "radiusKm needs near: the id of the place to measure from." });
  })
  .openapi("AlertSearch", { description: "The board search's parameters (GET /api/v1.1/board/jobs), at least one." });

export const AlertInputSchema = z
  .object({
    email: z.string().trim().max(254).email().openapi({ example: "jobseeker@example.com" }),
    language: z.enum(["en", "fr"]).openapi({ description: "The language of every email of the alert." }),
    frequency: z.enum(FREQUENCIES).openapi({ description: "instant: within about 10 minutes of a match (at most 10 a day); daily at `hour`; weekly on `weekday` at `hour`." }),
    hour: z.number().int().min(0).max(23).optional().openapi({ format: "int32", description: "Local hour of daily and weekly emails, in the time zone of the search's place or province (else America/Toronto). Default 8.", example: 8 }),
    weekday: z.enum(WEEKDAYS).optional().openapi({ description: "Weekly emails' day. Default monday." }),
    consent: z.literal(true, "consent must be true: the person agrees to receive this alert's emails.").openapi({ description: "Express consent to the alert's emails (CASL): must be true." }),
    search: AlertSearchSchema,
  })
  .openapi("AlertInput");

export type AlertInput = z.infer<typeof AlertInputSchema>;

export const AlertAcceptedSchema = z
  .object({ status: z.literal("pending").openapi({ description: "Always `pending`: a confirmation email is on its way unless a limit holds it back; the answer never tells whether the address has alerts." }) })
  .openapi("AlertAccepted");
