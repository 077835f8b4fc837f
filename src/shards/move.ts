// DESIGN 22, 22a: moving an employer (its test space with it) to another shard while the service
// runs, as a state machine whose every stage is recorded in the source shard (shard_moves), so
// that running it again after it was stopped at any point finishes it:
//
//   frozen    its rows are locked in the source: the triggers refuse their writes (503), reads go on
//   copied    every row copied to the target with its id, in bounded batches, the target's rows
//             locked too (naming the source, where the employer still lives)
//   verified  each table's count and digest equal in both shards
//   flipped   the target's rows unlocked: it is the truth; the source's employers rows become
//             tombstones (moved_to), which a request routed there by a stale cache follows
//   keys      every API key's KV record names the target
//   done      the source's rows deleted, in bounded batches (the tombstones and the outbox stay)
//
// No event is recorded: nothing an observer sees changes. The same code runs in the shards
// command (wrangler d1 execute, wrangler kv) and in the tests (D1 bindings, KV): it reaches the
// databases and the keys only through MoveDatabases and KeyRecords. No imports but plain modules,
// so Node runs it as it is.
import { SHARD_ID_SPAN } from "./identity.ts";
import {
  columnsStatements,
  countStatements,
  deleteStatements,
  highestIdStatements,
  idList,
  idsOf,
  MAX_ROWS,
  MOVED_TABLES,
  pageIsCut,
  pageStatement,
  rowDigest,
  setLock,
  statementBytes,
  upsertStatements,
  type Lock,
  type MovedTable,
  type Row,
  type Statement,
} from "./move-plan.ts";
import { MOVE_STAGES, type MoveStage } from "./move-stages.ts";

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

export interface MoveRequest {
  employerId: number;
  to: number;
  /** Find the keys by listing KV even when the shard lists some (keys made before api_keys). */
  scanKeys?: boolean;
}

export interface MoveHooks {
  /** A line of progress. */
  log?(line: string): void;
  /** After each stage is recorded (the tests stop a move here, as if it were killed). */
  afterStage?(stage: MoveStage): void | Promise<void>;
  now?(): number;
}

/** DESIGN 22a's last line of `npm run shards -- move`. */
export interface MoveOutcome {
  employerId: number;
  from: number;
  to: number;
  rows: number;
  ms: number;
}

/** Refused before anything changed (or after undoing the freeze): the message says why. */
export class MoveRefused extends Error {}

/** Stopped part way; the message says where. Running the move again resumes it. */
export class MoveFailed extends Error {}

interface MoveRecord {
  toShard: number;
  stage: MoveStage;
  frozenAt: number;
  rows: number | null;
}

/** Where the employer is: the shard it lives in, or the one whose unfinished move it is. */
interface Located {
  from: number;
  record?: MoveRecord;
}

export const UNLOCKED: Lock = { frozenAt: null, movedTo: null };
export const statement = (sql: string, ...params: Statement["params"]): Statement => ({ sql, params });
const MOVED_COLUMNS = MOVED_TABLES.length;

/** What one shard says of the employer: its row, its unfinished move, every moved table's columns, the highest ids of its rows. */
export interface ShardView {
  shard: number;
  employer?: { testOf: number | null; movedTo: number | null };
  record?: MoveRecord;
  /** The Worker is moving it out of this shard (DESIGN 22b: src/shards/online-move.ts records its changes here). */
  capturing: boolean;
  columns: Map<string, string[]>;
  highest: number;
}

export async function viewOf(dbs: MoveDatabases, shard: number, employerId: number): Promise<ShardView> {
  const [employers, moves, capture, ...rest] = await dbs.batch(shard, [
    statement("SELECT test_of AS testOf, moved_to AS movedTo FROM employers WHERE id = ?", employerId),
    statement("SELECT to_shard AS toShard, stage, frozen_at AS frozenAt, rows FROM shard_moves WHERE employer_id = ? AND stage <> 'done'", employerId),
    statement("SELECT 1 FROM move_capture WHERE employer_id = ?", employerId),
    ...columnsStatements(),
    ...highestIdStatements(idsOf(employerId)),
  ]);
  return {
    shard,
    employer: employers[0] as ShardView["employer"],
    record: moves[0] as unknown as MoveRecord | undefined,
    capturing: capture.length > 0,
    columns: new Map(MOVED_TABLES.map(({ table }, i) => [table, rest[i].map((row) => String(row.name))])),
    highest: highestOf(rest.slice(MOVED_COLUMNS)),
  };
}

export const highestOf = (results: Row[][]) => Math.max(0, ...results.map(([row]) => Number(row?.id ?? 0)));

