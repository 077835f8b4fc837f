import { OpenAPIHono } from "../http/openapi-hono";
import { API_PREFIX } from "../http/version";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { buildPaging, publicOrigin } from "../http/paging";
import { validationHook } from "../http/validation";
import { dispatchAfterResponse } from "../events/dispatch";
import type { RecordedEvent } from "../events/outbox";
import { idempotently } from "../idempotency/idempotently";
import { IDEMPOTENCY_HEADER, parseIdempotencyKey, requestHash } from "../idempotency/rules";
import { nowSeconds } from "./dates";
import { etagOf, ifNoneMatchHits, parsePreconditions } from "./etag";
import { jobSnapshot, listJobs, parseJobSnapshot, type JobRow } from "./repository";
import { toJob, toJobHeader, toJobPreview } from "./representation";
import {
  createJobRoute,
  deleteJobByReferenceRoute,
  deleteJobRoute,
  getJobRoute,
  listJobsRoute,
  putJobByReferenceRoute,
  updateJobRoute,
} from "./routes";
import { JobByReferenceInputSchema, JobInputSchema } from "./schemas";
import { jobEventWebhooks } from "./event-schemas";
import { createJob, getJob, putJobByReference, removeJob, updateJobById, type Caller } from "./service";

const caller = (c: Context<AppEnv>): Caller => ({ db: c.var.db, employerId: c.var.employerId });
const locationOf = (c: Context<AppEnv>, id: number) => `${publicOrigin(c)}${API_PREFIX}/jobs/${id}`;
const ifMatchOf = (c: Context<AppEnv>) => parsePreconditions(c.req.header("If-Match"));

/** A stored job's answer headers: its ETag, and where it lives when it was just created. */
function describeJob(c: Context<AppEnv>, row: JobRow, created: boolean) {
  c.header("ETag", etagOf(row));
  if (created) c.header("Location", locationOf(c, row.id));
}

/**
 * POST with an Idempotency-Key (DESIGN 11): the response's job is recorded with the key in the
 * job's own write batch, so a replay answers exactly the same.
 */
async function createIdempotently(c: Context<AppEnv>, key: string, body: Record<string, unknown>) {
  const { employerId } = caller(c);
  const use = { employerId, key, hash: await requestHash("POST /jobs", body), now: nowSeconds() };
  const events: RecordedEvent[] = [];
  const outcome = await idempotently(c.var.db, use, (record) =>
    createJob(caller(c), body, { extras: (written) => record(201, jobSnapshot(employerId, written)), events }),
  );
  if ("replayed" in outcome) {
    const row = parseJobSnapshot(outcome.replayed.body);
    describeJob(c, row, true);
    c.header("Idempotent-Replayed", "true");
    return row;
  }
  dispatchAfterResponse(c, events);
  if (!outcome.ran.stored) throw new Error("A write without validateOnly is always stored.");
  describeJob(c, outcome.ran.row, true);
  return outcome.ran.row;
}

const base = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
// The job bodies are documented by these schemas and checked against them member by member in
// one evaluation (src/jobs/evaluate.ts), not by the route's validator.
base.openAPIRegistry.register("JobInput", JobInputSchema);
base.openAPIRegistry.register("JobByReferenceInput", JobByReferenceInputSchema);
for (const webhook of jobEventWebhooks) base.openAPIRegistry.registerWebhook(webhook);


export const jobsApi = base
  .openapi(getJobRoute, async (c) => {
    const row = await getJob(caller(c), c.req.valid("param").id);
    const etag = etagOf(row);
    const held = parsePreconditions(c.req.header("If-None-Match"));
    c.header("ETag", etag);
    if (held && ifNoneMatchHits(held, etag)) return c.body(null, 304);
    return c.json(toJob(row), 200);
  })
  .openapi(listJobsRoute, async (c) => {
    const { q, status, page, pageSize } = c.req.valid("query");
    const { rows, total } = await listJobs(c.var.db, c.var.employerId, { q: q || undefined, status, page, pageSize });
    return c.json({ data: rows.map(toJobHeader), paging: buildPaging(c, total, page, pageSize) }, 200);
  })
  .openapi(createJobRoute, async (c) => {
    const body = c.req.valid("json") as Record<string, unknown>;
    const { validateOnly } = c.req.valid("query");
    const key = parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
    // A validate-only request writes nothing, so there is nothing for a key to protect.
    if (key && !validateOnly) {
      return c.json(toJob(await createIdempotently(c, key, body)), 201);
    }
    const events: RecordedEvent[] = [];
    const result = await createJob(caller(c), body, { validateOnly, events });
    dispatchAfterResponse(c, events);
    if (!result.stored) return c.json(toJobPreview(result.preview), 200);
    describeJob(c, result.row, true);
    return c.json(toJob(result.row), 201);
  })
  .openapi(updateJobRoute, async (c) => {
    const body = c.req.valid("json") as Record<string, unknown>;
    const options = { validateOnly: c.req.valid("query").validateOnly, ifMatch: ifMatchOf(c), events: [] as RecordedEvent[] };
    const result = await updateJobById(caller(c), c.req.valid("param").id, body, options);
    dispatchAfterResponse(c, options.events);
    if (!result.stored) return c.json(toJobPreview(result.preview), 200);
    describeJob(c, result.row, false);
    return c.json(toJob(result.row), 200);
  })
  .openapi(putJobByReferenceRoute, async (c) => {
    const body = c.req.valid("json") as Record<string, unknown>;
    const options = { validateOnly: c.req.valid("query").validateOnly, ifMatch: ifMatchOf(c), events: [] as RecordedEvent[] };
    const result = await putJobByReference(caller(c), body, options);
    dispatchAfterResponse(c, options.events);
    if (!result.stored) return c.json(toJobPreview(result.preview), 200);
    describeJob(c, result.row, result.created);
    return result.created ? c.json(toJob(result.row), 201) : c.json(toJob(result.row), 200);
  })
  .openapi(deleteJobRoute, async (c) => {
    const events: RecordedEvent[] = [];
    await removeJob(caller(c), { id: c.req.valid("param").id }, ifMatchOf(c), events);
    dispatchAfterResponse(c, events);
    return c.body(null, 204);
  })
  .openapi(deleteJobByReferenceRoute, async (c) => {
    const events: RecordedEvent[] = [];
    await removeJob(caller(c), { referenceId: c.req.valid("json").referenceId }, ifMatchOf(c), events);
    dispatchAfterResponse(c, events);
    return c.body(null, 204);
  });
