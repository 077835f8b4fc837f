import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { claimShardStatements } from "../../src/shards/identity";

// Storage is isolated per test file; each file starts from the migrated, seeded schema: both
// shards of the employer side (DESIGN 22), each claimed as `npm run dev` claims it, the board,
// job alerts' own database (DESIGN 23) and the console's (DESIGN 25).
for (const [shard, d1] of [env.DB, env.DB_1!].entries()) {
  await applyD1Migrations(d1, env.TEST_MIGRATIONS);
  await d1.batch(claimShardStatements(shard).map((statement) => d1.prepare(statement)));
}
await applyD1Migrations(env.BOARD_DB, env.TEST_BOARD_MIGRATIONS);
await applyD1Migrations(env.ALERTS_DB, env.TEST_ALERTS_MIGRATIONS);
// The employer console's own database (DESIGN 25).
await applyD1Migrations(env.ACCOUNTS_DB, env.TEST_ACCOUNTS_MIGRATIONS);
