// DESIGN 22b: moving an employer (its test space with it) while it keeps working, as Vitess's
// MoveTables and gh-ost do: copy while live, catch up from the source's own record of changes,
// freeze only for the last round and the flip. Run by the EmployerMove Durable Object
// (src/shards/employer-move.ts) one bounded step at a time; every step leaves the move in a state
// it records (MoveState), so a crash anywhere resumes from there.
//
// The record of changes: the outbox's events name jobs only, and nothing records an idempotency
// record, a view counted or a webhook attempt; revisions say neither what was deleted. So the
// source records them itself: while an employer is in move_capture, triggers write each change of
// one of its rows (table, key) to move_changes in the batch of the change (drizzle/0030). A round
// reads the changes after its cursor and copies those rows again as the source has them then (or
// deletes them from the target when they are gone); a change made meanwhile is in a later round.
//
// The check: each row's digest (move-plan.ts rowDigest) on both sides, kept per row in the
// Durable Object's own storage (DigestStore). A verifying pass reads every row of both shards
// once, live; from then on each round refreshes the digests of the rows it copies, on both sides.
// A row changed after the pass began has a change after the pass's cursor, so the round that
// copies it last (the frozen one at the latest) reads it after its last change: once the last
// round is done, frozen, every stored digest is the row's as it is. The freeze then compares
// counts read from both databases with the rows stored, and the rows stored pairwise: in
// milliseconds, whatever the size.
import { MOVED_TABLES, countStatements, deleteKeysStatement, deleteStatements, foreignKeysStatements, idList, idsOf, keyOf, MAX_ROWS, movedParents, pageIsCut, pageStatement, rowDigest, setLock, upsertStatements, highestIdStatements, type Lock, type MovedTable, type Parent, type Row, type Statement } from "./move-plan";
import { batchesOf, checkColumns, highestOf, locate, MoveFailed, MoveRefused, numberingProblem, repointKeys, statement, UNLOCKED, viewOf, type KeyRecords, type MoveDatabases } from "./move";
import type { MoveStatus } from "./move-status";

/** A round copies at most this many changes; one that read fewer caught up with the source. */
const CHANGES_PER_ROUND = 1_000;
/** A round that took at most this many changes leaves so few behind that the last one fits a short freeze. */
const FREEZE_AFTER_CHANGES = 200;
/** A freeze that has not flipped by then thaws (the employer's writes resume) and catches up again: frozen 5 s at most. */
const FREEZE_MS = 3_000;
/** Freezes whose checks failed before the move gives up. */
const MAX_FAILED_CHECKS = 3;
/** Rows whose digests differ, copied again per step. */
const REPAIRS_PER_STEP = MAX_ROWS;
/** move_changes rows deleted per statement once the move is done. */
const CHANGES_DELETED_PER_STATEMENT = 1_000;
const ROUNDS_KEPT = 20;

/** Each row's digest in both shards (null: not there), kept by the Durable Object between steps. */
export interface DigestStore {
  clear(): void;
  /** One side's digests of these rows of `table`; a row then on neither side is forgotten. */
  set(table: string, side: "src" | "dst", digests: [key: string, digest: string | null][]): void;
  /** Rows whose two sides differ, after (table, key) in that order. */
  differing(after: [string, string] | null, limit: number): [table: string, key: string][];
  /** Per table: rows stored for the source, for the target, and how many of them differ. */
  summary(): Map<string, { src: number; dst: number; differ: number }>;
}

/** What the Durable Object keeps of a move: its status, and where each stage is. */
export interface MoveState extends MoveStatus {
  /** The moved ids (the employer, its test space), as SQL text (move-plan.ts idList). */
  ids: string;
  /** Each moved table's columns and the moved tables its rows name, as the source has them. */
  columns: Record<string, string[]>;
  parents: Record<string, Parent[]>;
  /** copying: the table (index in MOVED_TABLES) and the last rowid copied. */
  copy: { table: number; after: number };
  /** verifying: the table, the side (0: source, 1: target) and the last rowid read. */
  verify: { table: number; side: 0 | 1; after: number };
  /** repairing: the last (table, key) copied again. */
  repair: [string, string] | null;
  /** The last change (move_changes.seq) copied again. */
  cursor: number;
  /** Rounds refresh the digests from the verifying pass on. */
  digesting: boolean;
  /** Failed checks of freezes so far. */
  failedChecks: number;
  /** cleaning: the table (index in MOVED_TABLES, from the last). */
  cleanup: number;
  /** Set while frozen: the freeze began then (a crash there is recovered from it). */
  frozenAt: number | null;
}