/** Where the employer is: the shard it lives in, or the one whose unfinished move it is; with what every shard said. */
export function locate(views: ShardView[], employerId: number, to: number): { from: ShardView; record?: MoveRecord } {
  const unfinished = views.filter((view) => view.record);
  if (unfinished.length > 1) throw new MoveFailed(`Employer ${employerId} has unfinished moves recorded in shards ${unfinished.map((v) => v.shard).join(" and ")}; they need a look by hand.`);
  const [moving] = unfinished;
  if (moving) {
    const { toShard, stage } = moving.record!;
    if (toShard !== to) {
      throw new MoveRefused(
        `Employer ${employerId} is being moved from shard ${moving.shard} to shard ${toShard} (stage ${stage}): finish that move first (npm run shards -- move --employer ${employerId} --to ${toShard}).`,
      );
    }
    return { from: moving, record: moving.record };
  }
  const testOf = views.find((view) => view.employer?.testOf != null)?.employer?.testOf;
  if (testOf != null) throw new MoveRefused(`${employerId} is the test space of employer ${testOf}: move employer ${testOf}, and its test space moves with it.`);
  const living = views.filter((view) => view.employer && view.employer.movedTo === null);
  if (living.length === 0) throw new MoveRefused(`No employer ${employerId}${views.some((v) => v.employer) ? " lives in any shard (only tombstones of moves)" : ""}.`);
  if (living.length > 1) throw new MoveFailed(`Employer ${employerId} lives in shards ${living.map((v) => v.shard).join(" and ")}; that needs a look by hand.`);
  if (living[0].shard === to) throw new MoveRefused(`Employer ${employerId} already lives in shard ${to}.`);
  return { from: living[0] };
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

/** The employer's rows of each table, page by page: the first page of every table in one round trip, the rest of a table as it is read. */
type Pages = (table: MovedTable) => AsyncGenerator<Row[]>;

async function readPages(dbs: MoveDatabases, shard: number, columns: (table: MovedTable) => string[], ids: string): Promise<Pages> {
  // Half of a batch: the rest is the statements' own text.
  const bytes = Math.floor(dbs.batchBytes / 2);
  const first = await dbs.batch(shard, MOVED_TABLES.map((table) => pageStatement(table, columns(table), ids, 0, bytes)));
  return async function* (table) {
    let page = first[MOVED_TABLES.indexOf(table)];
    for (;;) {
      if (page.length) yield page;
      if (!pageIsCut(page)) return;
      [page] = await dbs.batch(shard, [pageStatement(table, columns(table), ids, Number(page.at(-1)!._rowid), bytes)]);
    }
  };
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

/** A count and a digest per table of the employer's rows (compared columns only), from pages read on one shard. */
async function digestsOf(pages: Pages, compared: (table: MovedTable) => string[]) {
  const digests = new Map<string, { count: number; digest: string }>();
  for (const table of MOVED_TABLES) {
    let count = 0;
    let digest = 0n;
    const columns = compared(table);
    for await (const page of pages(table)) {
      for (const row of page) digest = (digest + (await rowDigest(columns.map((column) => row[column] ?? null)))) & 0xffffffffffffffffn;
      count += page.length;
    }
    digests.set(table.table, { count, digest: digest.toString(16).padStart(16, "0") });
  }
  return digests;
}

/** Both shards have the same columns in every moved table (the same migrations), or MoveFailed. */
export function checkColumns(source: ShardView, target: ShardView): void {
  for (const { table } of MOVED_TABLES) {
    if (JSON.stringify(source.columns.get(table)) !== JSON.stringify(target.columns.get(table))) {
      throw new MoveFailed(`${table} has other columns in shard ${target.shard} than in shard ${source.shard}: migrate every shard first (npm run deploy).`);
    }
  }
}

function isKeyRecordOf(record: unknown, ids: number[]): record is { employerId: number; shard?: number } {
  const id = (record as { employerId?: unknown } | null)?.employerId;
  return typeof id === "number" && ids.includes(id);
}

/**
 * After the flip: every API key record of the moved ids (the employer and its test space) names
 * shard `to`, which lists their keys (api_keys moved with them). Keys made before the shards
 * listed them are found by reading every record, when `to` lists none or `scanKeys` says so.
 * Returns how many records changed.
 */
export async function repointKeys(dbs: MoveDatabases, keys: KeyRecords, request: { to: number; ids: string; scanKeys?: boolean; employerId: number }, log: (line: string) => void, listed?: Row[]): Promise<number> {
  const { to, ids, employerId } = request;
  listed ??= (await dbs.batch(to, [keyListOf(ids)]))[0];
  const hashes = new Set(listed.map((row) => String(row.hash)));
  if (request.scanKeys || hashes.size === 0) {
    log(request.scanKeys ? "listing every API key in KV (--scan-keys)" : `shard ${to} lists no API key of employer ${employerId}: listing every API key in KV`);
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

/** The hashes of the moved ids' API keys, as a shard lists them. */
export const keyListOf = (ids: string) => statement(`SELECT hash FROM api_keys WHERE employer_id IN (${ids})`);

/**
 * Moves employer `employerId` to shard `to`, or finishes its recorded move there. Resolves when
 * the move is complete; MoveRefused when it cannot start, MoveFailed when it stopped (run again).
 */
export async function moveEmployer(dbs: MoveDatabases, keys: KeyRecords, request: MoveRequest, hooks: MoveHooks = {}): Promise<MoveOutcome> {
  const now = hooks.now ?? Date.now;
  const log = hooks.log ?? (() => {});
  const started = now();
  const { employerId, to } = request;
  if (!Number.isSafeInteger(employerId) || employerId < 1) throw new MoveRefused("--employer must be an employer id.");
  if (!dbs.shards.includes(to)) throw new MoveRefused(`No shard ${to}: the shards are ${dbs.shards.join(", ")}.`);
  const views = await Promise.all(dbs.shards.map((shard) => viewOf(dbs, shard, employerId)));
  if (views.some((view) => view.capturing)) {
    throw new MoveRefused(`Employer ${employerId} is being moved by the Worker (DESIGN 22b): follow that move (GET /operator/shards/moves/${employerId}).`);
  }
  const { from: source, record } = locate(views, employerId, to);
  const from = source.shard;
  checkColumns(source, views.find((view) => view.shard === to)!);
  const columnsOf = (table: MovedTable) => source.columns.get(table.table)!;
  const recordStage = (stage: MoveStage, rows: number | null = null) =>
    statement("UPDATE shard_moves SET stage = ?, rows = coalesce(?, rows), updated_at = ? WHERE employer_id = ?", stage, rows, now(), employerId);
  const completed = async (stage: MoveStage) => {
    log(`stage ${stage}`);
    await hooks.afterStage?.(stage);
  };

  let frozenAt: number;
  let ids: string;
  if (record) {
    log(`resuming the move of employer ${employerId} from shard ${from} to shard ${to} after stage ${record.stage}`);
    frozenAt = record.frozenAt;
    const [rows] = await dbs.batch(from, [statement(idsOf(employerId))]);
    ids = idList(rows.map((row) => Number(row.id)));
  } else {
    const early = numberingProblem(source.highest, employerId, to);
    if (early) throw new MoveRefused(early);
    frozenAt = now();
    const [, , rows, ...highest] = await dbs.batch(from, [
      statement("UPDATE employers SET frozen_at = ? WHERE (id = ? OR test_of = ?) AND frozen_at IS NULL AND moved_to IS NULL", frozenAt, employerId, employerId),
      statement(
        `INSERT INTO shard_moves (employer_id, to_shard, stage, frozen_at, rows, updated_at) VALUES (?, ?, 'frozen', ?, NULL, ?)
          ON CONFLICT (employer_id) DO UPDATE SET to_shard = excluded.to_shard, stage = excluded.stage, frozen_at = excluded.frozen_at, rows = NULL, updated_at = excluded.updated_at`,
        employerId,
        to,
        frozenAt,
        now(),
      ),
      // Read in the freeze's own transaction: a test space made a moment before is frozen with it,
      // and no row is numbered after this (the triggers refuse one made since).
      statement(idsOf(employerId)),
      ...highestIdStatements(idsOf(employerId)),
    ]);
    ids = idList(rows.map((row) => Number(row.id)));
    const problem = numberingProblem(highestOf(highest), employerId, to);
    if (problem) {
      // Nothing was copied: the freeze is undone, as if the move had never started.
      await dbs.batch(from, [setLock(ids, UNLOCKED), statement("DELETE FROM shard_moves WHERE employer_id = ?", employerId)]);
      throw new MoveRefused(problem);
    }
    log(`froze employer ${employerId} (ids ${ids}) in shard ${from}: its writes are refused until the move is done`);
    await completed("frozen");
  }
  const targetLock: Lock = { frozenAt, movedTo: from };
  const done = MOVE_STAGES.indexOf(record?.stage ?? "frozen");
  let rows = record?.rows ?? 0;

  if (done < MOVE_STAGES.indexOf("copied")) {
    rows = 0;
    const pages = await readPages(dbs, from, columnsOf, ids);
    // Each batch unlocks the target's rows for itself alone (one transaction), then locks them again
    // (naming the source, where the employer lives until the flip). Tables in order: parents first.
    const batches = batchesOf(dbs.batchBytes, (statements) => dbs.batch(to, [setLock(ids, UNLOCKED), ...statements, setLock(ids, targetLock)]));
    for (const table of MOVED_TABLES) {
      let copied = 0;
      for await (const page of pages(table)) {
        for (const row of page) await batches.add(upsertStatements(table, columnsOf(table), row));
        copied += page.length;
      }
      if (copied) log(`copying ${table.table}: ${copied} rows`);
      rows += copied;
    }
    await batches.flush();
    await dbs.batch(from, [recordStage("copied", rows)]);
    log(`copied ${rows} rows to shard ${to}`);
    await completed("copied");
  }

  if (done < MOVE_STAGES.indexOf("verified")) {
    const compared = (table: MovedTable) => columnsOf(table).filter((column) => !table.ownColumns?.includes(column));
    const [inSource, inTarget] = await Promise.all([from, to].map(async (shard) => digestsOf(await readPages(dbs, shard, compared, ids), compared)));
    const differences = MOVED_TABLES.flatMap(({ table }) => {
      const [a, b] = [inSource.get(table)!, inTarget.get(table)!];
      return a.count === b.count && a.digest === b.digest ? [] : [`${table}: shard ${from} ${a.count} rows (${a.digest}), shard ${to} ${b.count} rows (${b.digest})`];
    });
    if (differences.length) {
      // The next run copies again (a copy sent twice writes each row as the source has it).
      await dbs.batch(from, [recordStage("frozen")]);
      throw new MoveFailed(`The copy differs from the source: ${differences.join("; ")}. The employer stays frozen; run the move again to copy again.`);
    }
    await dbs.batch(from, [recordStage("verified")]);
    log(`verified ${MOVED_TABLES.length} tables: counts and digests equal in shards ${from} and ${to}`);
    await completed("verified");
  }

  const keyList = keyListOf(ids);
  let listedKeys: Row[] | undefined;
  if (done < MOVE_STAGES.indexOf("flipped")) {
    // The target first: until the source names it, nothing reaches the target, so there is never a
    // moment when both are locked towards each other (a follow goes one way only).
    [, listedKeys] = await dbs.batch(to, [setLock(ids, UNLOCKED), keyList]);
    await dbs.batch(from, [setLock(ids, { frozenAt: null, movedTo: to }), recordStage("flipped")]);
    log(`flipped: shard ${to} holds employer ${employerId}, its writes accepted again; shard ${from} keeps a tombstone naming shard ${to}`);
    await completed("flipped");
  }

  if (done < MOVE_STAGES.indexOf("keys")) {
    await repointKeys(dbs, keys, { to, ids, scanKeys: request.scanKeys, employerId }, log, listedKeys);
    await dbs.batch(from, [recordStage("keys")]);
    await completed("keys");
  }

  if (done < MOVE_STAGES.indexOf("done")) {
    const tombstone: Lock = { frozenAt: null, movedTo: to };
    const leaving = [...MOVED_TABLES].reverse().filter(({ table }) => table !== "employers");
    const finish = [statement(`DELETE FROM job_counts WHERE employer_id IN (${ids})`), recordStage("done")];
    const counts = (await dbs.batch(from, countStatements(ids))).map(([row]) => Number(row.n));
    const deleted = counts.reduce((sum, n, i) => sum + (MOVED_TABLES[i].table === "employers" ? 0 : n), 0);
    if (counts.every((n) => n <= MAX_ROWS)) {
      // Children first, each table whole in one statement: one batch.
      await dbs.batch(from, [setLock(ids, UNLOCKED), ...leaving.flatMap((table) => deleteStatements(table, ids)), setLock(ids, tombstone), ...finish]);
    } else {
      // A table at a time, MAX_ROWS rows a batch, each table gone before its parents.
      for (const table of leaving) {
        for (;;) {
          const results = await dbs.batch(from, [setLock(ids, UNLOCKED), ...deleteStatements(table, ids), setLock(ids, tombstone)]);
          if (Number(results.at(-2)![0].deleted) < MAX_ROWS) break;
        }
      }
      // Its counters were brought to 0 by the jobs' delete triggers.
      await dbs.batch(from, finish);
    }
    log(`deleted ${deleted} rows from shard ${from}; its employers rows stay as tombstones, its events in the outbox`);
    await completed("done");
  }
  return { employerId, from, to, rows, ms: now() - started };
}
