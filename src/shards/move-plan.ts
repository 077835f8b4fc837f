// DESIGN 22, 22b: what moving an employer copies, checks and deletes, table by table, as SQL text
// with bound values for the move's runner (src/shards/move-bindings.ts). Ids are unique across shards, so every row keeps its
// id; a table's columns are read from the database itself (pragma_table_info), the same in every
// shard since every shard has the same migrations.

export type SqlValue = string | number | null;
export interface Statement {
  sql: string;
  params: SqlValue[];
}
export type Row = Record<string, SqlValue>;

/** `E`: the moved employer ids (the employer, and its test space when it has one), written in. */
type Rows = (ids: string) => string;

export interface MovedTable {
  table: string;
  /** The employer's rows, by an index of the table (never a scan of every employer's rows). */
  rows: Rows;
  /** The primary key: a copy sent again updates the row it copied before. */
  key: string[];
  /** AUTOINCREMENT: its ids are numbered in the shard that made the row (the move checks they fit the target). */
  numbered?: boolean;
  /** Columns the move itself sets, left out of the comparison. */
  ownColumns?: string[];
  /** What the copy writes instead of a column's value (the comparison reads the same on both sides). */
  copied?: Record<string, string>;
}

const employerId: Rows = (ids) => `employer_id IN (${ids})`;
const jobsOf = (ids: string) => `SELECT id FROM jobs WHERE employer_id IN (${ids})`;
const ofJobs: Rows = (ids) => `job_id IN (${jobsOf(ids)})`;
// Through their jobs: applications have no index of their own on employer_id.
const applicationsOf = (ids: string) => `SELECT id FROM applications WHERE job_id IN (${jobsOf(ids)})`;
const ofApplications: Rows = (ids) => `application_id IN (${applicationsOf(ids)})`;

/**
 * Every employer-side table the move takes, parents before children (the order of the copy; the
 * delete goes backwards). test/shards-move.test.ts checks that every table naming an employer, a
 * job or an application is here or in LEFT_BEHIND.
 */
export const MOVED_TABLES: MovedTable[] = [
  // The employer first (its test space's row after it: test_of names it), a locked row until the
  // flip: its lock columns are the move's own, written by each batch's last statement.
  {
    table: "employers",
    rows: (ids) => `id IN (${ids})`,
    key: ["id"],
    numbered: true,
    ownColumns: ["frozen_at", "moved_to"],
    copied: { frozen_at: "NULL", moved_to: "NULL" },
  },
  { table: "api_keys", rows: employerId, key: ["hash"] },
  { table: "locations", rows: (ids) => `owner_employer_id IN (${ids})`, key: ["id"], numbered: true },
  { table: "jobs", rows: employerId, key: ["id"], numbered: true },
  { table: "job_locations", rows: ofJobs, key: ["job_id", "location_id"] },
  { table: "job_categories", rows: ofJobs, key: ["job_id", "category_id"] },
  { table: "job_expiry_notices", rows: ofJobs, key: ["job_id"] },
  { table: "job_views", rows: ofJobs, key: ["job_id", "day"] },
  // Reports of its jobs (a report of a job deleted before the move stays where it was filed;
  // `npm run reports` reads every shard).
  { table: "job_reports", rows: ofJobs, key: ["id"], numbered: true },
  { table: "applications", rows: (ids) => `job_id IN (${jobsOf(ids)})`, key: ["id"], numbered: true },
  { table: "application_history", rows: ofApplications, key: ["id"], numbered: true },
  { table: "applicant_emails", rows: ofApplications, key: ["id"], numbered: true },
  { table: "webhook_endpoints", rows: employerId, key: ["id"], numbered: true },
  // A message waiting in the queue names the old shard, where it is gone by then: the target's
  // cron sweep hands every pending one over again (a message may then be attempted twice, as
  // at-least-once allows; its webhook-id is the same).
  {
    table: "webhook_messages",
    rows: (ids) => `endpoint_id IN (SELECT id FROM webhook_endpoints WHERE employer_id IN (${ids}))`,
    key: ["id"],
    copied: { enqueued_at: "CASE WHEN status = 'pending' THEN NULL ELSE enqueued_at END" },
  },
  { table: "idempotency_keys", rows: employerId, key: ["employer_id", "key"] },
];

/** Employer-side tables the move leaves, and why. */
export const LEFT_BEHIND: Record<string, string> = {
  events:
    "the outbox stays where its events were recorded: that shard's relay hands them over (the webhooks fan-out follows moved_to) and its retention removes them after a week",
  job_counts: "kept by the jobs triggers, in the target as the copy inserts jobs, in the source as the delete removes them",
  job_report_tallies: "kept by the job_reports triggers, in the target as the copy inserts reports, in the source as the delete removes them",
  resume_deletions: "keys of résumés already gone, of no employer",
  move_capture: "a move's own: which employers the shard records the changes of while they move out",
  move_changes: "a move's own record of an employer's changes while it moves out, deleted when it is done",
};

