import { and, eq, lt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { ConflictError, ProblemError } from "../http/problem";
import { ABANDONED_AFTER_SECONDS, KEY_LIFETIME_SECONDS } from "./rules";
import { idempotencyKeys } from "./tables";

export interface KeyClaim {
  employerId: number;
  key: string;
  /** This request's id: only the holder completes or releases the key. */
  holder: string;
}

export type ClaimOutcome =
  | { kind: "claimed"; claim: KeyClaim }
  | { kind: "replay"; status: number; body: string };

export class IdempotencyKeyReusedError extends ProblemError {
  constructor() {
    super(
      422,
      "idempotency-key-reused",
      "Idempotency-Key reused.",
      "This Idempotency-Key was used with a different request body in the last 24 hours; use a new key for a new request.",
    );
  }
}

/**
 * Takes the key for this request, in one round trip: a new key (or one expired, or abandoned
 * by a request that died) becomes ours; otherwise the first request's outcome decides —
 * a replay of its response, 409 while it still runs, 422 for another body.
 */
export async function claimKey(db: Database, employerId: number, key: string, hash: string, now: number): Promise<ClaimOutcome> {
  const holder = crypto.randomUUID();
  const row = { employerId, key, requestHash: hash, holder, state: "processing" as const, createdAt: now };
  const stale = sql`(${idempotencyKeys.createdAt} <= ${now - KEY_LIFETIME_SECONDS}
    OR (${idempotencyKeys.state} = 'processing' AND ${idempotencyKeys.createdAt} <= ${now - ABANDONED_AFTER_SECONDS}))`;
  const [, [current]] = await db.batch([
    db
      .insert(idempotencyKeys)
      .values(row)
      .onConflictDoUpdate({
        target: [idempotencyKeys.employerId, idempotencyKeys.key],
        set: { ...row, responseStatus: null, responseBody: null, responseLocation: null },
        setWhere: stale,
      }),
    db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.employerId, employerId), eq(idempotencyKeys.key, key))),
  ]);
  if (current.holder === holder) return { kind: "claimed", claim: { employerId, key, holder } };
  if (current.requestHash !== hash) throw new IdempotencyKeyReusedError();
  if (current.state === "processing") {
    throw new ConflictError(
      "idempotency-key-in-flight",
      "A request with this Idempotency-Key is still being processed; retry once it has been answered.",
    );
  }
  return { kind: "replay", status: current.responseStatus!, body: current.responseBody! };
}

/** The statement that completes the key, for the same atomic batch as the write it answers. */
export function completeKey(claim: KeyClaim, status: number, body: SQL): SQL {
  return sql`UPDATE idempotency_keys SET state = 'done', response_status = ${status}, response_body = ${body}
    WHERE employer_id = ${claim.employerId} AND key = ${claim.key} AND holder = ${claim.holder}`;
}

/** A request that ended in an error frees its key: 4xx answers are not remembered. */
export async function releaseKey(db: Database, claim: KeyClaim): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.employerId, claim.employerId), eq(idempotencyKeys.key, claim.key), eq(idempotencyKeys.holder, claim.holder)));
}

/** For the cron: keys older than 24 hours, in one set-based statement. */
export function expiredKeys(db: Database, now: number) {
  return db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, now - KEY_LIFETIME_SECONDS));
}
