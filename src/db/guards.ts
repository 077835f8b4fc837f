import { sql, type SQL } from "drizzle-orm";

// `write_guards` (drizzle/0005, 0014): D1 has no BEGIN, so a batch cannot stop itself halfway
// on a condition; inserting into this view can. The whole batch is rolled back when the
// condition is false, and the error names the reason, so the caller learns why nothing was
// written. Each reason has its trigger in a migration.

export type GuardReason = "revision" | "place_limit" | "employer" | "posting_rules" | "suspended";

export const guard = (condition: SQL, reason: GuardReason) => sql`INSERT INTO write_guards (passed, reason) VALUES (${condition}, ${reason})`;

/** The reason of the guard that stopped a batch, if one did. */
export function guardReason(error: unknown): GuardReason | undefined {
  const message = error instanceof Error ? error.message : "";
  return /write_guard:(revision|place_limit|employer|posting_rules|suspended)/.exec(message)?.[1] as GuardReason | undefined;
}
