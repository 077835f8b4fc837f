import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
 * DESIGN 22b: the employers (an employer and its test space) whose changes this shard records
 * while the Worker moves them elsewhere (src/shards/online-move.ts). Written by the move when it
 * starts copying, removed in the batch of its flip; the triggers of drizzle/0030 read it.
 */
export const moveCapture = sqliteTable("move_capture", {
  employerId: integer("employer_id").primaryKey(),
  /** The employer being moved (its own id, or its test space's employer). */
  moveOf: integer("move_of").notNull(),
});

/**
 * DESIGN 22b: the shard's own record of what changed of an employer being moved: one row per
 * change of a moved table's row (its table and key), written by triggers in the batch of the
 * change, in commit order (seq only grows). The move copies those rows again in catch-up rounds.
 */
export const moveChanges = sqliteTable(
  "move_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    moveOf: integer("move_of").notNull(),
    /** The moved table (src/shards/move-plan.ts MOVED_TABLES). */
    table: text("tbl").notNull(),
    /** The row's key as a JSON array of its key columns' values. */
    key: text("key").notNull(),
  },
  (t) => [index("move_changes_move_idx").on(t.moveOf, t.seq)],
);
