import { createRoute, z } from "@hono/zod-openapi";
import { IdParamSchema, PagingQuerySchema } from "../http/schemas";
import {
  ApplicantRoutingTypeSchema,
  CategorySchema,
  LocationListSchema,
  LocationSchema,
  PositionTypeSchema,
  SalaryTypeSchema,
  listOf,
} from "./schemas";

// Public: no API key (the document's default security is the key).
const publicData = { tags: ["Reference data"], security: [] };
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

// Generic in path and item so the typed client (hono/client) sees the literal path and item type.
const staticList = <P extends string, T extends z.ZodTypeAny>(path: P, schema: T, name: string, summary: string) =>
  createRoute({
    method: "get",
    path,
    ...publicData,
    summary,
    responses: { 200: json(listOf(schema, name), summary) },
  });

export const listPositionTypes = staticList(
  "/api/v1.1/positiontypes",
  PositionTypeSchema,
  "PositionTypeList",
  "List position types",
);
export const listJobCategories = staticList("/api/v1.1/jobcategories", CategorySchema, "CategoryList", "List job categories");
export const listSalaryTypes = staticList("/api/v1.1/salarytypes", SalaryTypeSchema, "SalaryTypeList", "List salary types");
export const listApplicantRoutingTypes = staticList(
  "/api/v1.1/applicantroutingtypes",
  ApplicantRoutingTypeSchema,
  "ApplicantRoutingTypeList",
  "List applicant routing types",
);

export const searchLocationsRoute = createRoute({
  method: "get",
  path: "/api/v1.1/locations",
  ...publicData,
  summary: "Search locations",
  description:
    "Canadian places by name prefix, ignoring case and accents; shortest name first, then the most populous.",
  request: {
    query: PagingQuerySchema.extend({
      q: z.string().max(256).optional().openapi({ param: { name: "q", in: "query" }, example: "van" }),
    }),
  },
  responses: { 200: json(LocationListSchema, "A page of locations.") },
});

export const getLocationRoute = createRoute({
  method: "get",
  path: "/api/v1.1/locations/{id}",
  ...publicData,
  summary: "Read one location",
  request: { params: IdParamSchema },
  responses: { 200: json(LocationSchema, "The location.") },
});
