import * as z from "../http/zod";
import { int32 } from "../http/limits";
import { PagingQuerySchema, PagingSchema } from "../http/schemas";
import { APPLICATION_STATUSES } from "./pipeline";

/** DESIGN 6b: name and phone reach the emailed copy's lines and headers: no CR, LF or other control character. */
const singleLine = (s: string) => !/\p{Cc}/u.test(s);

/** The applicant's fields (DESIGN 15), as JSON or as multipart form fields. */
export const ApplicationInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .refine((s) => [...s].length <= 100, "name must be at most 100 characters.")
      .refine(singleLine, "name must be one line, without control characters.")
      .openapi({ maxLength: 100, description: "One line: no control characters (CR and LF included).", example: "Ada Lovelace" }),
    email: z.string().max(254).email().openapi({ example: "ada@example.com" }),
    phone: z.string().max(30).refine(singleLine, "phone must be one line, without control characters.").optional().openapi({ description: "One line: no control characters (CR and LF included).", example: "+1 604 555 0100" }),
    coverLetter: z
      .string()
      .refine((s) => [...s].length <= 10_000, "coverLetter must be at most 10000 characters.")
      .optional()
      .openapi({ maxLength: 10_000, example: "I would love to join your finance team." }),
    // Checked against the job's own questions (src/screening/answers.ts), which treats null as
    // no answers, as an absent member: documented so (issue 34).
    answers: z
      .record(z.string().max(40), z.union([z.boolean(), z.number(), z.string().max(5_000), z.array(z.string().max(200)).max(20)]))
      .nullable()
      .optional()
      .openapi({
        description:
          "Answers to the job's screening questions (its `questions` on the board), by question key: yesNo true/false, singleChoice one option, multiChoice a list of options, text, number. `null`, like leaving it out, answers nothing (a required question is then named in the 400).",
        example: { work_permit: true, years: 4 },
      }),
    language: z
      .enum(["en", "fr"])
      .optional()
      .openapi({ description: "The language of the page the applicant used (default en): the emails to the applicant are written in it.", example: "en" }),
  })
  .openapi("ApplicationInput");

/** PUT /applications/{id} (DESIGN 20). */
export const ApplicationMoveSchema = z
  .object({
    status: z.enum(APPLICATION_STATUSES).openapi({ example: "interviewing" }),
    note: z.string().max(2_000).nullable().optional().openapi({ description: "Kept in the history.", example: "Phone screen booked." }),
    notifyApplicant: z
      .boolean()
      .optional()
      .openapi({ description: "With status rejected or hired: email the applicant the outcome, in the language they applied in." }),
  })
  .openapi("ApplicationMove");

export const ApplicationHistorySchema = z
  .object({
    data: z
      .array(
        z.object({
          status: z.enum(APPLICATION_STATUSES),
          at: z.string().max(30).openapi({ format: "date-time" }),
          note: z.string().max(2_000).nullable(),
        }),
      )
      .max(500),
  })
  .openapi("ApplicationHistory", { example: { data: [{ status: "received", at: "2026-11-22T15:00:00.000Z", note: null }] } });

export const ApplicationListQuerySchema = PagingQuerySchema.extend({
  status: z.enum(APPLICATION_STATUSES).optional().openapi({ param: { name: "status", in: "query" }, example: "received" }),
  screenedOut: z
    .enum(["true", "false"])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true"))
    .openapi({ param: { name: "screenedOut", in: "query" }, type: "string", enum: ["true", "false"], example: "false" } as never),
});

export const ApplicationReceiptSchema = z
  .object({
    id: int32().openapi({ example: 51 }),
    jobId: int32().openapi({ example: 1234 }),
    receivedAt: z.string().max(30).openapi({ format: "date-time", example: "2026-11-22T15:00:00.000Z" }),
  })
  .openapi("ApplicationReceipt");

export const ApplicationSchema = z
  .object({
    id: int32().openapi({ example: 51 }),
    jobId: int32().openapi({ example: 1234 }),
    name: z.string().max(100).nullable().openapi({ description: "null once the applicant's personal data was erased on their request (with email, phone, coverLetter, answers and resume)." }),
    email: z.string().max(254).nullable(),
    phone: z.string().max(30).nullable(),
    coverLetter: z.string().max(40_000).nullable(),
    receivedAt: z.string().max(30).openapi({ format: "date-time" }),
    resume: z
      .object({ filename: z.string().max(300), contentType: z.string().max(100), size: int32(1) })
      .nullable(),
    emailCopy: z.object({
      status: z.enum(["pending", "sent", "failed", "skipped"]).openapi({ description: "`skipped`: an application to a test job, whose copy is never sent." }),
      attempts: int32(0, 100),
      sentAt: z.string().max(30).nullable(),
    }),
    answers: z.record(z.string().max(40), z.union([z.boolean(), z.number(), z.string().max(5_000), z.array(z.string().max(200)).max(20)])),
    screenedOut: z.boolean().openapi({ description: "An answer matched a knockout of its question." }),
    status: z.enum(APPLICATION_STATUSES),
    updatedAt: z.string().max(30).openapi({ format: "date-time" }),
    interviewedAt: z.string().max(30).nullable().openapi({ format: "date-time", description: "The last move to interviewing." }),
    decisionDueAt: z
      .string()
      .max(30)
      .nullable()
      .openapi({ format: "date-time", description: "interviewedAt + 45 days while not final (Ontario: interviewed applicants hear of the decision within 45 days)." }),
    applicantEmails: z
      .array(
        z.object({
          kind: z.enum(["confirmation", "rejected", "hired"]),
          status: z.enum(["pending", "sent", "failed", "skipped"]),
          attempts: int32(0, 100),
          sentAt: z.string().max(30).nullable(),
        }),
      )
      .max(1_000),
  })
  .openapi("Application", {
    example: {
      id: 51,
      jobId: 1234,
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: null,
      coverLetter: "I would love to join your finance team.",
      receivedAt: "2026-11-22T15:00:00.000Z",
      resume: { filename: "ada.pdf", contentType: "application/pdf", size: 48213 },
      emailCopy: { status: "sent", attempts: 1, sentAt: "2026-11-22T15:00:03.000Z" },
      answers: { work_permit: true },
      screenedOut: false,
      status: "interviewing",
      updatedAt: "2026-11-25T10:00:00.000Z",
      interviewedAt: "2026-11-25T10:00:00.000Z",
      decisionDueAt: "2027-01-09T10:00:00.000Z",
      applicantEmails: [{ kind: "confirmation", status: "sent", attempts: 1, sentAt: "2026-11-22T15:00:02.000Z" }],
    },
  });

export const ApplicationListSchema = z.object({ data: z.array(ApplicationSchema).max(100), paging: PagingSchema }).openapi("ApplicationList");
