import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { toStatement } from "./client";

// A table read a window at a time in the order of one index (DESIGN 6a, 22): what the cron's
// chunked rules (src/scheduled/chunks.ts) and every capability's pruning work through.

/**
 * A rule with conditions beyond its index's range reads this many rows for each it may change, so
 * the rows it leaves as they are (jobs already noticed, of standard-plan employers) cost little.
 */
const READ_AHEAD = 4;

/** A chunk of a rule: how many rows it may change, after which row of the rule's window (null: from its start). */
export interface Chunk {
  rows: number;
  after: { key: number; id: number } | null;
}

/**
 * A rule's rows in the order of the index that answers `range`: `key` is that index's column after
 * its equality terms, and the rowid `id` ends every index, so (key, id) orders it whole and a chunk
 * reads it from where the last one stopped up to its LIMIT, never sorting it, never scanning. With
 * `other` conditions, the chunk reads READ_AHEAD times its rows and changes the first of them that
 * meet those.
 */
export function windowOf({ table, key, range, other, id = sql`rowid` }: { table: SQLiteTable; key: SQLiteColumn; range: SQL; other?: SQL; id?: SQLiteColumn | SQL }) {
  const first = (select: SQL | SQLiteColumn, from: SQL, limit: number, offset = 0) => sql`SELECT ${select} ${from} ORDER BY ${key}, ${id} LIMIT ${limit} OFFSET ${offset}`;
  const position = sql`${key} AS key, ${id} AS id`;
  return ({ rows, after }: Chunk) => {
    const read = sql`FROM ${table} WHERE ${range}${after ? sql` AND (${key}, ${id}) > (${after.key}, ${after.id})` : sql``}`;
    if (!other) return { ids: first(id, read, rows), last: first(position, read, 1, rows - 1) };
    const reads = rows * READ_AHEAD;
    const chosen = sql`FROM ${table} WHERE ${id} IN (${first(id, read, reads)}) AND ${other}`;
    return {
      ids: first(id, chosen, rows),
      // The last row changed when the chunk is full, else the last row read when as many were read.
      last: sql`SELECT key, id FROM (SELECT * FROM (${first(position, chosen, 1, rows - 1)}) UNION ALL SELECT * FROM (${first(position, read, 1, reads - 1)}))
        ORDER BY key, id LIMIT 1`,
    };
  };
}

export type Query = Parameters<typeof toStatement>[1];

/**
 * One chunk's work: `last` selects where the next chunk starts (nothing when this one came back
 * short), then its statements, events first and the change last; `after` (optional) runs once the
 * change's own count is read, in the same batch.
 */
export interface ChunkWork {
  last: SQL;
  statements: Query[];
  after?: Query[];
}

