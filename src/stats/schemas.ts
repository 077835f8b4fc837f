import * as z from "../http/zod";
import { int32 } from "../http/limits";
import { DATE, dateMessage, dayNumber } from "./rules";

// DESIGN 21a: a day that exists, written YYYY-MM-DD: documented as the parser's own pattern and
// `format: date`, so a client can check it before sending (issue 34). Both parameters are
// checked together (one 400 names each); the range's own rules are rangeOf's.
const day = (name: "from" | "to", description: string, example: string) =>
  z
    .string()
    .refine((text) => dayNumber(text) !== undefined, dateMessage(name))
    .optional()
    .openapi({ param: { name, in: "query" }, pattern: DATE.source, format: "date", maxLength: 10, description, example });

export const StatsQuerySchema = z.object({
  from: day("from", "First day, YYYY-MM-DD (UTC); default `to` − 29 days.", "2026-11-01"),
  to: day("to", "Last day, YYYY-MM-DD (UTC), included; default today. At most 366 days in all.", "2026-11-30"),
});

const Numbers = { views: int32(0).openapi({ example: 42 }), applications: int32(0).openapi({ example: 3 }) };

export const JobStatsSchema = z
  .object({
    data: z.array(z.object({ date: z.string().max(10).openapi({ example: "2026-11-24" }), ...Numbers }).openapi("JobStatsDay")).max(366),
    totals: z.object(Numbers).openapi("JobStatsTotals"),
  })
  .openapi("JobStats");
