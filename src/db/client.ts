import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export function createDatabase(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { schema });
}

export type Database = ReturnType<typeof createDatabase>;
