import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { dispatchAfterResponse } from "../events/dispatch";
import { enqueueCopies } from "./copies";
import { afterResponse } from "../http/after-response";
import { buildPaging } from "../http/paging";
import { isJsonMediaType } from "../http/middleware/json-body";
import { clientAddress } from "../http/middleware/rate-limit";
import { validationHook } from "../http/validation";
import { getJob } from "../jobs/service";
import { ApplicationFormSchema, applyRoute, getApplicationRoute, getResumeRoute, listJobApplicationsRoute } from "./routes";
import { ApplicationInputSchema } from "./schemas";
import { applicationsOfJob, readApplication, resumeOf, submitApplication, toApplication } from "./service";

const base = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
base.openAPIRegistry.register("ApplicationInput", ApplicationInputSchema);
base.openAPIRegistry.register("ApplicationForm", ApplicationFormSchema);

export const applicationsApi = base
  .openapi(applyRoute, async (c) => {
    // The route's gate has counted the attempt and checked the media type before the body was read.
    const multipart = !isJsonMediaType(c.req.header("Content-Type") ?? "");
    const body = (multipart ? c.req.valid("form") : c.req.valid("json")) as Record<string, unknown>;
    const { resume, "cf-turnstile-response": token, ...fields } = body;
    const { receipt, events } = await submitApplication(c.env, c.var.db, c.req.valid("param").id, {
      fields,
      resume,
      multipart,
      turnstileToken: typeof token === "string" ? token : undefined,
      clientAddress: clientAddress(c),
    });
    dispatchAfterResponse(c, events);
    afterResponse(c, enqueueCopies(c.env, [receipt.id]), "email copy not queued; the cron will sweep");
    return c.json(receipt, 201);
  })
  .openapi(listJobApplicationsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { page, pageSize } = c.req.valid("query");
    await getJob({ db: c.var.db, employerId: c.var.employerId }, id);
    const { data, total } = await applicationsOfJob(c.var.db, c.var.employerId, id, page, pageSize);
    return c.json({ data, paging: buildPaging(c, total, page, pageSize) }, 200);
  })
  .openapi(getApplicationRoute, async (c) => c.json(toApplication(await readApplication(c.var.db, c.var.employerId, c.req.valid("param").id)), 200))
  .openapi(getResumeRoute, async (c) => {
    const { row, object } = await resumeOf(c.env, c.var.db, c.var.employerId, c.req.valid("param").id);
    c.header("Content-Type", row.resumeType!);
    c.header("Content-Disposition", `attachment; filename="${row.resumeFilename!.replace(/["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(row.resumeFilename!)}`);
    c.header("X-Content-Type-Options", "nosniff");
    return c.body(object.body, 200) as never;
  });