type Log = (line: string) => void;

const compared = (table: MovedTable, columns: string[]) => columns.filter((column) => !table.ownColumns?.includes(column));
const hex = (digest: bigint) => digest.toString(16).padStart(16, "0");
/** A key as keyOf writes it, whatever JSON the database wrote. */
const canonical = (key: string) => JSON.stringify(JSON.parse(key));

/**
 * Starts a move of `employerId` to shard `to`: checks it can be done (MoveRefused says why not),
 * then turns on the source's record of the employer's changes, from which on every change of its
 * rows is recorded. Returns the new move's state, at the copy's start.
 */
export async function beginMove(dbs: MoveDatabases, employerId: number, to: number, now: number): Promise<MoveState> {
  if (!Number.isSafeInteger(employerId) || employerId < 1) throw new MoveRefused("employerId must be an employer id.");
  if (!dbs.shards.includes(to)) throw new MoveRefused(`No shard ${to}: the shards are ${dbs.shards.join(", ")}.`);
  const views = await Promise.all(dbs.shards.map((shard) => viewOf(dbs, shard, employerId)));
  const source = locate(views, employerId, to);
  checkColumns(source, views.find((view) => view.shard === to)!);
  const early = numberingProblem(source.highest, employerId, to);
  if (early) throw new MoveRefused(early);
  const from = source.shard;
  const foreignKeys = await dbs.batch(from, foreignKeysStatements());
  // One batch: the record starts with the rows as the copy will find them (a change made after it is recorded).
  const [, [{ cursor }], idRows] = await dbs.batch(from, [
    statement(
      `INSERT INTO move_capture (employer_id, move_of) SELECT id, ? FROM employers WHERE (id = ? OR test_of = ?) AND moved_to IS NULL
        ON CONFLICT (employer_id) DO UPDATE SET move_of = excluded.move_of`,
      employerId,
      employerId,
      employerId,
    ),
    statement("SELECT coalesce(max(seq), 0) AS cursor FROM move_changes"),
    statement(idsOf(employerId)),
  ]);
  return {
    employerId,
    from,
    to,
    stage: "copying",
    startedAt: now,
    updatedAt: now,
    finishedAt: null,
    copied: 0,
    synced: 0,
    rounds: [],
    freezes: [],
    verified: null,
    deleted: 0,
    error: null,
    outcome: null,
    ids: idList(idRows.map((row) => Number(row.id))),
    columns: Object.fromEntries(MOVED_TABLES.map(({ table }) => [table, source.columns.get(table)!])),
    parents: Object.fromEntries(MOVED_TABLES.map(({ table }, i) => [table, movedParents(foreignKeys[i])])),
    copy: { table: 0, after: 0 },
    verify: { table: 0, side: 0, after: 0 },
    repair: null,
    cursor: Number(cursor),
    digesting: false,
    failedChecks: 0,
    cleanup: 0,
    frozenAt: null,
  };
}

/** The status a move's state answers with (what an operator reads). */
export function statusOf(state: MoveState): MoveStatus {
  const { employerId, from, to, stage, startedAt, updatedAt, finishedAt, copied, synced, rounds, freezes, verified, deleted, error, outcome } = state;
  return { employerId, from, to, stage, startedAt, updatedAt, finishedAt, copied, synced, rounds, freezes, verified, deleted, error, outcome };
}

export const isFinished = (state: Pick<MoveState, "stage">) => state.stage === "done" || state.stage === "failed";

