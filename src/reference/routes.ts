import { createRoute } from "../http/openapi-hono";
import * as z from "../http/zod";
import { searchTermSchema } from "../http/limits";
import { IdParamSchema, PagingQuerySchema, publicCorsHeaders } from "../http/schemas";
import { API_PREFIX } from "../http/version";
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
  headers: publicCorsHeaders,
  content: { "application/json": { schema } },
});

// Generic in path and item so the typed client (hono/client) sees the literal path and item type.
const staticList = <P extends string, T extends z.ZodTypeAny>(path: P, schema: T, name: string, summary: string, operationId: string) =>
  createRoute({
    method: "get",
    path,
    ...publicData,
    operationId,
    summary,
    responses: { 200: json(listOf(schema, name), summary) },
  });

export const listPositionTypes = staticList(
  `${API_PREFIX}/positiontypes`,
  PositionTypeSchema,
  "PositionTypeList",
  "List position types",
  "listPositionTypes",
);
export const listJobCategories = staticList(`${API_PREFIX}/jobcategories`, CategorySchema, "CategoryList", "List job categories", "listJobCategories");
export const listSalaryTypes = staticList(`${API_PREFIX}/salarytypes`, SalaryTypeSchema, "SalaryTypeList", "List salary types", "listSalaryTypes");
export const listApplicantRoutingTypes = staticList(
  `${API_PREFIX}/applicantroutingtypes`,
  ApplicantRoutingTypeSchema,
  "ApplicantRoutingTypeList",
  "List applicant routing types",
  "listApplicantRoutingTypes",
);

export const searchLocationsRoute = createRoute({
  method: "get",
  path: `${API_PREFIX}/locations`,
  ...publicData,
  operationId: "searchLocations",
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
  operationId: "getLocation",
  summary: "Read one location",
  request: { params: IdParamSchema },
  responses: { 200: json(LocationSchema, "The location.") },
});