/** Rows per statement and per batch, at most (DESIGN 22: bounded batches). */
export const MAX_ROWS = 500;
/** A text longer than this is written in pieces (a statement's SQL stays far under D1's 100 KB once values are written in). */
export const PIECE_CHARS = 16_000;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The moved ids (the employer and its test space) as a subquery, for a statement read before they are known. */
export const idsOf = (employerId: number) => `SELECT id FROM employers WHERE id = ${idList([employerId])} OR test_of = ${idList([employerId])}`;

/** A list of ids as SQL text: whole numbers only, so nothing else is ever written into SQL here. */
export function idList(ids: readonly number[]): string {
  if (ids.length === 0 || !ids.every((id) => Number.isSafeInteger(id) && id > 0)) throw new RangeError(`not a list of ids: ${ids.join(", ")}`);
  return ids.join(", ");
}

/** The columns of every moved table, in order, as the database has them. */
export const columnsStatements = (): Statement[] =>
  MOVED_TABLES.map(({ table }) => ({ sql: `SELECT name FROM pragma_table_info('${table}') ORDER BY cid`, params: [] }));

/** What the copy and the comparison read of a column: the column, or what the copy writes instead. */
const readOf = (table: MovedTable, column: string) => (table.copied?.[column] ? `${table.copied[column]} AS ${quoted(column)}` : quoted(column));

/**
 * The next page of the employer's rows after `after` (a rowid of this shard), in rowid order: at
 * most MAX_ROWS, and no more than `bytes` of values once the first is in (octet_length reads a
 * value's size from the row's header, not the value). Each row ends with `_rowid`, and
 * `_candidates`: the rows the page was cut from (fewer in the page, or MAX_ROWS: more may follow).
 * With `keys` (JSON, a list of keys as keyOf writes them): only the employer's rows of those keys.
 */
export function pageStatement(table: MovedTable, columns: string[], ids: string, after: number, bytes: number, keys?: string): Statement {
  const size = columns.map((column) => `coalesce(octet_length(${quoted(column)}), 0)`).join(" + ");
  const ofKeys = keys === undefined ? "" : ` AND ${keyMatch(table)}`;
  return {
    sql: `SELECT * FROM (
        SELECT ${columns.map((column) => readOf(table, column)).join(", ")}, rowid AS _rowid, ${size} AS _bytes,
          sum(${size}) OVER (ORDER BY rowid) AS _upto, count(*) OVER () AS _candidates
        FROM ${table.table} WHERE rowid IN (SELECT rowid FROM ${table.table} WHERE (${table.rows(ids)})${ofKeys} AND rowid > ? ORDER BY rowid LIMIT ${MAX_ROWS})
      ) WHERE _upto - _bytes < ? ORDER BY _rowid`,
    params: keys === undefined ? [after, bytes] : [keys, after, bytes],
  };
}

/** A row's key, as the capture triggers of drizzle/0030 write it (a JSON array of its key columns' values). */
export const keyOf = (table: MovedTable, row: Row): string => JSON.stringify(table.key.map((column) => row[column] ?? null));

/** The table's rows whose keys are in the JSON list bound here (each key as keyOf writes it). */
const keyMatch = (table: MovedTable) =>
  `(${table.key.map(quoted).join(", ")}) IN (SELECT ${table.key.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?))`;

/** The rows of these keys deleted (keys: a JSON list of keys as keyOf writes them). */
export const deleteKeysStatement = (table: MovedTable, keys: string): Statement => ({ sql: `DELETE FROM ${table.table} WHERE ${keyMatch(table)}`, params: [keys] });

/** A column that names a row of another moved table, which must be in the target before it. */
export interface Parent {
  column: string;
  table: string;
  key: string;
}

/** Each moved table's foreign keys, as the database has them (the same in every shard). */
export const foreignKeysStatements = (): Statement[] =>
  MOVED_TABLES.map(({ table }) => ({ sql: `SELECT "from" AS "column", "table", coalesce("to", 'id') AS "key" FROM pragma_foreign_key_list('${table}') ORDER BY id, seq`, params: [] }));

/** Of a table's foreign keys, those naming a moved table (reference data is in every shard). */
export const movedParents = (rows: Row[]): Parent[] =>
  rows.map((row) => ({ column: String(row.column), table: String(row.table), key: String(row.key) })).filter((parent) => MOVED_TABLES.some((table) => table.table === parent.table));

/** Whether rows may follow a page read with pageStatement. */
export const pageIsCut = (page: Row[]): boolean => page.length > 0 && (page.length < Number(page[0]._candidates) || Number(page[0]._candidates) >= MAX_ROWS);

/** How many of the employer's rows each moved table holds, in one statement each. */
export const countStatements = (ids: string): Statement[] =>
  MOVED_TABLES.map((table) => ({ sql: `SELECT count(*) AS n FROM ${table.table} WHERE ${table.rows(ids)}`, params: [] }));