/** Runs a move's steps; each leaves `state` as the move is, to be recorded before the next. */
export class OnlineMove {
  constructor(
    private readonly dbs: MoveDatabases,
    private readonly keys: KeyRecords,
    private readonly store: DigestStore,
    /** Records the state now (before the freeze, so that a crash in it is recovered). */
    private readonly save: (state: MoveState) => Promise<void>,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  /** One bounded step of the stage the move is in. */
  async step(state: MoveState): Promise<void> {
    switch (state.stage) {
      case "copying":
        return this.copy(state);
      case "verifying":
        return this.verifyPage(state);
      case "repairing":
        return this.repair(state);
      case "catching-up":
        return this.catchUp(state);
      case "frozen":
        return this.recoverFreeze(state);
      case "flipped":
        return this.repointKeys(state);
      case "keys":
      case "cleaning":
        return this.clean(state);
      case "done":
      case "failed":
        return;
    }
  }

  private enter(state: MoveState, stage: MoveState["stage"]) {
    state.stage = stage;
    this.log(`stage ${stage}`);
  }

  private columnsOf = (state: MoveState, table: MovedTable) => state.columns[table.table];
  private targetLock = (state: MoveState): Lock => ({ frozenAt: null, movedTo: state.from });

  /**
   * Writes statements to the target in batches within the runner's bytes and MAX_ROWS rows. Each
   * batch unlocks the target's rows for itself alone (one transaction), then locks them again,
   * naming the source, where the employer lives until the flip.
   */
  private targetWriter(state: MoveState, ids: string) {
    return batchesOf(this.dbs.batchBytes, (statements) => this.dbs.batch(state.to, [setLock(ids, UNLOCKED), ...statements, setLock(ids, this.targetLock(state))]));
  }

  /** copying: the next page of the current table, written to the target. */
  private async copy(state: MoveState): Promise<void> {
    const table = MOVED_TABLES[state.copy.table];
    const columns = this.columnsOf(state, table);
    const [page] = await this.dbs.batch(state.from, [pageStatement(table, columns, state.ids, state.copy.after, this.pageBytes)]);
    const writer = this.targetWriter(state, state.ids);
    for (const row of page) await writer.add(upsertStatements(table, columns, row, state.parents[table.table]));
    await writer.flush();
    state.copied += page.length;
    if (pageIsCut(page)) {
      state.copy.after = Number(page.at(-1)!._rowid);
      return;
    }
    if (page.length || state.copy.after) this.log(`copied ${table.table}`);
    state.copy = { table: state.copy.table + 1, after: 0 };
    if (state.copy.table < MOVED_TABLES.length) return;
    // The pass reads what the rounds after its cursor will refresh (see above).
    this.store.clear();
    state.digesting = true;
    state.verify = { table: 0, side: 0, after: 0 };
    this.enter(state, "verifying");
  }

  /** Half of a batch for a page's values: the rest is the statements' own text. */
  private get pageBytes() {
    return Math.floor(this.dbs.batchBytes / 2);
  }

  /** verifying: the next page of one side of the current table, its rows' digests stored. */
  private async verifyPage(state: MoveState): Promise<void> {
    const { table: index, side, after } = state.verify;
    const table = MOVED_TABLES[index];
    const columns = compared(table, this.columnsOf(state, table));
    const [page] = await this.dbs.batch(side === 0 ? state.from : state.to, [pageStatement(table, columns, state.ids, after, this.pageBytes)]);
    this.store.set(table.table, side === 0 ? "src" : "dst", await digestsOf(table, columns, page));
    if (pageIsCut(page)) {
      state.verify.after = Number(page.at(-1)!._rowid);
    } else if (side === 0) {
      state.verify = { table: index, side: 1, after: 0 };
    } else if (index + 1 < MOVED_TABLES.length) {
      state.verify = { table: index + 1, side: 0, after: 0 };
    } else {
      state.repair = null;
      this.enter(state, "repairing");
    }
  }

  /** repairing: rows whose digests differ, copied again (a row the copy could not write yet, one changed since). */
  private async repair(state: MoveState): Promise<void> {
    const differing = this.store.differing(state.repair, REPAIRS_PER_STEP);
    if (differing.length) {
      const [idRows] = await this.dbs.batch(state.from, [statement(idsOf(state.employerId))]);
      state.ids = idList(idRows.map((row) => Number(row.id)));
      state.synced += await this.sync(state, state.ids, groupKeys(differing));
      state.repair = differing.at(-1)!;
    }
    if (differing.length < REPAIRS_PER_STEP) this.enter(state, "catching-up");
  }

  /** catching-up: one round; one that caught up with few changes is followed at once by the freeze. */
  private async catchUp(state: MoveState): Promise<void> {
    const changes = await this.round(state);
    state.rounds = [...state.rounds, changes].slice(-ROUNDS_KEPT);
    if (changes <= FREEZE_AFTER_CHANGES) await this.freeze(state);
  }

  /**
   * The changes after the cursor (at most CHANGES_PER_ROUND), their rows copied again as the
   * source has them now; the moved ids read again in the same batch (a test space made meanwhile).
   * Returns how many changes it took.
   */
  private async round(state: MoveState): Promise<number> {
    const [changes, idRows] = await this.dbs.batch(state.from, [
      statement("SELECT seq, tbl, key FROM move_changes WHERE move_of = ? AND seq > ? ORDER BY seq LIMIT ?", state.employerId, state.cursor, CHANGES_PER_ROUND),
      statement(idsOf(state.employerId)),
    ]);
    if (changes.length === 0) return 0;
    state.ids = idList(idRows.map((row) => Number(row.id)));
    state.synced += await this.sync(state, state.ids, groupKeys(changes.map((change) => [String(change.tbl), String(change.key)])));
    state.cursor = Number(changes.at(-1)!.seq);
    return changes.length;
  }

  /**
   * These rows of each table written to the target as the source has them (deleted there when the
   * source has them no more, or no more as the employer's), children's deletes first, parents'
   * writes first; then, from the verifying pass on, both sides' digests of them stored. Returns
   * how many rows it wrote or deleted.
   */
  private async sync(state: MoveState, ids: string, keys: Map<MovedTable, string[]>): Promise<number> {
    const found = new Map<MovedTable, Row[]>();
    const gone = new Map<MovedTable, string[]>();
    for (const [table, tableKeys] of keys) {
      const rows = await this.rowsOf(state.from, table, this.columnsOf(state, table), ids, tableKeys);
      const present = new Set(rows.map((row) => keyOf(table, row)));
      found.set(table, rows);
      gone.set(table, tableKeys.filter((key) => !present.has(key)));
    }
    const writer = this.targetWriter(state, ids);
    for (const table of [...MOVED_TABLES].reverse()) {
      const absent = gone.get(table) ?? [];
      for (let i = 0; i < absent.length; i += MAX_ROWS) await writer.add([deleteKeysStatement(table, JSON.stringify(absent.slice(i, i + MAX_ROWS).map((key) => JSON.parse(key))))]);
    }
    for (const table of MOVED_TABLES) {
      for (const row of found.get(table) ?? []) await writer.add(upsertStatements(table, this.columnsOf(state, table), row, state.parents[table.table]));
    }
    await writer.flush();
    if (state.digesting) {
      for (const [table, tableKeys] of keys) {
        const columns = compared(table, this.columnsOf(state, table));
        const inTarget = await this.rowsOf(state.to, table, columns, ids, tableKeys);
        this.store.set(table.table, "src", await digestsOf(table, columns, found.get(table)!, tableKeys));
        this.store.set(table.table, "dst", await digestsOf(table, columns, inTarget, tableKeys));
      }
    }
    return [...keys.values()].reduce((sum, tableKeys) => sum + tableKeys.length, 0);
  }

  /** The employer's rows of these keys in a shard, page by page. */
  private async rowsOf(shard: number, table: MovedTable, columns: string[], ids: string, keys: string[]): Promise<Row[]> {
    const rows: Row[] = [];
    for (let i = 0; i < keys.length; i += MAX_ROWS) {
      const list = JSON.stringify(keys.slice(i, i + MAX_ROWS).map((key) => JSON.parse(key)));
      for (let after = 0; ; ) {
        const [page] = await this.dbs.batch(shard, [pageStatement(table, columns, ids, after, this.pageBytes, list)]);
        rows.push(...page);
        if (!pageIsCut(page)) break;
        after = Number(page.at(-1)!._rowid);
      }
    }
    return rows;
  }

  /**
   * frozen: the employer's writes refused from the freeze's batch on; the last round, the checks
   * (counts read from both databases against the digests stored, and every row's two digests),
   * and the flip, within FREEZE_MS, or it thaws and catches up again.
   */
  private async freeze(state: MoveState): Promise<void> {
    const at = this.now();
    state.frozenAt = at;
    this.enter(state, "frozen");
    await this.save(state);
    const [, idRows, ...highest] = await this.dbs.batch(state.from, [
      statement("UPDATE employers SET frozen_at = ? WHERE (id = ? OR test_of = ?) AND moved_to IS NULL AND frozen_at IS NULL", at, state.employerId, state.employerId),
      // Read in the freeze's own transaction: a test space made a moment before is frozen with it.
      statement(idsOf(state.employerId)),
      ...highestIdStatements(idsOf(state.employerId)),
    ]);
    state.ids = idList(idRows.map((row) => Number(row.id)));
    const numbering = numberingProblem(highestOf(highest), state.employerId, state.to);
    if (numbering) return this.fail(state, numbering);
    // Nothing of the employer changes now but the freeze itself (recorded too).
    while ((await this.round(state)) === CHANGES_PER_ROUND) if (this.now() - at > FREEZE_MS) return this.thaw(state, "the last round took too long", "catching-up");
    const differences = await this.differences(state);
    if (differences.length) {
      state.failedChecks++;
      const why = `the copy differs from the source: ${differences.join("; ")}`;
      if (state.failedChecks >= MAX_FAILED_CHECKS) return this.fail(state, why);
      state.repair = null;
      return this.thaw(state, why, "repairing");
    }
    if (this.now() - at > FREEZE_MS) return this.thaw(state, "the checks took too long", "catching-up");
    await this.flip(state, at);
  }

  /** Per table, what differs between the shards' counts and the digests stored; records what was verified. */
  private async differences(state: MoveState): Promise<string[]> {
    const [inSource, inTarget] = await Promise.all([state.from, state.to].map((shard) => this.dbs.batch(shard, countStatements(state.ids))));
    const stored = this.store.summary();
    const verified: Record<string, number> = {};
    const differences = MOVED_TABLES.flatMap(({ table }, i) => {
      const [src, dst] = [Number(inSource[i][0].n), Number(inTarget[i][0].n)];
      const digests = stored.get(table) ?? { src: 0, dst: 0, differ: 0 };
      verified[table] = src;
      if (src === dst && digests.src === src && digests.dst === dst && digests.differ === 0) return [];
      return [`${table}: shard ${state.from} ${src} rows (${digests.src} digests), shard ${state.to} ${dst} rows (${digests.dst} digests), ${digests.differ} differing`];
    });
    state.verified = differences.length ? null : verified;
    return differences;
  }

  /**
   * The target first: its rows unlocked (the truth from now on), then the source's rows become a
   * tombstone naming it, its record of changes off, in one batch. Until the source names the
   * target, nothing reaches the target, so the two never point at each other.
   */
  private async flip(state: MoveState, at: number): Promise<void> {
    await this.dbs.batch(state.to, [setLock(state.ids, UNLOCKED)]);
    await this.dbs.batch(state.from, [setLock(state.ids, { frozenAt: null, movedTo: state.to }), statement("DELETE FROM move_capture WHERE move_of = ?", state.employerId)]);
    state.freezes.push({ at, ms: this.now() - at, outcome: "flipped" });
    state.frozenAt = null;
    this.enter(state, "flipped");
  }

  /**
   * The freeze undone: the target's rows locked again naming the source (a flip may have unlocked
   * them), then the source's unfrozen; the move goes on from `next`.
   */
  async thaw(state: MoveState, why: string, next: "catching-up" | "repairing" | "failed"): Promise<void> {
    await this.dbs.batch(state.to, [setLock(state.ids, this.targetLock(state))]);
    await this.dbs.batch(state.from, [statement(`UPDATE employers SET frozen_at = NULL WHERE id IN (${state.ids}) AND moved_to IS NULL AND frozen_at IS NOT NULL`)]);
    state.freezes.push({ at: state.frozenAt ?? this.now(), ms: this.now() - (state.frozenAt ?? this.now()), outcome: "thawed", why });
    state.frozenAt = null;
    this.log(`thawed: ${why}`);
    this.enter(state, next);
  }

  /** Given up: unfrozen, the source's record of changes off; the employer lives where it lived. */
  async fail(state: MoveState, why: string): Promise<void> {
    if (state.frozenAt !== null) await this.thaw(state, why, "failed");
    await this.dbs.batch(state.from, [statement("DELETE FROM move_capture WHERE move_of = ?", state.employerId)]);
    state.error = { at: this.now(), message: why };
    state.finishedAt = this.now();
    if (state.stage !== "failed") this.enter(state, "failed");
  }

  /** A step found the move frozen: the step that froze it stopped (a crash). Flipped by then, or thawed now. */
  private async recoverFreeze(state: MoveState): Promise<void> {
    const [[row]] = await this.dbs.batch(state.from, [statement("SELECT moved_to AS movedTo FROM employers WHERE id = ?", state.employerId)]);
    if (row?.movedTo === state.to) {
      state.freezes.push({ at: state.frozenAt!, ms: this.now() - state.frozenAt!, outcome: "flipped" });
      state.frozenAt = null;
      this.enter(state, "flipped");
      return;
    }
    await this.thaw(state, "the freeze was interrupted", "catching-up");
  }

  /** flipped: the API keys' records name the target. */
  private async repointKeys(state: MoveState): Promise<void> {
    await repointKeys(this.dbs, this.keys, { to: state.to, ids: state.ids, employerId: state.employerId }, this.log);
    state.cleanup = 0;
    this.enter(state, "keys");
  }

  /**
   * keys, cleaning: the source's rows deleted, children first, MAX_ROWS a batch (each batch
   * unlocks the tombstone for itself alone); then its counters and the move's record of changes.
   * The employers rows stay as tombstones, the events in the outbox (its relay hands them over; its retention removes them).
   */
  private async clean(state: MoveState): Promise<void> {
    if (state.stage === "keys") this.enter(state, "cleaning");
    const leaving = [...MOVED_TABLES].reverse().filter(({ table }) => table !== "employers");
    const tombstone: Lock = { frozenAt: null, movedTo: state.to };
    if (state.cleanup < leaving.length) {
      const results = await this.dbs.batch(state.from, [setLock(state.ids, UNLOCKED), ...deleteStatements(leaving[state.cleanup], state.ids), setLock(state.ids, tombstone)]);
      const deleted = Number(results.at(-2)![0].deleted);
      state.deleted += deleted;
      if (deleted < MAX_ROWS) state.cleanup++;
      return;
    }
    const [, , [{ deleted }]] = await this.dbs.batch(state.from, [
      statement(`DELETE FROM job_counts WHERE employer_id IN (${state.ids})`),
      statement(`DELETE FROM move_changes WHERE seq IN (SELECT seq FROM move_changes WHERE move_of = ? LIMIT ${CHANGES_DELETED_PER_STATEMENT})`, state.employerId),
      statement("SELECT changes() AS deleted"),
    ]);
    if (Number(deleted) === CHANGES_DELETED_PER_STATEMENT) return;
    this.store.clear();
    state.finishedAt = this.now();
    const rows = Object.values(state.verified ?? {}).reduce((sum, n) => sum + n, 0);
    state.outcome = { employerId: state.employerId, from: state.from, to: state.to, rows, ms: state.finishedAt - state.startedAt };
    this.enter(state, "done");
  }
}

/** Keys grouped by their table, each once, in the form keyOf writes. */
function groupKeys(keys: [table: string, key: string][]): Map<MovedTable, string[]> {
  const grouped = new Map<MovedTable, Set<string>>();
  for (const [name, key] of keys) {
    const table = MOVED_TABLES.find((candidate) => candidate.table === name);
    if (!table) throw new MoveFailed(`a change of an unknown table: ${name}`);
    let set = grouped.get(table);
    if (!set) grouped.set(table, (set = new Set()));
    set.add(canonical(key));
  }
  return new Map([...grouped].map(([table, set]) => [table, [...set]]));
}

/** Each row's digest by its key; with `keys`, those not among the rows are null (not there). */
async function digestsOf(table: MovedTable, columns: string[], rows: Row[], keys: string[] = []): Promise<[string, string | null][]> {
  const digests = new Map<string, string | null>(keys.map((key) => [key, null]));
  for (const row of rows) digests.set(keyOf(table, row), hex(await rowDigest(columns.map((column) => row[column] ?? null))));
  return [...digests];
}
