import type { SQL } from "drizzle-orm";
import { createDatabaseOf, toStatement } from "../../db/client";
import * as tables from "./tables";

// The board's own database (BOARD_DB, DESIGN 17). Only src/board reaches it, through here.

export const createBoardDatabase = (d1: D1Database | D1DatabaseSession) => createDatabaseOf(d1, tables);
export type BoardDatabase = ReturnType<typeof createBoardDatabase>;

const statementOf = (db: BoardDatabase, query: SQL) => toStatement(db, query);

export async function all<T>(db: BoardDatabase, query: SQL): Promise<T[]> {
  return (await statementOf(db, query).all<T>()).results;
}

/** One round trip, atomic. */
export async function batch(db: BoardDatabase, queries: SQL[]): Promise<D1Result[]> {
  if (queries.length === 0) return [];
  return db.$client.batch(queries.map((query) => statementOf(db, query)));
}