/** The largest id of the employer's rows in each numbered table: the shard numbering after it must still be the target's own. */
export const highestIdStatements = (ids: string): Statement[] =>
  MOVED_TABLES.filter((table) => table.numbered).map((table) => ({ sql: `SELECT max(id) AS id FROM ${table.table} WHERE ${table.rows(ids)}`, params: [] }));

/** The employers' lock: both null is no lock (the move's own batches clear it, then set it again). */
export interface Lock {
  frozenAt: number | null;
  movedTo: number | null;
}
export const setLock = (ids: string, lock: Lock): Statement => ({
  sql: `UPDATE employers SET frozen_at = ?, moved_to = ? WHERE id IN (${ids})`,
  params: [lock.frozenAt, lock.movedTo],
});

/** Splits a long text where no UTF-16 pair is cut. */
function pieces(text: string): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + PIECE_CHARS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts;
}

/**
 * A row written in the target as it is in the source: inserted, or, when a copy sent before wrote
 * it already, updated to it; a long text goes in pieces, the first with the row, the rest appended.
 * With `parents` (DESIGN 22b, a copy while the employer writes): inserted only where the rows it
 * names are in the target. A row whose parent came after the parent's table was copied is new
 * since the copy began, so the change record brings it, after its parent, in a catch-up round.
 */
export function upsertStatements(table: MovedTable, columns: string[], row: Row, parents: Parent[] = []): Statement[] {
  const values = columns.map((column) => row[column] ?? null);
  const rest: { column: string; parts: string[] }[] = [];
  const first = values.map((value, i) => {
    if (typeof value !== "string" || value.length <= PIECE_CHARS) return value;
    const [head, ...tail] = pieces(value);
    rest.push({ column: columns[i], parts: tail });
    return head;
  });
  const others = columns.filter((column) => !table.key.includes(column));
  const onConflict = others.length
    ? `DO UPDATE SET ${others.map((column) => `${quoted(column)} = excluded.${quoted(column)}`).join(", ")}`
    : "DO NOTHING";
  const byKey = table.key.map((column) => `${quoted(column)} = ?`).join(" AND ");
  const keyValues = table.key.map((column) => row[column] ?? null);
  const named = parents.filter((parent) => row[parent.column] != null);
  const placeholders = columns.map(() => "?").join(", ");
  // SQLite needs the WHERE of an INSERT … SELECT before an ON CONFLICT clause, "WHERE true" at least.
  const source = named.length
    ? `SELECT ${placeholders} WHERE ${named.map((parent) => `EXISTS (SELECT 1 FROM ${parent.table} WHERE ${quoted(parent.key)} = ?)`).join(" AND ")}`
    : `VALUES (${placeholders})`;
  return [
    {
      sql: `INSERT INTO ${table.table} (${columns.map(quoted).join(", ")}) ${source} ON CONFLICT (${table.key.map(quoted).join(", ")}) ${onConflict}`,
      params: [...first, ...named.map((parent) => row[parent.column] ?? null)],
    },
    ...rest.flatMap(({ column, parts }) =>
      parts.map((part) => ({ sql: `UPDATE ${table.table} SET ${quoted(column)} = ${quoted(column)} || ? WHERE ${byKey}`, params: [part, ...keyValues] })),
    ),
  ];
}

/**
 * The next MAX_ROWS of the employer's rows deleted from the source, and how many went. An
 * application's résumé key is cleared first: its résumé moved with it, and the delete trigger
 * would otherwise list the key for the cron to delete from the bucket.
 */
export function deleteStatements(table: MovedTable, ids: string): Statement[] {
  const next = `rowid IN (SELECT rowid FROM ${table.table} WHERE ${table.rows(ids)} ORDER BY rowid LIMIT ${MAX_ROWS})`;
  return [
    ...(table.table === "applications" ? [{ sql: `UPDATE applications SET resume_key = NULL WHERE ${next} AND resume_key IS NOT NULL`, params: [] }] : []),
    { sql: `DELETE FROM ${table.table} WHERE ${next}`, params: [] },
    { sql: "SELECT changes() AS deleted", params: [] },
  ];
}

/** UTF-8 bytes of a text, without encoding it. */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? (i++, 4) : 3;
  }
  return bytes;
}

/** About how much SQL text a statement is once its values are written in (a quote doubled counts twice). */
export function statementBytes(statement: Statement): number {
  return statement.params.reduce<number>((bytes, value) => bytes + (typeof value === "string" ? utf8Bytes(value) + 2 : 24), statement.sql.length);
}

/**
 * A row's fingerprint for the comparison: the first 8 bytes of the SHA-256 of its compared values
 * as JSON. A table's digest is the sum of its rows' (mod 2^64): the order rows are read in, which
 * differs between shards, does not matter.
 */
export async function rowDigest(values: SqlValue[]): Promise<bigint> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(values))));
  return hash.slice(0, 8).reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
}
