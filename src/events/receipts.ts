import { sql, type SQL } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { windowOf, type Chunk, type ChunkWork } from "../db/windows";

// DESIGN 16a: a subscriber records each event it took, in the same batch as the effect, in its
// own database; the relay asks it (EventSubscriber.taken) which events it has not taken yet and
// hands those over again. Every subscriber's receipts have this shape, under its own table name.

/** A subscriber's receipts table (declared in its database's schema, migrated with it). */
export function receiptsTable(name: string) {
  return sqliteTable(
    name,
    {
      /** The shard whose outbox recorded the event (DESIGN 22). */
      shard: integer("shard").notNull(),
      eventId: text("event_id").notNull(),
      takenAt: integer("taken_at").notNull(),
    },
    (t) => [primaryKey({ columns: [t.shard, t.eventId] }), index(`${name}_taken_idx`).on(t.takenAt)],
  );
}
type ReceiptsTable = ReturnType<typeof receiptsTable>;

/** Receipts are kept past the events' own retention (a week), then pruned by their subscriber. */
export const RECEIPT_RETENTION_MS = 8 * 24 * 60 * 60 * 1000;
const RECEIPTS_PRUNED_PER_STATEMENT = 1_000;

/** One statement: receipts for `ids`, events of `shard`, taken at `now` (a receipt again changes nothing). */
export function takeEvents(table: ReceiptsTable, shard: number, ids: string[], now: number): SQL {
  return sql`INSERT INTO ${table} (shard, event_id, taken_at) SELECT ${shard}, value, ${now} FROM json_each(${JSON.stringify(ids)}) WHERE true
    ON CONFLICT DO NOTHING`;
}

/** One statement: which of `ids`, events of `shard`, were taken. */
export function takenAmong(table: ReceiptsTable, shard: number, ids: string[]): SQL {
  return sql`SELECT event_id AS id FROM ${table} WHERE shard = ${shard} AND event_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

/** A chunk of the receipts past their retention, for a cron stage that runs its upkeep in chunks (runChunked). */
export function expiredReceipts(table: ReceiptsTable, now: number, chunk: Chunk): ChunkWork {
  const { ids, last } = windowOf({ table, key: table.takenAt, range: sql`${table.takenAt} < ${now - RECEIPT_RETENTION_MS}` })(chunk);
  return { last, statements: [sql`DELETE FROM ${table} WHERE rowid IN (${ids})`] };
}

/** Statements of pruning per cron run at most: 10 000 receipts, a few ms each. */
const PRUNE_STATEMENTS_PER_RUN = 10;

/**
 * Receipts past their retention, RECEIPTS_PRUNED_PER_STATEMENT per statement (run by `run`, which
 * answers the rows it changed), until one comes back short or the run's share is done.
 */
export async function pruneReceipts(table: ReceiptsTable, now: number, run: (statement: SQL) => Promise<number>): Promise<number> {
  let pruned = 0;
  for (let i = 0; i < PRUNE_STATEMENTS_PER_RUN; i++) {
    const deleted = await run(sql`DELETE FROM ${table} WHERE rowid IN (
      SELECT rowid FROM ${table} WHERE taken_at < ${now - RECEIPT_RETENTION_MS} LIMIT ${RECEIPTS_PRUNED_PER_STATEMENT})`);
    pruned += deleted;
    if (deleted < RECEIPTS_PRUNED_PER_STATEMENT) break;
  }
  return pruned;
}
