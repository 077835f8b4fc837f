import { OpenAPIHono } from "../http/openapi-hono";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { buildPaging } from "../http/paging";
import { validationHook } from "../http/validation";
import {
  createEndpointRoute,
  deleteEndpointRoute,
  getEndpointRoute,
  listDeliveriesRoute,
  listEndpointsRoute,
  retryDeliveryRoute,
  rotateSecretRoute,
  testEndpointRoute,
  updateEndpointRoute,
} from "./routes";
import {
  changeEndpoint,
  createEndpoint,
  deliveryLog,
  getEndpoint,
  listOwnEndpoints,
  removeEndpoint,
  retryDelivery,
  rotateSecret,
  sendTestEvent,
  type WebhookCaller,
} from "./service";

const caller = (c: Context<AppEnv>): WebhookCaller => ({ db: c.var.db, env: c.env, employerId: c.var.employerId });

export const webhooksApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(createEndpointRoute, async (c) => c.json(await createEndpoint(caller(c), c.req.valid("json")), 201))
  .openapi(listEndpointsRoute, async (c) => c.json({ data: await listOwnEndpoints(caller(c)) }, 200))
  .openapi(getEndpointRoute, async (c) => c.json(await getEndpoint(caller(c), c.req.valid("param").id), 200))
  .openapi(updateEndpointRoute, async (c) => c.json(await changeEndpoint(caller(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(deleteEndpointRoute, async (c) => {
    await removeEndpoint(caller(c), c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(rotateSecretRoute, async (c) => c.json(await rotateSecret(caller(c), c.req.valid("param").id), 200))
  .openapi(testEndpointRoute, async (c) => c.json({ id: await sendTestEvent(caller(c), c.req.valid("param").id) }, 202))
  .openapi(listDeliveriesRoute, async (c) => {
    const { page, pageSize, status } = c.req.valid("query");
    const { data, total } = await deliveryLog(caller(c), c.req.valid("param").id, { page, pageSize, status });
    return c.json({ data, paging: buildPaging(c, total, page, pageSize) }, 200);
  })
  .openapi(retryDeliveryRoute, async (c) => {
    const { id, messageId } = c.req.valid("param");
    await retryDelivery(caller(c), id, messageId);
    return c.json({ id: messageId }, 202);
  });
