import { sql, type SQL } from "drizzle-orm";

// D1 allows at most 32 arguments per SQL function (local SQLite allows more, so nothing local
// would notice): a JSON object of many members is built as one json_object of at most 16
// members, then json_insert calls adding at most 15 more each.

const FIRST = 16;
const MORE = 15;

/** `json_object(name, value, …)` for any number of members, within D1's 32 arguments per call. */
export function jsonObject(members: readonly (readonly [string, SQL])[]): SQL {
  const pairs = (list: readonly (readonly [string, SQL])[], path: boolean) =>
    sql.join(
      list.map(([name, value]) => sql`${sql.raw(`'${path ? "$." : ""}${name}'`)}, ${value}`),
      sql`, `,
    );
  let object = sql`json_object(${pairs(members.slice(0, FIRST), false)})`;
  for (let i = FIRST; i < members.length; i += MORE) object = sql`json_insert(${object}, ${pairs(members.slice(i, i + MORE), true)})`;
  return object;
}
