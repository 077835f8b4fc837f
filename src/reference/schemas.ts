import { z } from "@hono/zod-openapi";
import { PagingSchema } from "../http/schemas";

export const NamedRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const PositionTypeSchema = NamedRefSchema.openapi("PositionType", { example: { id: 1, name: "Full Time" } });
export const CategorySchema = NamedRefSchema.openapi("Category", { example: { id: 9, name: "Education" } });
export const ApplicantRoutingTypeSchema = NamedRefSchema.openapi("ApplicantRoutingType", {
  example: { id: 1, name: "Email" },
});
export const SalaryTypeSchema = z
  .object({ id: z.number().int(), name: z.string(), unit: z.string() })
  .openapi("SalaryType", { example: { id: 1, name: "Yearly", unit: "year" } });

export const LocationSchema = z
  .object({ id: z.number().int(), name: z.string(), description: z.string(), type: z.string() })
  .openapi("Location", { example: { id: 21, name: "Vancouver", description: "Vancouver, BC", type: "City" } });

export const listOf = <T extends z.ZodTypeAny>(item: T, name: string) =>
  z.object({ data: z.array(item) }).openapi(name);

export const LocationListSchema = z
  .object({ data: z.array(LocationSchema), paging: PagingSchema })
  .openapi("LocationList");

export type Location = z.infer<typeof LocationSchema>;
export type SalaryType = z.infer<typeof SalaryTypeSchema>;
export type NamedRef = z.infer<typeof NamedRefSchema>;
