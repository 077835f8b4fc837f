import * as z from "./zod";

/** The largest Int32: ids and counts the spec types as Int32. */
export const INT32_MAX = 2_147_483_647;

/** Lengths count characters as the spec means them: Unicode code points, not UTF-16 units. */
export const codePoints = (text: string) => [...text].length;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * A free-text query parameter (`q`): at most 256 characters and no control characters
 * (DESIGN 5: a NUL would end the phrase the search index reads, and matches everything).
 */
export const searchTermSchema = (example: string) =>
  z
    .string()
    .max(256)
    .refine((text) => !CONTROL_CHARACTERS.test(text), { message: "q must not contain control characters." })
    .optional()
    .openapi({ param: { name: "q", in: "query" }, example });

/** An Int32 as documented for OpenAPI (format and bounds), from `min` up. */
export const int32 = (min = 1, max = INT32_MAX) => z.number().int().min(min).max(max).openapi({ format: "int32" });

/** The largest body any write accepts (DESIGN 5); a string inside one is at most this long. */
export const MAX_BODY_BYTES = 1024 * 1024;
