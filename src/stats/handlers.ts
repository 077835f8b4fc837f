import { OpenAPIHono } from "../http/openapi-hono";
import type { AppEnv } from "../env";
import { validationHook } from "../http/validation";
import { jobStatsRoute } from "./routes";
import { jobStats } from "./service";

export const statsApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(jobStatsRoute, async (c) =>
  c.json(await jobStats(c.var.db, c.var.employerId, c.req.valid("param").id, c.req.valid("query")), 200),
);
