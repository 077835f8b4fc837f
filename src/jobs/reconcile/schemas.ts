import * as z from "../../http/zod";
import { int32, INT32_MAX } from "../../http/limits";
import { ReferenceIdBodySchema } from "../schemas";

/** DESIGN 21: referenceIds per reconcile. */
export const MAX_RECONCILE_IDS = 10_000;

export const ReconcileRequestSchema = z
  .object({
    referenceIds: z
      .array(ReferenceIdBodySchema.shape.referenceId)
      .min(1, { message: "referenceIds must list at least one referenceId: the ones of every job that stays open." })
      .max(MAX_RECONCILE_IDS, { message: `referenceIds lists at most ${MAX_RECONCILE_IDS} referenceIds.` })
      .openapi({ description: "Every referenceId of the jobs that stay open (duplicates are allowed and count once).", example: ["ACME-1", "ACME-2"] }),
    action: z.enum(["archive", "delete"]).default("archive").openapi({ description: "What happens to each active job not listed.", example: "archive" }),
  })
  .openapi("ReconcileRequest");

export type ReconcileRequest = z.infer<typeof ReconcileRequestSchema>;

export const ReconcileResponseSchema = z
  .object({
    affected: z
      .array(z.object({ id: int32(), referenceId: z.string().max(50) }).openapi("ReconciledJob"))
      // Every active job of the caller may be affected: bounded only by job ids being int32.
      .max(INT32_MAX)
      .openapi({ description: "Each job archived or deleted (a dry run: each that would be), oldest first." }),
    count: int32(0).openapi({ example: 1 }),
  })
  .openapi("ReconcileResponse", { example: { affected: [{ id: 1234, referenceId: "ACME-9" }], count: 1 } });

export type ReconcileResponse = z.infer<typeof ReconcileResponseSchema>;
