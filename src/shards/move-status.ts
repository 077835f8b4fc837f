// DESIGN 22b: what a move run by the Worker (src/shards/online-move.ts, in the EmployerMove
// Durable Object) says of itself: the answer of POST /operator/shards/moves and GET
// /operator/shards/moves/{employerId}, and of the functions behind them (src/shards/moves.ts).
// Types only: the bindings' types (src/env.ts) name them.

/**
 * The stages, in order (a freeze that fails its checks goes back to "repairing", one that runs
 * out of time to "catching-up"):
 *   copying      every row copied to the target in bounded batches, the employer writing meanwhile
 *   verifying    each row's digest read in both shards
 *   repairing    the rows whose digests differ copied again
 *   catching-up  what the employer changed since, copied again from the source's record of changes, in rounds that shrink
 *   frozen       the employer's writes refused (503, Retry-After: 1) for the last round, the checks and the flip: seconds at most
 *   flipped      the target holds the employer; the source's rows are a tombstone
 *   keys         the API keys' records name the target
 *   cleaning     the source's rows deleted in bounded batches
 *   done         finished ("outcome" says so)
 *   failed       given up ("error" says why): the employer lives where it lived, unfrozen
 */
export const ONLINE_MOVE_STAGES = ["copying", "verifying", "repairing", "catching-up", "frozen", "flipped", "keys", "cleaning", "done", "failed"] as const;
export type OnlineMoveStage = (typeof ONLINE_MOVE_STAGES)[number];

/** One freeze of the employer: when, how long its writes were refused, and how it ended. */
export interface Freeze {
  at: number;
  ms: number;
  outcome: "flipped" | "thawed";
  /** Why it thawed without a flip (out of time, a check that failed). */
  why?: string;
}

export interface MoveStatus {
  employerId: number;
  from: number;
  to: number;
  stage: OnlineMoveStage;
  /** Times in ms since the epoch. */
  startedAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** Rows written to the target by the first copy. */
  copied: number;
  /** Rows copied again (or deleted from the target) by repairs and catch-up rounds. */
  synced: number;
  /** The changes each catch-up round took, the latest last (at most 20 kept). */
  rounds: number[];
  freezes: Freeze[];
  /** Per table, the rows found equal in both shards (counts and digests) just before the flip. */
  verified: Record<string, number> | null;
  /** Rows deleted from the source after the flip. */
  deleted: number;
  /** The last error (its step is tried again a few seconds later), or why the move failed. */
  error: { at: number; message: string } | null;
  /** DESIGN 22a's last line of a move, once done. */
  outcome: { employerId: number; from: number; to: number; rows: number; ms: number } | null;
}
