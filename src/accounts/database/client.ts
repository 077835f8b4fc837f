import type { SQL } from "drizzle-orm";
import { createDatabase, toStatement, type Database } from "../../db/client";

// The employer console's own database (ACCOUNTS_DB, DESIGN 25). Only src/accounts reaches it,
// through here and src/accounts/repository.ts.

declare const accountsDb: unique symbol;
/** Branded, so that the type checker refuses another database where the accounts' is meant. */
export type AccountsDatabase = Database & { readonly [accountsDb]: true };
export const createAccountsDatabase = (d1: D1Database) => createDatabase(d1) as AccountsDatabase;

/** The first row, or undefined. */
export async function first<T>(db: Database, query: SQL): Promise<T | undefined> {
  return (await toStatement(db, query).first<T>()) ?? undefined;
}

/** Every row. */
export async function all<T>(db: AccountsDatabase, query: SQL): Promise<T[]> {
  return (await toStatement(db, query).all<T>()).results;
}

export async function run(db: AccountsDatabase, query: SQL): Promise<D1Result> {
  return toStatement(db, query).run();
}

/** One round trip, atomic: a write touching several tables goes as one batch. */
export async function batch(db: AccountsDatabase, queries: SQL[]): Promise<D1Result[]> {
  if (queries.length === 0) return [];
  return db.$client.batch(queries.map((query) => toStatement(db, query)));
}
