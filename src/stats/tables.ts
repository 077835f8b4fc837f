import { integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { jobs } from "../db/schema";

// DESIGN 21: views of each job per UTC day, added to by the views queue's consumer (one write per
// queue batch). Applications per day are counted from the applications themselves.
export const jobViews = sqliteTable(
  "job_views",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    /** Days since 1970-01-01 (UTC). */
    day: integer("day").notNull(),
    views: integer("views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.day] })],
);
