import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Storage is isolated per test file; each file starts from the migrated, seeded schema.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.BOARD_DB, env.TEST_BOARD_MIGRATIONS);
