import { createRoute, z } from "@hono/zod-openapi";
import { IdParamSchema, PagingQuerySchema, problemResponses } from "../http/schemas";
import {
  ApplicantRoutingTypeSchema,
  CategorySchema,
  LocationListSchema,
  LocationSchema,
  PositionTypeSchema,
  SalaryTypeSchema,
  listOf,
} from "./schemas";

const tags = ["Reference data"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

const staticList = (path: string, schema: z.ZodTypeAny, name: string, summary: string) =>
  createRoute({
    method: "get",
    path,
    tags,
    summary,
    responses: { 200: json(listOf(schema, name), summary), ...problemResponses(500) },
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
  tags,
  summary: "Search locations",
  description:
    "Canadian places by name prefix, ignoring case and accents; shortest name first, then the most populous.",
  request: {
    query: PagingQuerySchema.extend({
      q: z.string().max(256).optional().openapi({ param: { name: "q", in: "query" }, example: "van" }),
    }),
  },
  responses: { 200: json(LocationListSchema, "A page of locations."), ...problemResponses(400, 500) },
});

export const getLocationRoute = createRoute({
  method: "get",
  path: "/api/v1.1/locations/{id}",
  tags,
  summary: "Read one location",
  request: { params: IdParamSchema },
  responses: { 200: json(LocationSchema, "The location."), ...problemResponses(400, 404, 500) },
});
