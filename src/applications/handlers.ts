import { OpenAPIHono } from "../http/openapi-hono";
import type { AppEnv } from "../env";
import { dispatchAfterResponse } from "../events/dispatch";
import { enqueueEmails } from "./copies";
import { ifNoneMatchHits, parsePreconditions } from "../jobs/etag";
import { afterResponse } from "../http/after-response";
import { buildPaging, publicOrigin } from "../http/paging";
import { isJsonMediaType } from "../http/middleware/json-body";
import { clientAddress } from "../http/middleware/rate-limit";
import { NotFoundError } from "../http/problem";
import { validationHook } from "../http/validation";
import { getJob } from "../jobs/service";
import {
  ApplicationFormSchema,
  applicationHistoryRoute,
  applyRoute,
  applyToTestJobRoute,
  getApplicationRoute,
  getResumeRoute,
  listJobApplicationsRoute,
  moveApplicationRoute,
} from "./routes";
import { ApplicationInputSchema } from "./schemas";
import { applicationEtag, toApplication } from "./representation";
import { applicationsOfJob, historyOf, moveApplicationTo, readApplication, resumeDownload, settleMove } from "./service";
import { submitApplication } from "./submission";

const base = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
base.openAPIRegistry.register("ApplicationInput", ApplicationInputSchema);
base.openAPIRegistry.register("ApplicationForm", ApplicationFormSchema);

export const applicationsApi = base
  .openapi(applyRoute, async (c) => {
    // The route's gate has counted the attempt and checked the media type before the body was read.
    const multipart = !isJsonMediaType(c.req.header("Content-Type") ?? "");
    const body = (multipart ? c.req.valid("form") : c.req.valid("json")) as Record<string, unknown>;
    const { resume, "cf-turnstile-response": token, ...fields } = body;
    const { receipt, events, confirmationId } = await submitApplication(c.env, c.var.db, c.req.valid("param").id, {
      fields,
      resume,
      multipart,
      turnstileToken: typeof token === "string" ? token : undefined,
      clientAddress: clientAddress(c),
      origin: publicOrigin(c),
    });
    dispatchAfterResponse(c, events);
    afterResponse(c, enqueueEmails(c.env, { copies: [receipt.id], applicantEmails: [confirmationId] }), "emails not queued; the cron will sweep");
    return c.json(receipt, 201);
  })
  .openapi(applyToTestJobRoute, async (c) => {
    // DESIGN 21: the apply path's own rules, for the caller's test job; nothing to email.
    if (!c.var.testSpace) throw new NotFoundError("Only a test key applies to test jobs; your live jobs take applications on the board.");
    const multipart = !isJsonMediaType(c.req.header("Content-Type") ?? "");
    const { resume, "cf-turnstile-response": _token, ...fields } = (multipart ? c.req.valid("form") : c.req.valid("json")) as Record<string, unknown>;
    const { receipt, events } = await submitApplication(c.env, c.var.db, c.req.valid("param").id, {
      fields,
      resume,
      multipart,
      origin: publicOrigin(c),
      testSpaceId: c.var.employerId,
    });
    dispatchAfterResponse(c, events);
    return c.json(receipt, 201);
  })
  .openapi(listJobApplicationsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { page, pageSize, status, screenedOut } = c.req.valid("query");
    await getJob({ db: c.var.db, employerId: c.var.employerId }, id);
    const { data, total } = await applicationsOfJob(c.var.db, c.var.employerId, id, { status, screenedOut }, page, pageSize);
    return c.json({ data, paging: buildPaging(c, total, page, pageSize) }, 200);
  })
  .openapi(getApplicationRoute, async (c) => {
    const row = await readApplication(c.var.db, c.var.employerId, c.req.valid("param").id);
    const etag = applicationEtag(row);
    c.header("ETag", etag);
    const held = parsePreconditions(c.req.header("If-None-Match"));
    if (held && ifNoneMatchHits(held, etag)) return c.body(null, 304);
    return c.json(toApplication(row), 200);
  })
  .openapi(moveApplicationRoute, async (c) => {
    const moved = await moveApplicationTo(c.env, c.var.db, c.var.employerId, c.req.valid("param").id, c.req.valid("json"), parsePreconditions(c.req.header("If-Match")));
    settleMove(c, moved);
    c.header("ETag", applicationEtag(moved.row));
    return c.json(toApplication(moved.row), 200);
  })
  .openapi(applicationHistoryRoute, async (c) => c.json({ data: await historyOf(c.var.db, c.var.employerId, c.req.valid("param").id) }, 200))
  .openapi(getResumeRoute, async (c) => {
    const { body, headers } = await resumeDownload(c.env, c.var.db, c.var.employerId, c.req.valid("param").id);
    return c.body(body, 200, headers) as never;
  });
