import { sql } from "drizzle-orm";
import { check, integer, sqliteTable } from "drizzle-orm/sqlite-core";

// DESIGN 22: which shard this database is (one row), written once when the shard is first
// migrated (src/shards/identity.ts), with the id range its rows are numbered from.
export const shardIdentity = sqliteTable(
  "shard_identity",
  {
    id: integer("id").primaryKey(),
    /** k of binding DB_k (0: DB). */
    shard: integer("shard").notNull(),
  },
  (t) => [check("shard_identity_one_row", sql`${t.id} = 1`), check("shard_identity_shard", sql`${t.shard} >= 0`)],
);
