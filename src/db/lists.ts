import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

// D1 binds at most 100 parameters per statement (DESIGN 6b): a list of any length reaches SQL
// as ONE bound JSON text, which SQLite's json_each reads back as rows (`key` = the position,
// `value` = the member). A list of 10 000 costs the same one parameter as a list of 1.

/** The list as a table-valued source of rows, for `FROM` or `JOIN`. */
export function jsonRows(values: readonly unknown[]): SQL {
  return sql`json_each(${JSON.stringify(values)})`;
}

/**
 * `expression IN (the list)`. SQLite still searches an index on `expression` once per member,
 * as it would for `IN (?, ?, …)`; an empty list matches nothing.
 */
export function inList(expression: SQLWrapper, values: readonly (string | number)[]): SQL {
  return sql`${expression} IN (SELECT value FROM ${jsonRows(values)})`;
}
