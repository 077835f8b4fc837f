import type { SQL } from "drizzle-orm";
import type { RecordedEvent } from "../../events/outbox";
import { idempotently } from "../../idempotency/idempotently";
import { requestHash } from "../../idempotency/rules";
import { nowSeconds } from "../dates";
import { reconcileJobs, unlistedJobs } from "../repository";
import type { Caller } from "../service";
import type { ReconcileRequest, ReconcileResponse } from "./schemas";

// DESIGN 21, 21a: reconcile. Duplicates in the list are allowed: the list is a set.

const answerOf = (affected: ReconcileResponse["affected"]): ReconcileResponse => ({ affected, count: affected.length });

/** What reconcile would change, changing nothing (`validateOnly=true`). */
export async function previewReconcile(caller: Caller, request: ReconcileRequest): Promise<ReconcileResponse> {
  return answerOf(await unlistedJobs(caller.db, caller.employerId, request.referenceIds));
}

/** Reconciles; with an Idempotency-Key the answer is recorded in the same batch and a replay answers it again. */
export async function reconcile(
  caller: Caller,
  request: ReconcileRequest,
  events: RecordedEvent[],
  key?: string,
): Promise<{ answer: ReconcileResponse; replayed: boolean }> {
  const now = nowSeconds();
  const run = (extras: (answer: SQL) => SQL[]) =>
    reconcileJobs(caller.db, caller.employerId, request.referenceIds, request.action, now, extras, events).then(answerOf);
  if (!key) return { answer: await run(() => []), replayed: false };
  const use = { employerId: caller.employerId, key, hash: await requestHash("POST /jobs/reconcile", request), now };
  const outcome = await idempotently(caller.db, use, (record) => run((answer) => record(200, answer)));
  return "ran" in outcome ? { answer: outcome.ran, replayed: false } : { answer: JSON.parse(outcome.replayed.body) as ReconcileResponse, replayed: true };
}
