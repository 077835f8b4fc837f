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

/**
 * DESIGN 6b: D1 caps a string or BLOB value at 2 000 000 bytes, a bound JSON list included
 * (local SQLite allows far more, so nothing local would notice). A list of rows is cut into
 * JSON texts of at most this many bytes, well below the cap.
 */
export const MAX_JSON_LIST_BYTES = 1_000_000;

const encoder = new TextEncoder();

/**
 * Rows for one set-based statement each: `from` is a FROM source named `r` (`r.key` each row's
 * position in it), `member` reads a member of the current row (null when left out), `has` tells
 * a member left out from one that is null.
 */
export interface RowSource<T> {
  rows: readonly T[];
  from: SQL;
  member: (name: keyof T & string) => SQL;
  has: (name: keyof T & string) => SQL;
}

const memberPath = (name: string) => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Not a member name for a JSON path: ${name}`);
  return sql.raw(`'$.${name}'`);
};

/**
 * Rows as few row sources as D1's cap on a value allows, in order: as many rows as fit in
 * MAX_JSON_LIST_BYTES go as ONE JSON parameter (json_each); a row larger than that by itself
 * (a job with two descriptions near their own cap) is bound member by member, each member a
 * value of its own as a statement for that one row would bind it.
 */
export function rowSources<T extends object>(rows: readonly T[], maxBytes = MAX_JSON_LIST_BYTES): RowSource<T>[] {
  const sources: RowSource<T>[] = [];
  let texts: string[] = [];
  let chunk: T[] = [];
  let bytes = 2;
  const flush = () => {
    if (chunk.length) sources.push(jsonSource(chunk, `[${texts.join(",")}]`));
    texts = [];
    chunk = [];
    bytes = 2;
  };
  for (const row of rows) {
    const text = JSON.stringify(row);
    const size = encoder.encode(text).byteLength;
    if (size + 2 > maxBytes) {
      flush();
      sources.push(boundSource(row));
      continue;
    }
    if (bytes + size + 1 > maxBytes) flush();
    texts.push(text);
    chunk.push(row);
    bytes += size + 1;
  }
  flush();
  return sources;
}

function jsonSource<T extends object>(rows: T[], json: string): RowSource<T> {
  return {
    rows,
    from: sql`json_each(${json}) r`,
    member: (name) => sql`json_extract(r.value, ${memberPath(name)})`,
    has: (name) => sql`(json_type(r.value, ${memberPath(name)}) IS NOT NULL)`,
  };
}

function boundSource<T extends object>(row: T): RowSource<T> {
  const values = row as Record<string, unknown>;
  return {
    rows: [row],
    from: sql`(SELECT 0 AS key) r`,
    member: (name) => sql`${values[name] ?? null}`,
    has: (name) => sql.raw(name in values ? "1" : "0"),
  };
}
