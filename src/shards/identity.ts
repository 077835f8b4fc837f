// DESIGN 22: every id that appears in a URL or a payload is unique across shards: shard k numbers
// its rows from k × 2^27 + 1 (ids stay Int32, so at most 16 shards), set once when the shard is
// first migrated, so nothing is renumbered when an employer moves. For `npm run dev`, the deploy
// and the tests alike, which run this SQL through wrangler or a binding: no imports, so Node runs
// this module as it is.

export const SHARD_ID_SPAN = 2 ** 27;
export const MAX_SHARDS = 16;

/** The binding of shard k: DB for 0 (so a one-shard deployment is unchanged), DB_k for the others. */
export const shardBinding = (shard: number) => (shard === 0 ? "DB" : `DB_${shard}`);

function checked(shard: number): number {
  if (!Number.isSafeInteger(shard) || shard < 0 || shard >= MAX_SHARDS) throw new RangeError(`a shard is 0 to ${MAX_SHARDS - 1}: ${shard}`);
  return shard;
}

/**
 * Makes a migrated database shard k, once: records k, and starts every AUTOINCREMENT table's
 * numbering (wrangler's own ledger aside) at the shard's range. Running it again changes nothing;
 * on a database that is another shard it changes nothing either (shardOfDatabaseSql tells).
 */
export function claimShardStatements(shard: number): string[] {
  const floor = checked(shard) * SHARD_ID_SPAN;
  const mine = `(SELECT shard FROM shard_identity WHERE id = 1) = ${shard}`;
  return [
    `INSERT INTO shard_identity (id, shard) VALUES (1, ${shard}) ON CONFLICT (id) DO NOTHING`,
    `INSERT INTO sqlite_sequence (name, seq) SELECT name, ${floor} FROM sqlite_master
      WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' AND name NOT LIKE 'd1\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'
        AND name NOT IN (SELECT name FROM sqlite_sequence) AND ${mine}`,
    `UPDATE sqlite_sequence SET seq = ${floor} WHERE seq < ${floor} AND name NOT LIKE 'd1\\_%' ESCAPE '\\' AND ${mine}`,
  ];
}

/** The same as one SQL text, for `wrangler d1 execute --command`. */
export const claimShardSql = (shard: number) => claimShardStatements(shard).join(";\n");

/** Which shard a database is: one row `{ shard }`, none before it was claimed. */
export const shardOfDatabaseSql = "SELECT shard FROM shard_identity WHERE id = 1";
