import { and, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { ProblemError } from "../http/problem";
import { windowOf, type Chunk } from "../db/windows";
import { ofUnlockedEmployer } from "../shards/locks";
import { KEY_LIFETIME_SECONDS } from "./rules";
import { idempotencyKeys } from "./tables";

/** One request's use of a key: who, which key, what was asked (its hash), and when. */
export interface KeyUse {
  employerId: number;
  key: string;
  hash: string;
  now: number;
}

/** The first response, as its write recorded it. */
export interface StoredResponse {
  status: number;
  body: string;
}

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

/** The response stored under the key in the last 24 hours, if any; 422 when it answered another body. */
export async function storedResponse(db: Database, use: KeyUse): Promise<StoredResponse | undefined> {
  const [row] = await db
    .select({ requestHash: idempotencyKeys.requestHash, status: idempotencyKeys.responseStatus, body: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.employerId, use.employerId),
        eq(idempotencyKeys.key, use.key),
        gt(idempotencyKeys.createdAt, use.now - KEY_LIFETIME_SECONDS),
      ),
    );
  if (!row) return undefined;
  if (row.requestHash !== use.hash) throw new IdempotencyKeyReusedError();
  return { status: row.status!, body: row.body! };
}

/**
 * The statements that store the response under the key, for the same atomic batch as the write
 * it answers: the record exists exactly when the write does. When another request stored the key
 * first, the primary key aborts the whole batch, so the same request is never applied twice.
 */
export function recordResponse(use: KeyUse, status: number, body: SQL): SQL[] {
  return [
    // A record past its 24 hours that the cron has not removed yet no longer holds the key.
    sql`DELETE FROM idempotency_keys
      WHERE employer_id = ${use.employerId} AND key = ${use.key} AND created_at <= ${use.now - KEY_LIFETIME_SECONDS}`,
    sql`INSERT INTO idempotency_keys (employer_id, key, request_hash, holder, state, response_status, response_body, created_at)
      VALUES (${use.employerId}, ${use.key}, ${use.hash}, '', 'done', ${status}, ${body}, ${use.now})`,
  ];
}

/** For the cron: keys older than 24 hours, a chunk at a time (src/scheduled/chunks.ts). */
export function expiredKeys(db: Database, now: number, chunk: Chunk) {
  const { ids, last } = windowOf({ table: idempotencyKeys, key: idempotencyKeys.createdAt, range: lt(idempotencyKeys.createdAt, now - KEY_LIFETIME_SECONDS) })(chunk);
  // DESIGN 22: not a key of an employer locked by a move (its trigger would refuse the chunk); a later run takes it.
  return { last, statement: db.delete(idempotencyKeys).where(sql`rowid IN (${ids}) AND ${ofUnlockedEmployer(idempotencyKeys.employerId)}`) };
}
