import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { DOCS_PATH, docsPage } from "./docs/page";
import type { AppEnv } from "./env";
import { handleError } from "./http/errors";
import { authenticate } from "./http/middleware/authenticate";
import { database } from "./http/middleware/database";
import { postMethodOverride } from "./http/middleware/method-override";
import { limitJobRequests } from "./http/middleware/rate-limit";
import { requestLog } from "./http/middleware/request-log";
import { noSniff, privateResponses } from "./http/middleware/security-headers";
import { completeDocument, OPENAPI_PATH, serveDocument } from "./http/openapi";
import { MethodNotAllowedError, NotFoundError, PayloadTooLargeError, problemResponse } from "./http/problem";
import { validationHook } from "./http/validation";
import { API_PREFIX } from "./http/version";
import { batchApi } from "./jobs/batch/handlers";
import { jobsApi } from "./jobs/handlers";
import { referenceApi } from "./reference/handlers";

export const MAX_BODY_BYTES = 1024 * 1024;

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use(noSniff);
  app.use(postMethodOverride(app));
  app.use(requestId());
  app.use(requestLog);
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => problemResponse(c, new MethodNotAllowedError(c.req.method, methods)),
    }),
  );
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new PayloadTooLargeError(MAX_BODY_BYTES);
      },
    }),
  );
  app.use(`${API_PREFIX}/*`, database);
  // Hono's `/jobs/*` also matches `/jobs` itself: one registration, so each request is
  // authenticated and counted once.
  app.use(`${API_PREFIX}/jobs/*`, privateResponses, authenticate, limitJobRequests);

  const routes = app.route("/", referenceApi).route("/", batchApi).route("/", jobsApi);

  completeDocument(app);
  app.get(OPENAPI_PATH, serveDocument(app));
  app.get(DOCS_PATH, docsPage);

  app.notFound((c) => problemResponse(c, new NotFoundError()));
  app.onError(handleError);
  return routes;
}
