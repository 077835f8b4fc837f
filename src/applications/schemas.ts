import { z } from "@hono/zod-openapi";
import { int32 } from "../http/limits";
import { PagingSchema } from "../http/schemas";

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
  })
  .openapi("ApplicationInput");

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
    name: z.string().max(100),
    email: z.string().max(254),
    phone: z.string().max(30).nullable(),
    coverLetter: z.string().max(40_000).nullable(),
    receivedAt: z.string().max(30).openapi({ format: "date-time" }),
    resume: z
      .object({ filename: z.string().max(300), contentType: z.string().max(100), size: int32(1) })
      .nullable(),
    emailCopy: z.object({
      status: z.enum(["pending", "sent", "failed"]),
      attempts: int32(0, 100),
      sentAt: z.string().max(30).nullable(),
    }),
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
    },
  });

export const ApplicationListSchema = z.object({ data: z.array(ApplicationSchema).max(100), paging: PagingSchema }).openapi("ApplicationList");
