import { z } from "@hono/zod-openapi";
import { int32 } from "../http/limits";

export const StatsQuerySchema = z.object({
  from: z.string().max(10).optional().openapi({ param: { name: "from", in: "query" }, description: "First day, YYYY-MM-DD (UTC); default `to` − 29 days.", example: "2026-11-01" }),
  to: z.string().max(10).optional().openapi({ param: { name: "to", in: "query" }, description: "Last day, YYYY-MM-DD (UTC), included; default today. At most 366 days in all.", example: "2026-11-30" }),
});

const Numbers = { views: int32(0).openapi({ example: 42 }), applications: int32(0).openapi({ example: 3 }) };

export const JobStatsSchema = z
  .object({
    data: z.array(z.object({ date: z.string().max(10).openapi({ example: "2026-11-24" }), ...Numbers }).openapi("JobStatsDay")).max(366),
    totals: z.object(Numbers).openapi("JobStatsTotals"),
  })
  .openapi("JobStats");
