import { getTableColumns } from "drizzle-orm";
import { jobs } from "../../src/db/schema";

export type SeedJobOverrides = Partial<Omit<typeof jobs.$inferInsert, "id" | "employerId">>;

const DAY = 24 * 60 * 60;
const columns = getTableColumns(jobs);

/**
 * Inserts `count` job rows for one employer straight into D1, in ONE statement however large
 * `count` is (INSERT ... SELECT over a recursive counter), so 100 000 rows take well under a
 * second and stay far below D1's 100-bound-parameter limit. Rows are `jobs` rows only (no
 * locations or categories). Every row gets the same values: defaults below, then `overrides`;
 * titles are numbered ("Seeded job 1", ...) unless `title` is overridden.
 * Defaults: active, publishDate = now (wall clock, seconds), closeDate = publishDate + 60 days,
 * createdAt = updatedAt = publishDate. Returns the new ids in order (one INSERT gives
 * consecutive AUTOINCREMENT ids).
 */
export async function seedJobs(
  db: D1Database,
  employerId: number,
  count: number,
  overrides: SeedJobOverrides = {},
): Promise<number[]> {
  const publishDate = overrides.publishDate ?? Math.floor(Date.now() / 1000);
  const values: SeedJobOverrides = {
    status: "active",
    publishDate,
    closeDate: publishDate + 60 * DAY,
    createdAt: publishDate,
    updatedAt: publishDate,
    ...overrides,
  };
  const names: string[] = ["employer_id"];
  const selects: string[] = ["?2"];
  const params: unknown[] = [count, employerId];
  if (values.title === undefined) {
    names.push("title");
    selects.push("'Seeded job ' || n");
  }
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    names.push(columns[key as keyof typeof columns].name);
    params.push(typeof value === "boolean" ? Number(value) : value);
    selects.push(`?${params.length}`);
  }
  const result = await db
    .prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 WHERE ?1 > 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
       INSERT INTO jobs (${names.join(", ")}) SELECT ${selects.join(", ")} FROM seq`,
    )
    .bind(...params)
    .run();
  // Not meta.changes: D1 counts the rows the jobs triggers write there too.
  const last = result.meta.last_row_id;
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}
