import { DurableObject } from "cloudflare:workers";
import { retryingBindings } from "../db/retrying";
import type { Env, Mover } from "../env";
import { MoveFailed, MoveRefused } from "./move";
import { moveThroughBindings } from "./move-bindings";
import type { MoveStatus } from "./move-status";
import { beginMove, isFinished, OnlineMove, statusOf, type DigestStore, type MoveState } from "./online-move";

// DESIGN 22b: a move runs where the bindings are. One Durable Object per employer (named
// `employer:N`, binding MOVES) runs its move (src/shards/online-move.ts) in bounded alarm steps,
// recording the move's state in its storage after each one, so that a crash, a deploy or an
// eviction resumes it where it was; its digests of every row live in its SQLite storage. Started
// and followed through src/shards/moves.ts.

/** An alarm works this long at most (then the next alarm goes on), a freeze aside. */
const STEP_MS = 2_000;
/** After a step failed (D1 unreachable), the next try. An alarm never throws: a thrown one is given up after a few retries. */
const RETRY_MS = 5_000;
/** Steps failed in a row before the move gives up (about 8 minutes of failures). */
const MAX_FAILURES = 100;

const STATE = "move";

/** The state of a move, with the failures of its steps in a row. */
interface Recorded extends MoveState {
  failures: number;
}

export class EmployerMove extends DurableObject<Env> implements Mover {
  private readonly store: DigestStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, retryingBindings(env));
    this.store = digestStore(ctx.storage.sql);
  }

  /**
   * Moves employer `employerId` to shard `to`: starts the move, or answers the one under way (the
   * same target: its alarm started again if it was lost), or the one done (the same target).
   * `refused`: why it cannot start (nothing changed).
   */
  async start(employerId: number, to: number): Promise<MoveStatus | { refused: string }> {
    // Nothing else runs meanwhile (a second start, a step): one move at a time.
    return this.ctx.blockConcurrencyWhile(async () => {
      const state = await this.load();
      if (state && !isFinished(state)) {
        if (state.to !== to) return { refused: `Employer ${employerId} is being moved to shard ${state.to} (stage ${state.stage}): that move ends first.` };
        if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
        return statusOf(state);
      }
      let begun: MoveState;
      try {
        begun = await beginMove(moveThroughBindings(this.env).dbs, employerId, to, Date.now());
      } catch (error) {
        if (!(error instanceof MoveRefused || error instanceof MoveFailed)) throw error;
        // Asked again once done: the same answer.
        if (state?.stage === "done" && state.to === to) return statusOf(state);
        return { refused: error.message };
      }
      this.store.clear();
      await this.save({ ...begun, failures: 0 });
      await this.ctx.storage.setAlarm(Date.now());
      this.log(begun, `moving employer ${employerId} from shard ${begun.from} to shard ${to}`);
      return statusOf(begun);
    });
  }

  /** The move's status (null: this employer was never moved by the Worker). */
  async status(): Promise<MoveStatus | null> {
    const state = await this.load();
    return state ? statusOf(state) : null;
  }

  override async alarm(): Promise<void> {
    const state = await this.load();
    if (!state || isFinished(state)) return;
    const { dbs, keys } = moveThroughBindings(this.env);
    const move = new OnlineMove(dbs, keys, this.store, (s) => this.save(s as Recorded), (line) => this.log(state, line));
    const until = Date.now() + STEP_MS;
    try {
      do {
        state.error = null;
        await move.step(state);
        state.failures = 0;
        await this.save(state);
      } while (!isFinished(state) && Date.now() < until);
      if (!isFinished(state)) await this.ctx.storage.setAlarm(Date.now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(JSON.stringify({ event: "employer-move-failed", employerId: state.employerId, stage: state.stage, error: message }));
      state.error = { at: Date.now(), message };
      state.failures++;
      // Never left frozen by a failure: the employer's writes resume, and the move catches up again.
      try {
        if (state.stage === "frozen") await move.thaw(state, `a step failed: ${message}`, "catching-up");
        if (state.failures >= MAX_FAILURES) await move.fail(state, `${state.failures} steps failed in a row, the last: ${message}`);
      } catch {
        // Tried again by the next alarm (a move found frozen thaws first).
      }
      await this.save(state);
      if (!isFinished(state)) await this.ctx.storage.setAlarm(Date.now() + RETRY_MS);
    }
  }

  private async load(): Promise<Recorded | undefined> {
    return this.ctx.storage.get<Recorded>(STATE);
  }

  private async save(state: Recorded): Promise<void> {
    state.updatedAt = Date.now();
    await this.ctx.storage.put(STATE, state);
  }

  private log(state: Pick<MoveState, "employerId" | "from" | "to">, line: string) {
    console.log(JSON.stringify({ event: "employer-move", employerId: state.employerId, from: state.from, to: state.to, line }));
  }
}

/** The digests of every row of a move, in the Durable Object's SQLite storage. */
function digestStore(sql: SqlStorage): DigestStore {
  sql.exec("CREATE TABLE IF NOT EXISTS digests (tbl TEXT NOT NULL, key TEXT NOT NULL, src TEXT, dst TEXT, PRIMARY KEY (tbl, key)) WITHOUT ROWID");
  return {
    clear: () => void sql.exec("DELETE FROM digests"),
    set(table, side, digests) {
      for (const [key, digest] of digests) {
        sql.exec(`INSERT INTO digests (tbl, key, ${side}) VALUES (?, ?, ?) ON CONFLICT (tbl, key) DO UPDATE SET ${side} = excluded.${side}`, table, key, digest);
        if (digest === null) sql.exec("DELETE FROM digests WHERE tbl = ? AND key = ? AND src IS NULL AND dst IS NULL", table, key);
      }
    },
    differing(after, limit) {
      const [table, key] = after ?? ["", ""];
      return sql
        .exec<{ tbl: string; key: string }>("SELECT tbl, key FROM digests WHERE src IS NOT dst AND (tbl, key) > (?, ?) ORDER BY tbl, key LIMIT ?", table, key, limit)
        .toArray()
        .map((row) => [row.tbl, row.key]);
    },
    summary() {
      const rows = sql.exec<{ tbl: string; src: number; dst: number; differ: number }>(
        "SELECT tbl, count(src) AS src, count(dst) AS dst, sum(src IS NOT dst) AS differ FROM digests GROUP BY tbl",
      );
      return new Map(rows.toArray().map((row) => [row.tbl, { src: row.src, dst: row.dst, differ: row.differ }]));
    },
  };
}
