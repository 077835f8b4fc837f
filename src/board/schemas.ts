import * as z from "../http/zod";
import { int32 } from "../http/limits";
import { JobSchema } from "../jobs/schemas";
import { PublicQuestionSchema } from "../screening";
import { CategorySchema, LOCATION_EXAMPLE, LocationSchema } from "../reference/schemas";

// DESIGN 19a: the board job carries the job's statements and French version, not its posting rules' outcomes.
const { referenceId: _referenceId, applicationEmail: _applicationEmail, postingRules: _postingRules, questions: _questions, ...publicMembers } = JobSchema.shape;

/** A place an employer created is shown by its text alone: its id would single out the employer. */
const BoardLocationSchema = z
  .object({ ...LocationSchema.shape, id: LocationSchema.shape.id.nullable().openapi({ description: "null for a place the employer created (not a public place).", example: 21 }) })
  .openapi("BoardLocation");

const EmployerOrHidden = JobSchema.shape.employer.nullable().openapi({ description: "null when the employer keeps its name confidential." });

export const BoardItemSchema = z
  .object({
    id: int32().openapi({ example: 1234 }),
    title: JobSchema.shape.title,
    employer: EmployerOrHidden,
    publishDate: JobSchema.shape.publishDate,
    closeDate: JobSchema.shape.closeDate,
    locations: z.array(BoardLocationSchema).max(3),
    categories: z.array(CategorySchema).max(3),
    positionType: JobSchema.shape.positionType,
    salary: JobSchema.shape.salary,
    summary: z.string().max(200).openapi({ description: "The description's text, at most 200 characters.", example: "Join our finance team…" }),
    url: z.string().max(2048).openapi({ format: "uri", example: "https://jobs-api.example.com/api/v1.1/board/jobs/1234" }),
    distanceKm: z
      .number()
      .min(0)
      .max(20_040)
      .optional()
      .openapi({ description: "With `near`: the great-circle distance from it to the nearest of the job's places, in km, one decimal.", example: 12.4 }),
  })
  .openapi("BoardItem");

export const BoardListSchema = z
  .object({
    data: z.array(BoardItemSchema).max(50),
    paging: z.object({
      pageSize: int32(1, 50).openapi({ example: 20 }),
      next: z.string().max(4096).nullable().openapi({ description: "The next page's absolute address; null on the last page.", example: null }),
    }),
  })
  .openapi("BoardList", {
    example: {
      data: [
        {
          id: 1234,
          title: "Senior Accountant",
          employer: { id: 7, name: "Acme Ltd." },
          publishDate: "2026-11-21T14:03:00Z",
          closeDate: "2027-01-20T14:03:00Z",
          locations: [LOCATION_EXAMPLE],
          categories: [{ id: 1, name: "Accounting" }],
          positionType: { id: 1, name: "Full Time" },
          salary: null,
          summary: "Join our finance team.",
          url: "https://jobs-api.example.com/api/v1.1/board/jobs/1234",
        },
      ],
      paging: { pageSize: 20, next: null },
    },
  });

export const ApplySchema = z
  .object({
    method: z.enum(["email", "url"]),
    url: z.string().max(200).optional().openapi({ example: "https://careers.example.com/apply" }),
  })
  .nullable()
  .openapi("Apply", { description: "How to apply: through this service (email) or on the employer's site (url); null when not set." });

