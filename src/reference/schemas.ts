import * as z from "../http/zod";
import { int32 } from "../http/limits";
import { PagingSchema } from "../http/schemas";

export const NamedRefSchema = z.object({ id: int32(), name: z.string().max(50) });

export const PositionTypeSchema = NamedRefSchema.openapi("PositionType", { example: { id: 1, name: "Full Time" } });
export const CategorySchema = NamedRefSchema.openapi("Category", { example: { id: 9, name: "Education" } });
export const ApplicantRoutingTypeSchema = NamedRefSchema.openapi("ApplicantRoutingType", {
  example: { id: 1, name: "Email" },
});
export const SalaryTypeSchema = z
  .object({ id: int32(), name: z.string().max(50), unit: z.string().max(50) })
  .openapi("SalaryType", { example: { id: 1, name: "Yearly", unit: "year" } });

// DESIGN 17: WGS 84 degrees with the source's precision (GeoNames: 5 decimals); null where the
// place has none (an employer's own place that matches no gazetteer entry, a few counties).
const coordinate = (bound: number, example: number) =>
  z.number().min(-bound).max(bound).nullable().openapi({ example, description: "Degrees (WGS 84); null when unknown." });

/** The location the documentation's examples show. */
export const LOCATION_EXAMPLE = {
  id: 21,
  name: "Vancouver",
  description: "Vancouver, BC",
  type: "City",
  latitude: 49.24966,
  longitude: -123.11934,
};

export const LocationSchema = z
  .object({
    id: int32(),
    name: z.string().max(256),
    description: z.string().max(300),
    type: z.string().max(50),
    latitude: coordinate(90, LOCATION_EXAMPLE.latitude),
    longitude: coordinate(180, LOCATION_EXAMPLE.longitude),
  })
  .openapi("Location", { example: LOCATION_EXAMPLE });

export const listOf = <T extends z.ZodTypeAny>(item: T, name: string) =>
  z.object({ data: z.array(item).max(1000) }).openapi(name);

export const LocationListSchema = z
  .object({ data: z.array(LocationSchema).max(100), paging: PagingSchema })
  .openapi("LocationList");

export type Location = z.infer<typeof LocationSchema>;
export type SalaryType = z.infer<typeof SalaryTypeSchema>;
export type NamedRef = z.infer<typeof NamedRefSchema>;
