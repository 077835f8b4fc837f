import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./env";
import { handleError } from "./http/errors";
import { authenticate } from "./http/middleware/authenticate";
import { database } from "./http/middleware/database";
import { postMethodOverride } from "./http/middleware/method-override";
import { MethodNotAllowedError, NotFoundError, PayloadTooLargeError, problemResponse } from "./http/problem";
import { validationHook } from "./http/validation";
import { jobsApi } from "./jobs/handlers";
import { referenceApi } from "./reference/handlers";

export const API_PREFIX = "/api/v1.1";
export const MAX_BODY_BYTES = 1024 * 1024;

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use(postMethodOverride(app));
  app.use(requestId());
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
  app.use(`${API_PREFIX}/jobs`, authenticate);
  app.use(`${API_PREFIX}/jobs/*`, authenticate);

  const routes = app.route("/", referenceApi).route("/", jobsApi);

  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "API-Key",
    description: "Your employer API key. Create one with `npm run keys -- create --name \"Acme Ltd.\"`.",
  });
  app.doc31(`${API_PREFIX}/openapi.json`, {
    openapi: "3.1.0",
    info: {
      title: "Job Posting API",
      version: "1.1",
      description: "Create, update, archive, re-publish, delete and list your job postings.",
    },
  });

  app.notFound((c) => problemResponse(c, new NotFoundError()));
  app.onError(handleError);
  return routes;
}

export type App = ReturnType<typeof createApp>;
