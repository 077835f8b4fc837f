import * as z from "./zod";

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A body (or a list entry) that a route only checks for being a JSON object, while documenting
 * (and typing, for hono/client) it as the registered component `name` built from `S`. Its
 * members are then checked member by member by the capability itself, so that one answer names
 * every broken member and rule together (DESIGN 5). Register `name` in the app's registry.
 */
export function documentedObject<S extends z.ZodObject>(name: string, message = "The body must be a JSON object.") {
  return z
    .custom<z.input<S>>(isJsonObject, { message })
    .openapi({ type: "object", $ref: `#/components/schemas/${name}` } as never);
}
