import { OpenAPIHono } from "../http/openapi-hono";
import type { AppEnv } from "../env";
import { dispatchAfterResponse } from "../events/dispatch";
import type { RecordedEvent } from "../events/outbox";
import { validationHook } from "../http/validation";
import { getEmployerRoute, updateEmployerRoute } from "./routes";
import { changeEmployer, getEmployer, settingsOf } from "./service";
import { employerEventWebhooks } from "./event-schemas";

export const employerApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(getEmployerRoute, async (c) => c.json(settingsOf(await getEmployer(c.var.db, c.var.employerId)), 200))
  .openapi(updateEmployerRoute, async (c) => {
    const events: RecordedEvent[] = [];
    const employer = await changeEmployer(c.var.db, c.var.employerId, c.req.valid("json"), events);
    dispatchAfterResponse(c, events);
    return c.json(settingsOf(employer), 200);
  });

for (const webhook of employerEventWebhooks) employerApi.openAPIRegistry.registerWebhook(webhook);
