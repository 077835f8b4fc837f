import { sql } from "drizzle-orm";
import { toStatement, type Database } from "../db/client";
import { movedToColumn, ofUnlockedEmployer, throwIfMoved } from "../shards/locks";

// DESIGN 22, 25: the shard's list of its employers' API keys (api_keys), as the console reads
// and changes it. A key's "space" is the employer it names: the live employer, or its test space.

export interface KeyRow {
  hash: string;
  employerId: number;
  prefix: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
}

/** The employer and its test space (when it has one): the spaces whose keys are its. */
export interface KeySpaces {
  live: number;
  test?: number;
}

const COLUMNS = sql`hash, employer_id AS employerId, prefix, created_at AS createdAt, last_used_at AS lastUsedAt, expires_at AS expiresAt`;
const ofSpaces = (spaces: KeySpaces) => sql`employer_id IN (${spaces.live}, ${spaces.test ?? spaces.live})`;
/** A rolled key past its end works no more (its KV entry expired): it is no longer one of the employer's keys. */
const working = (now: number) => sql`(expires_at IS NULL OR expires_at > ${now})`;

/** The spaces' keys, newest first; in one round trip, whether the employer moved away from this shard (served again where it lives). */
export async function listKeyRows(db: Database, spaces: KeySpaces, now: number): Promise<KeyRow[]> {
  const [list, employer] = await db.$client.batch([
    toStatement(db, sql`SELECT ${COLUMNS} FROM api_keys WHERE ${ofSpaces(spaces)} AND ${working(now)} ORDER BY created_at DESC, hash`),
    toStatement(db, sql`SELECT ${movedToColumn(spaces.live)}`),
  ]);
  throwIfMoved(employer.results[0] as { movedTo: number | null });
  return list.results as unknown as KeyRow[];
}

export async function findKeyRow(db: Database, spaces: KeySpaces, prefix: string, now: number): Promise<KeyRow | undefined> {
  const [row] = await db.all<KeyRow>(sql`SELECT ${COLUMNS} FROM api_keys WHERE ${ofSpaces(spaces)} AND prefix = ${prefix} AND ${working(now)}`);
  return row;
}

/**
 * One batch: the rows of the spaces' rolled keys past their end go, and the new key is listed
 * unless its prefix is taken in its space. Whether it was listed.
 */
export async function insertKeyRow(db: Database, spaces: KeySpaces, row: { hash: string; employerId: number; prefix: string; createdAt: number }): Promise<boolean> {
  const [, inserted] = await db.$client.batch([
    toStatement(db, sql`DELETE FROM api_keys WHERE ${ofSpaces(spaces)} AND expires_at < ${row.createdAt}`),
    toStatement(db, sql`INSERT INTO api_keys (hash, employer_id, prefix, created_at) VALUES (${row.hash}, ${row.employerId}, ${row.prefix}, ${row.createdAt}) ON CONFLICT DO NOTHING`),
  ]);
  return inserted.meta.changes === 1;
}

export async function deleteKeyRow(db: Database, hash: string): Promise<void> {
  await db.run(sql`DELETE FROM api_keys WHERE hash = ${hash}`);
}

/** Marks the key's end, unless it has one already (rolled before); whether it was marked. */
export async function markKeyEnd(db: Database, hash: string, end: number): Promise<boolean> {
  const result = await db.run(sql`UPDATE api_keys SET expires_at = ${end} WHERE hash = ${hash} AND expires_at IS NULL`);
  return result.meta.changes === 1;
}

export async function clearKeyEnd(db: Database, hash: string): Promise<void> {
  await db.run(sql`UPDATE api_keys SET expires_at = NULL WHERE hash = ${hash}`);
}

/**
 * The key was used in the hour starting `hour`, unless that is recorded already (by another
 * isolate). A moving employer's use is not recorded: its rows' triggers would refuse the write.
 */
export async function recordKeyUse(db: Database, hash: string, hour: number): Promise<void> {
  await db.run(sql`UPDATE api_keys SET last_used_at = ${hour} WHERE hash = ${hash} AND (last_used_at IS NULL OR last_used_at < ${hour}) AND ${ofUnlockedEmployer(sql`employer_id`)}`);
}
