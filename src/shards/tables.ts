import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { MOVE_STAGES } from "./move-stages";

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

/**
 * DESIGN 22: a move of an employer (its test space with it) out of this shard, written by the
 * move itself (src/shards/move.ts) in the same batch as each stage's own change, so that running
 * the move again after it was stopped resumes from the stage recorded. Kept once done: a later
 * move of the same employer out of this shard writes over it.
 */
export const shardMoves = sqliteTable(
  "shard_moves",
  {
    employerId: integer("employer_id").primaryKey(),
    /** The shard it goes to. */
    toShard: integer("to_shard").notNull(),
    /** The last stage completed (src/shards/move-stages.ts). */
    stage: text("stage", { enum: MOVE_STAGES }).notNull(),
    /** When the employer was frozen (ms): its employers rows carry the same frozen_at. */
    frozenAt: integer("frozen_at").notNull(),
    /** Rows copied to the target, as the copy counted them (null until copied). */
    rows: integer("rows"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [check("shard_moves_stage", sql`${t.stage} IN (${sql.raw(MOVE_STAGES.map((stage) => `'${stage}'`).join(", "))})`)],
);
