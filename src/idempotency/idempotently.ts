import type { SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { ConflictError, ProblemError } from "../http/problem";
import { IdempotencyKeyReusedError, recordResponse, storedResponse, type KeyUse, type StoredResponse } from "./repository";

// DESIGN 11: a request with an Idempotency-Key runs once. Its response is recorded in its own
// write batch, so a request that died left either its write and its record, or neither: a
// repeat replays the first or runs afresh, and nothing in the database marks a key in flight.

/** Keys whose request is running in this isolate (and their hashes): gone with the request. */
const running = new Map<string, string>();

export type Idempotent<T> = { replayed: StoredResponse } | { ran: T };

/**
 * Replays the response stored under the key, or runs the request: `run` gets the statements
 * that record its response (`record(status, body)`) for its write batch.
 */
export async function idempotently<T>(
  db: Database,
  use: KeyUse,
  run: (record: (status: number, body: SQL) => SQL[]) => Promise<T>,
): Promise<Idempotent<T>> {
  const stored = await storedResponse(db, use);
  if (stored) return { replayed: stored };
  const slot = `${use.employerId} ${use.key}`;
  const holder = running.get(slot);
  if (holder !== undefined) {
    if (holder !== use.hash) throw new IdempotencyKeyReusedError();
    throw new ConflictError(
      "idempotency-key-in-flight",
      "A request with this Idempotency-Key is still being processed; retry once it has been answered.",
    );
  }
  running.set(slot, use.hash);
  try {
    return { ran: await run((status, body) => recordResponse(use, status, body)) };
  } catch (error) {
    // A request with this key running elsewhere stored its response first: ours aborted on the
    // key (or, for a referenceId, on the job that request created) and stored nothing. Answer
    // the first. Other refusals (400, 404, 412, ...) cannot come from that and cost no read.
    if (error instanceof ProblemError && error.status !== 409) throw error;
    const first = await storedResponse(db, use);
    if (first) return { replayed: first };
    throw error;
  } finally {
    running.delete(slot);
  }
}
