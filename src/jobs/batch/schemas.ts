import * as z from "../../http/zod";
import { documentedObject } from "../../http/documented-object";
import { int32 } from "../../http/limits";
import { FieldErrorSchema } from "../../http/schemas";
import { JobByReferenceInputSchema, JobPreviewSchema, JobSchema, ReferenceIdBodySchema } from "../schemas";

/** DESIGN 12: entries per batch, both lists together. */
export const MAX_BATCH_ENTRIES = 100;

/** The one rule of an entry's `ifMatch`, for upserts and deletes alike (src/jobs/batch/service.ts). */
const ifMatch = z
  .string()
  .max(1024)
  .nullable()
  .optional()
  .openapi({
    description: "The entry's If-Match: its job's current ETag (quotes included) or `*`; otherwise the entry is 412. `null`, like leaving it out, sets no condition.",
    example: '"1234.7.1"',
  });

/** An upsert entry: exactly a `PUT /jobs` body, plus an optional `ifMatch`. */
export const BatchUpsertEntrySchema = JobByReferenceInputSchema.extend({ ifMatch }).openapi("BatchUpsertEntry");
/** A delete entry: exactly a `DELETE /jobs` body, plus an optional `ifMatch`. */
export const BatchDeleteEntrySchema = ReferenceIdBodySchema.extend({ ifMatch }).openapi("BatchDeleteEntry");

// Each entry is only checked for being an object here: what is inside is that entry's answer.
const ENTRY_MESSAGE = "Each entry must be a JSON object.";

export const BatchRequestSchema = z
  .object({
    upsert: z.array(documentedObject<typeof BatchUpsertEntrySchema>("BatchUpsertEntry", ENTRY_MESSAGE)).max(MAX_BATCH_ENTRIES).optional(),
    delete: z.array(documentedObject<typeof BatchDeleteEntrySchema>("BatchDeleteEntry", ENTRY_MESSAGE)).max(MAX_BATCH_ENTRIES).optional(),
  })
  .superRefine((body, ctx) => {
    const total = (body.upsert?.length ?? 0) + (body.delete?.length ?? 0);
    if (total < 1 || total > MAX_BATCH_ENTRIES) {
      ctx.addIssue({ code: "custom", path: [], message: `A batch has 1 to ${MAX_BATCH_ENTRIES} entries in all (upsert and delete together); this one has ${total}.` });
    }
    // A referenceId may appear only once in a batch: every entry sharing one is named.
    const seen = new Map<string, (string | number)[][]>();
    for (const op of ["upsert", "delete"] as const) {
      (body[op] ?? []).forEach((item, index) => {
        const referenceId = (item as Record<string, unknown>).referenceId;
        if (typeof referenceId !== "string" || referenceId === "") return;
        seen.set(referenceId, [...(seen.get(referenceId) ?? []), [op, index]]);
      });
    }
    for (const [referenceId, places] of seen) {
      if (places.length < 2) continue;
      for (const [op, index] of places) {
        ctx.addIssue({
          code: "custom",
          path: [op, index, "referenceId"],
          message: `referenceId "${referenceId}" appears ${places.length} times in this batch; send each job once.`,
        });
      }
    }
  })
  .openapi("BatchRequest", {
    example: {
      upsert: [{ referenceId: "ACME-1", title: "Senior Accountant", status: "active", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }] }],
      delete: [{ referenceId: "ACME-9" }],
    },
  });

export type BatchRequest = z.infer<typeof BatchRequestSchema>;

export const BatchResultSchema = z
  .object({
    op: z.enum(["upsert", "delete"]),
    index: int32(0, MAX_BATCH_ENTRIES - 1).openapi({ description: "The entry's position in its own list.", example: 0 }),
    referenceId: z.string().max(50).nullable().openapi({ example: "ACME-1" }),
    status: int32(200, 599).openapi({ description: "What the single request would have answered: 200, 201, 204, 400, 404, 409 or 412.", example: 201 }),
    etag: z.string().max(64).optional().openapi({ example: '"1234.1"' }),
    job: z.union([JobSchema, JobPreviewSchema]).optional(),
    type: z.string().max(200).optional().openapi({ example: "/problems/validation-error" }),
    detail: z.string().max(2000).optional().openapi({ example: "The request has invalid members; see errors." }),
    errors: z.array(FieldErrorSchema).max(1000).optional(),
  })
  .openapi("BatchResult");

export type BatchResult = z.infer<typeof BatchResultSchema>;

export const BatchResponseSchema = z
  .object({ results: z.array(BatchResultSchema).max(MAX_BATCH_ENTRIES) })
  .openapi("BatchResponse", {
    example: {
      results: [
        { op: "upsert", index: 0, referenceId: "ACME-1", status: 201, etag: '"1234.1"' },
        { op: "delete", index: 0, referenceId: "ACME-9", status: 404, type: "/problems/not-found", detail: "You have no job with this referenceId." },
      ],
    },
  });
