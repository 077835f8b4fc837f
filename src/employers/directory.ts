import { sql } from "drizzle-orm";
import { createDatabase, type Database } from "../db/client";
import type { Env } from "../env";
import { shardDatabase, shardNumbers } from "../shards/bindings";

// DESIGN 22, 26: employers across every shard, for the operator — found by name or id, created
// (in the shard with the fewest employers, as `npm run keys -- create` chooses), their plan
// changed. Each employer lives in one shard; a moved one left tombstones (moved_to) elsewhere and
// a test space is an employer row of its own (test_of): neither is a live employer.

export const PLANS = ["standard", "unlimited"] as const;
export type Plan = (typeof PLANS)[number];
/** employers_name_length (src/db/schema.ts). */
export const EMPLOYER_NAME_MAX = 128;

export interface LiveEmployer {
  id: number;
  name: string;
  plan: Plan;
  /** Seconds since the epoch (employers.created_at). */
  createdAt: number;
  shard: number;
  /** When the operator suspended it (ms), or null (src/employers/suspension.ts). */
  suspendedAt: number | null;
}

const LIVE = sql.raw("test_of IS NULL AND moved_to IS NULL");
const COLUMNS = sql.raw("id, name, plan, created_at AS createdAt, suspended_at AS suspendedAt");

const shardDb = (env: Env, shard: number): Database => createDatabase(shardDatabase(env, shard));

/** Runs `read` in every shard at once; each row with its shard. */
async function inEveryShard<T>(env: Env, read: (db: Database) => Promise<T[]>): Promise<(T & { shard: number })[]> {
  const shards = shardNumbers(env);
  const found = await Promise.all(shards.map(async (shard) => (await read(shardDb(env, shard))).map((row) => ({ ...row, shard }))));
  return found.flat();
}

/**
 * Live employers whose name starts with `q` (any case of ASCII letters, from
 * employers_name_search_idx) or, when `q` is a number, whose id it is: at most `limit`, by name.
 */
export async function searchEmployers(env: Env, q: string, limit: number): Promise<LiveEmployer[]> {
  const term = q.trim();
  if (!term) return [];
  const id = /^[1-9][0-9]{0,9}$/.test(term) ? Number(term) : undefined;
  // Every name starting with `term` sorts between it and it followed by the last code point.
  const byName = sql`name COLLATE NOCASE >= ${term} AND name COLLATE NOCASE < ${`${term}\u{10FFFF}`}`;
  const rows = await inEveryShard(env, (db) =>
    db.all<Omit<LiveEmployer, "shard">>(sql`SELECT ${COLUMNS} FROM employers WHERE ${byName} AND ${LIVE} ORDER BY name COLLATE NOCASE LIMIT ${limit}`),
  );
  const exact = id === undefined ? [] : await inEveryShard(env, (db) => db.all<Omit<LiveEmployer, "shard">>(sql`SELECT ${COLUMNS} FROM employers WHERE id = ${id} AND ${LIVE}`));
  const byNameSorted = rows.sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.id - b.id);
  return [...exact, ...byNameSorted.filter((row) => row.id !== id)].slice(0, limit);
}

/** Live employer `id`, in whichever shard it lives; undefined when there is none. */
export async function findLiveEmployer(env: Env, id: number): Promise<LiveEmployer | undefined> {
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  const [found] = await inEveryShard(env, (db) => db.all<Omit<LiveEmployer, "shard">>(sql`SELECT ${COLUMNS} FROM employers WHERE id = ${id} AND ${LIVE}`));
  return found;
}

/** DESIGN 22: a new employer goes to the shard with the fewest live employers (the lowest number on a tie). */
async function emptiestShard(env: Env): Promise<number> {
  const counts = await inEveryShard(env, (db) => db.all<{ employers: number }>(sql`SELECT count(*) AS employers FROM employers WHERE ${LIVE}`));
  return counts.reduce((best, next) => (next.employers < best.employers ? next : best)).shard;
}

/** A new employer (no key: its admin makes keys in the console). `name` is trimmed, 1–128 characters. */
export async function createEmployer(env: Env, input: { name: string; plan: Plan }): Promise<LiveEmployer> {
  const shard = await emptiestShard(env);
  const [row] = await shardDb(env, shard).all<Omit<LiveEmployer, "shard">>(
    sql`INSERT INTO employers (name, plan, created_at) VALUES (${input.name.trim()}, ${input.plan}, unixepoch()) RETURNING ${COLUMNS}`,
  );
  return { ...row, shard };
}

/** The plan of live employer `id` (in its shard); false when there is no such employer. */
export async function changePlan(env: Env, id: number, plan: Plan): Promise<boolean> {
  const employer = await findLiveEmployer(env, id);
  if (!employer) return false;
  const changed = await shardDb(env, employer.shard).all(sql`UPDATE employers SET plan = ${plan} WHERE id = ${id} AND ${LIVE} RETURNING id`);
  return changed.length === 1;
}
