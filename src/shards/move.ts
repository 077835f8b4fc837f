// DESIGN 22, 22b: what moving an employer (its test space with it) between shards needs besides
// the move's own steps (src/shards/online-move.ts, run by the EmployerMove Durable Object): the
// shards and the keys as the move reaches them (MoveDatabases, KeyRecords: the Worker's bindings,
// move-bindings.ts), where the employer lives and whether it can move there (viewOf, locate,
// checkColumns, numberingProblem), batches within a runner's limits, and the API keys' records
// repointed after the flip.
import { SHARD_ID_SPAN } from "./identity";
import { columnsStatements, highestIdStatements, idsOf, MAX_ROWS, MOVED_TABLES, statementBytes, type Lock, type Row, type Statement } from "./move-plan";

/** The shards, reached by a runner: D1 bindings, or wrangler. */
export interface MoveDatabases {
  /** The shards bound, in order (0, 1 …). */
  readonly shards: readonly number[];
  /** Runs the statements in shard k as one atomic batch; the rows each statement returned. */
  batch(shard: number, statements: Statement[]): Promise<Row[][]>;
  /** The most SQL text one batch may carry once its values are written in (the runner's own limit). */
  readonly batchBytes: number;
}

/** The API keys' records in KV, by the SHA-256 of each key, read and written many at a time. */
export interface KeyRecords {
  /** These keys' records, parsed (null: no such key). */
  get(hashes: string[]): Promise<Map<string, unknown>>;
  put(records: Map<string, unknown>): Promise<void>;
  /** Every key's hash: read only for keys made before the shards listed them (api_keys). */
  hashes(): Promise<string[]>;
}

/** Refused before anything changed: the message says why. */
export class MoveRefused extends Error {}

/** The move cannot go on as things are (the shards disagree); the message says what needs a look. */
export class MoveFailed extends Error {}

export const UNLOCKED: Lock = { frozenAt: null, movedTo: null };
export const statement = (sql: string, ...params: Statement["params"]): Statement => ({ sql, params });
const MOVED_COLUMNS = MOVED_TABLES.length;

/** What one shard says of the employer: its row, every moved table's columns, the highest ids of its rows. */
export interface ShardView {
  shard: number;
  employer?: { testOf: number | null; movedTo: number | null };
  columns: Map<string, string[]>;
  highest: number;
}

export async function viewOf(dbs: MoveDatabases, shard: number, employerId: number): Promise<ShardView> {
  const [employers, ...rest] = await dbs.batch(shard, [
    statement("SELECT test_of AS testOf, moved_to AS movedTo FROM employers WHERE id = ?", employerId),
    ...columnsStatements(),
    ...highestIdStatements(idsOf(employerId)),
  ]);
  return {
    shard,
    employer: employers[0] as ShardView["employer"],
    columns: new Map(MOVED_TABLES.map(({ table }, i) => [table, rest[i].map((row) => String(row.name))])),
    highest: highestOf(rest.slice(MOVED_COLUMNS)),
  };
}

export const highestOf = (results: Row[][]) => Math.max(0, ...results.map(([row]) => Number(row?.id ?? 0)));

/** Where the employer lives: its shard's view; MoveRefused when it cannot move to `to` (MoveFailed: the shards disagree). */
export function locate(views: ShardView[], employerId: number, to: number): ShardView {
  const testOf = views.find((view) => view.employer?.testOf != null)?.employer?.testOf;
  if (testOf != null) throw new MoveRefused(`${employerId} is the test space of employer ${testOf}: move employer ${testOf}, and its test space moves with it.`);
  const living = views.filter((view) => view.employer && view.employer.movedTo === null);
  if (living.length === 0) throw new MoveRefused(`No employer ${employerId}${views.some((v) => v.employer) ? " lives in any shard (only tombstones of moves)" : ""}.`);
  if (living.length > 1) throw new MoveFailed(`Employer ${employerId} lives in shards ${living.map((v) => v.shard).join(" and ")}; that needs a look by hand.`);
  if (living[0].shard === to) throw new MoveRefused(`Employer ${employerId} already lives in shard ${to}.`);
  return living[0];
}