export const BoardJobSchema = z
  .object({
    ...publicMembers,
    employer: EmployerOrHidden,
    locations: z.array(BoardLocationSchema).max(3),
    questions: z.array(PublicQuestionSchema).max(20).openapi({ description: "The screening questions to answer when applying (DESIGN 20)." }),
    apply: ApplySchema,
    jsonLd: z.record(z.string().max(50), z.unknown()).openapi({ description: "A schema.org JobPosting for search engines." }),
  })
  .openapi("BoardJob", {
    example: {
      id: 1234,
      employer: null,
      title: "Senior Accountant",
      publishDate: "2026-11-21T14:03:00Z",
      locations: [LOCATION_EXAMPLE],
      confidential: true,
      status: "active",
      closeDate: "2027-01-20T14:03:00Z",
      autoRefresh: false,
      categories: [{ id: 1, name: "Accounting" }],
      positionType: { id: 1, name: "Full Time" },
      salary: null,
      description: "<p>Join our <strong>finance</strong> team.</p>",
      applicantRoutingType: { id: 2, name: "URL" },
      applicationUrl: "https://careers.example.com/apply",
      aiUsedInSelection: false,
      existingVacancy: true,
      translations: null,
      questions: [],
      apply: { method: "url", url: "https://careers.example.com/apply" },
      jsonLd: { "@context": "https://schema.org", "@type": "JobPosting", title: "Senior Accountant" },
    },
  });

/** DESIGN 17: the radius of a search with `near` and no `radiusKm`. */
export const DEFAULT_RADIUS_KM = 50;

export const BoardQuerySchema = z.object({
  q: z.string().max(200).optional().openapi({ param: { name: "q", in: "query" }, description: "Words of the title or the employer's public name, all required; each may be the start of a word.", example: "comptab" }),
  location: z.string().regex(/^[1-9][0-9]{0,9}$/, "location must be a location id.").optional().openapi({ param: { name: "location", in: "query" }, maxLength: 10, example: "21" }),
  province: z.enum(["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]).optional().openapi({ param: { name: "province", in: "query" } }),
  category: z.string().regex(/^[1-9][0-9]{0,9}$/, "category must be a category id.").optional().openapi({ param: { name: "category", in: "query" }, maxLength: 10, example: "1" }),
  positionType: z.string().regex(/^[1-9][0-9]{0,9}$/, "positionType must be a position type id.").optional().openapi({ param: { name: "positionType", in: "query" }, maxLength: 10, example: "1" }),
  near: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "near must be a location id.")
    .optional()
    .openapi({ param: { name: "near", in: "query" }, maxLength: 10, description: "Jobs with a place within `radiusKm` of this public place (a city or town with coordinates).", example: "21" }),
  radiusKm: z
    .string()
    .regex(/^[0-9]{1,3}(\.[0-9]{1,3})?$/, "radiusKm must be a number of km from 1 to 500.")
    .optional()
    .transform((value) => (value === undefined ? undefined : Number(value)))
    .pipe(z.number().min(1, "radiusKm must be a number of km from 1 to 500.").max(500, "radiusKm must be a number of km from 1 to 500.").optional())
    .openapi({ param: { name: "radiusKm", in: "query" }, type: "number", minimum: 1, maximum: 500, multipleOf: 0.001, default: DEFAULT_RADIUS_KM, description: "With `near` only; default 50; at most 3 decimals." } as never),
  salaryMin: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,7})$/, "salaryMin must be a whole number of CAD a year from 0 to 10000000.")
    .optional()
    .transform((value) => (value === undefined ? undefined : Number(value)))
    .pipe(z.number().int().max(10_000_000, "salaryMin must be a whole number of CAD a year from 0 to 10000000.").optional())
    .openapi({
      param: { name: "salaryMin", in: "query" },
      type: "integer",
      format: "int32",
      minimum: 0,
      maximum: 10_000_000,
      description: "CAD a year: jobs whose salary reaches it at the top of its range (hourly × 2 080, daily × 260, weekly × 52, monthly × 12).",
      example: 60000,
    } as never),
  cursor: z.string().max(64).optional().openapi({ param: { name: "cursor", in: "query" }, description: "From `paging.next`.", example: "czM3NjUxNDQ0OTg3MzMwNTY" }),
  pageSize: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,9})$/, "pageSize must be a whole number from 1 to 50.")
    .optional()
    .transform((value) => (value === undefined ? 20 : Number(value)))
    .pipe(z.number().int().min(1).max(50))
    .openapi({ param: { name: "pageSize", in: "query" }, type: "integer", format: "int32", minimum: 1, maximum: 50, default: 20 } as never),
});
