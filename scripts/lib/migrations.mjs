// Every D1 database's migrations (DESIGN 10, 17, 22), for the scripts that need the schema.
import { migrateShards } from "./shards.mjs";
import { ACCOUNTS_DATABASE, ALERTS_DATABASE, BOARD_DATABASE, target, withRetries, wrangler } from "./wrangler.mjs";

/**
 * Idempotent: applies whatever migrations in drizzle/ (every shard, each then claimed),
 * drizzle/board/, drizzle/alerts/ (DESIGN 23) and drizzle/accounts/ (DESIGN 25) the target has not seen yet. Only what a ledger lacks is applied, so after a
 * refusal sending it again is safe.
 */
export function applyMigrations(remote, extraArgs = []) {
  migrateShards(remote, extraArgs);
  withRetries(() => wrangler(["d1", "migrations", "apply", BOARD_DATABASE, ...target(remote), ...extraArgs]), false);
  withRetries(() => wrangler(["d1", "migrations", "apply", ALERTS_DATABASE, ...target(remote), ...extraArgs]), false);
  withRetries(() => wrangler(["d1", "migrations", "apply", ACCOUNTS_DATABASE, ...target(remote), ...extraArgs]), false);
}
