import type { SQL } from "drizzle-orm";
import { createDatabase, toStatement, type Database } from "../../db/client";

// The board's own database (BOARD_DB, DESIGN 17). Only src/board reaches it, through here.

declare const board: unique symbol;
/** Branded, so that the type checker refuses DB's database where the board's is meant. */
export type BoardDatabase = Database & { readonly [board]: true };
export const createBoardDatabase = (d1: D1Database | D1DatabaseSession) => createDatabase(d1) as BoardDatabase;

const statementOf = (db: BoardDatabase, query: SQL) => toStatement(db, query);

export async function all<T>(db: BoardDatabase, query: SQL): Promise<T[]> {
  return (await statementOf(db, query).all<T>()).results;
}

/** One round trip, atomic. */
export async function batch(db: BoardDatabase, queries: SQL[]): Promise<D1Result[]> {
  if (queries.length === 0) return [];
  return db.$client.batch(queries.map((query) => statementOf(db, query)));
}
