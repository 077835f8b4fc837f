import { OpenAPIHono } from "../../http/openapi-hono";
import type { AppEnv } from "../../env";
import { dispatchAfterResponse } from "../../events/dispatch";
import type { RecordedEvent } from "../../events/outbox";
import { validationHook } from "../../http/validation";
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from "../../idempotency/rules";
import { reconcileJobsRoute } from "./routes";
import { previewReconcile, reconcile } from "./service";

export const reconcileApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(reconcileJobsRoute, async (c) => {
  const request = c.req.valid("json");
  const caller = { db: c.var.db, employerId: c.var.employerId };
  if (c.req.valid("query").validateOnly) return c.json(await previewReconcile(caller, request), 200);
  const events: RecordedEvent[] = [];
  const { answer, replayed } = await reconcile(caller, request, events, parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER)));
  if (replayed) c.header("Idempotent-Replayed", "true");
  dispatchAfterResponse(c, events);
  return c.json(answer, 200);
});
