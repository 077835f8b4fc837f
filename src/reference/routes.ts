import { searchTermSchema } from "../http/limits";
import { API_PREFIX } from "../http/version";
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
  `${API_PREFIX}/positiontypes`,
  PositionTypeSchema,
  "PositionTypeList",
  "List position types",
);
export const listJobCategories = staticList(`${API_PREFIX}/jobcategories`, CategorySchema, "CategoryList", "List job categories");
export const listSalaryTypes = staticList(`${API_PREFIX}/salarytypes`, SalaryTypeSchema, "SalaryTypeList", "List salary types");
export const listApplicantRoutingTypes = staticList(
  `${API_PREFIX}/applicantroutingtypes`,
  ApplicantRoutingTypeSchema,
  "ApplicantRoutingTypeList",
  "List applicant routing types",
);

export const searchLocationsRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/locations`,
  ...publicData,
  summary: "Search locations",
  description:
    "Canadian places by name prefix, ignoring case and accents; shortest name first, then the most populous.",
  request: {
    query: PagingQuerySchema.extend({
      q: searchTermSchema("van"),
    }),
  },
  responses: { 200: json(LocationListSchema, "A page of locations.") },
});

export const getLocationRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/locations/{id}`,
  ...publicData,
  summary: "Read one location",
  request: { params: IdParamSchema },
  responses: { 200: json(LocationSchema, "The location.") },
});