/**
 * Shard `to` numbers a new row after the largest id its table holds, whatever its own range
 * (SQLite's AUTOINCREMENT): a row numbered in a higher shard's range would make it number inside
 * that shard's range from then on. The message names the lowest shard it can move to; undefined: it fits.
 */
export function numberingProblem(highest: number, employerId: number, to: number): string | undefined {
  if (highest <= (to + 1) * SHARD_ID_SPAN) return undefined;
  const lowest = Math.floor((highest - 1) / SHARD_ID_SPAN);
  return `Employer ${employerId} has rows numbered in shard ${lowest}'s range (id ${highest}): shard ${to} numbers each new row after its table's largest id, so it would then number inside shard ${lowest}'s range. It can move to shard ${lowest} or higher.`;
}

/**
 * Gathers rows' statements into batches within `bytes` and MAX_ROWS rows (a row never split),
 * written as each fills; `flush` writes the last.
 */
export function batchesOf(bytes: number, write: (statements: Statement[]) => Promise<unknown>) {
  let current: Statement[] = [];
  let size = 0;
  let rows = 0;
  const flush = async () => {
    if (rows === 0) return;
    const statements = current;
    [current, size, rows] = [[], 0, 0];
    await write(statements);
  };
  return {
    flush,
    async add(statements: Statement[]) {
      const more = statements.reduce((sum, s) => sum + statementBytes(s), 0);
      if (rows > 0 && (size + more > bytes || rows >= MAX_ROWS)) await flush();
      current.push(...statements);
      size += more;
      rows++;
    },
  };
}

/** Both shards have the same columns in every moved table (the same migrations), or MoveFailed. */
export function checkColumns(source: ShardView, target: ShardView): void {
  for (const { table } of MOVED_TABLES) {
    if (JSON.stringify(source.columns.get(table)) !== JSON.stringify(target.columns.get(table))) {
      throw new MoveFailed(`${table} has other columns in shard ${target.shard} than in shard ${source.shard}: migrate every shard first (npm run deploy).`);
    }
  }
}

/** The hashes of the moved ids' API keys, as a shard lists them. */
const keyListOf = (ids: string) => statement(`SELECT hash FROM api_keys WHERE employer_id IN (${ids})`);

function isKeyRecordOf(record: unknown, ids: number[]): record is { employerId: number; shard?: number } {
  const id = (record as { employerId?: unknown } | null)?.employerId;
  return typeof id === "number" && ids.includes(id);
}

/**
 * After the flip: every API key record of the moved ids (the employer and its test space) names
 * shard `to`, which lists their keys (api_keys moved with them). Keys made before the shards
 * listed them are found by reading every record, when `to` lists none. Returns how many records changed.
 */
export async function repointKeys(dbs: MoveDatabases, keys: KeyRecords, request: { to: number; ids: string; employerId: number }, log: (line: string) => void): Promise<number> {
  const { to, ids, employerId } = request;
  const [listed] = await dbs.batch(to, [keyListOf(ids)]);
  const hashes = new Set(listed.map((row) => String(row.hash)));
  if (hashes.size === 0) {
    log(`shard ${to} lists no API key of employer ${employerId}: listing every API key in KV`);
    for (const hash of await keys.hashes()) hashes.add(hash);
  }
  const idNumbers = ids.split(", ").map(Number);
  const changed = new Map<string, unknown>();
  for (const [hash, key] of await keys.get([...hashes])) {
    if (!isKeyRecordOf(key, idNumbers) || (key.shard ?? 0) === to) continue;
    const { shard: _old, ...rest } = key;
    changed.set(hash, { ...rest, ...(to !== 0 && { shard: to }) });
  }
  if (changed.size) await keys.put(changed);
  log(`keys: ${changed.size} API key record(s) now name shard ${to}`);
  return changed.size;
}

