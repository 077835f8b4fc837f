import { OpenAPIHono } from "../../http/openapi-hono";
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { dispatchAfterResponse } from "../../events/dispatch";
import type { RecordedEvent } from "../../events/outbox";
import { validationHook } from "../../http/validation";
import { idempotently } from "../../idempotency/idempotently";
import { IDEMPOTENCY_HEADER, parseIdempotencyKey, requestHash } from "../../idempotency/rules";
import { nowSeconds } from "../dates";
import { fromJobSnapshots, jobSnapshotsByReference } from "../repository";
import type { Caller } from "../service";
import { syncJobsRoute } from "./routes";
import { BatchDeleteEntrySchema, BatchUpsertEntrySchema, type BatchRequest, type BatchResult } from "./schemas";
import { syncJobs, withJobs } from "./service";

/**
 * With an Idempotency-Key (DESIGN 11): the answers and the jobs they show are recorded with the
 * key in the batch's own write, so a replay answers exactly the same.
 */
async function syncIdempotently(c: Context<AppEnv>, caller: Caller, key: string, request: BatchRequest, events: RecordedEvent[]): Promise<BatchResult[]> {
  const use = { employerId: caller.employerId, key, hash: await requestHash("POST /jobs/batch", request), now: nowSeconds() };
  const outcome = await idempotently(caller.db, use, (record) =>
    syncJobs(caller, request, {
      events,
      extras: (results, shown) =>
        record(200, sql`json_object('results', json(${JSON.stringify(results)}), 'jobs', json(${jobSnapshotsByReference(caller.employerId, shown)}))`),
    }),
  );
  if ("ran" in outcome) return outcome.ran;
  const { results, jobs } = JSON.parse(outcome.replayed.body) as { results: BatchResult[]; jobs: unknown[] };
  c.header("Idempotent-Replayed", "true");
  return withJobs(results, new Map(fromJobSnapshots(jobs).map((row) => [row.referenceId!, row])));
}

const base = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
// The entries are documented by these schemas and checked against them entry by entry.
base.openAPIRegistry.register("BatchUpsertEntry", BatchUpsertEntrySchema);
base.openAPIRegistry.register("BatchDeleteEntry", BatchDeleteEntrySchema);

export const batchApi = base.openapi(syncJobsRoute, async (c) => {
  const request = c.req.valid("json");
  const { validateOnly } = c.req.valid("query");
  const caller = { db: c.var.db, employerId: c.var.employerId };
  const key = parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
  const events: RecordedEvent[] = [];
  const results =
    key && !validateOnly ? await syncIdempotently(c, caller, key, request, events) : await syncJobs(caller, request, { validateOnly, events });
  dispatchAfterResponse(c, events);
  return c.json({ results }, 200);
});
