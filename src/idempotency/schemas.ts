import * as z from "../http/zod";
import { IDEMPOTENCY_KEY_FORM, IDEMPOTENCY_KEY_MESSAGE } from "./rules";

/** DESIGN 11: the request header, as the routes that accept it declare it (and check it: a 400 otherwise). */
export const IdempotencyKeyHeaderSchema = z.object({
  "idempotency-key": z
    .string()
    .regex(IDEMPOTENCY_KEY_FORM, IDEMPOTENCY_KEY_MESSAGE)
    .optional()
    // What the pattern admits at most: 255 characters and two quotes.
    .openapi({
      maxLength: 257,
      description:
        "Makes a retry safe: a repeat with the same key and body within 24 hours answers the first response again (`Idempotent-Replayed: true`) and writes nothing. 1–255 printable ASCII characters, bare or in double quotes.",
      example: "9b7e4c1a-0f5e-4a53-8d55-2f0e6b1c7a90",
    }),
});
