import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { DOCS_PATH, docsPage } from "./docs/page";
import type { AppEnv } from "./env";
import { handleError } from "./http/errors";
import { authenticate } from "./http/middleware/authenticate";
import { bookmarks, database } from "./http/middleware/database";
import { postMethodOverride } from "./http/middleware/method-override";
import { publicCors } from "./http/middleware/cors";
import { limitJobRequests, rateLimitPolicy } from "./http/middleware/rate-limit";
import { requestLog } from "./http/middleware/request-log";
import { noSniff, privateResponses } from "./http/middleware/security-headers";
import { OpenAPIHono } from "./http/openapi-hono";
import { OPENAPI_PATH, serveDocument } from "./http/openapi";
import { MethodNotAllowedError, NotFoundError, PayloadTooLargeError, problemResponse } from "./http/problem";
import { MAX_BODY_BYTES } from "./http/limits";
import { validationHook } from "./http/validation";
import { API_PREFIX } from "./http/version";
import { batchApi } from "./jobs/batch/handlers";
import { reconcileApi } from "./jobs/reconcile/handlers";
import { statsApi } from "./stats/handlers";
import { countingViews } from "./stats/views";
import { jobsApi } from "./jobs/handlers";
import { employerApi } from "./employers/handlers";
import { applicationsApi } from "./applications/handlers";
import { applyGate, applyInJobShard } from "./applications/gate";
import { APPLY_PATH as APPLY_ROUTE, APPLY_TEST_PATH } from "./applications/routes";
import { inWithdrawTokenShard, WITHDRAW_PATH } from "./applications/withdraw";
import { withdrawPages } from "./applications/withdraw-pages";
import { boardPages } from "./pages/handlers";
import { alertFormBelowSearch } from "./alerts/public";
import { boardResponses } from "./board/cache";
import { boardApi } from "./board/handlers";
import { referenceApi } from "./reference/handlers";
import { webhooksApi } from "./webhooks/handlers";
import { alertPages, alertsApi } from "./alerts/handlers";
import { reachKeyFile } from "./reach/key-file";
import { consolePages } from "./console/app";
import { showingJobPage } from "./console/jobs/routes";
import { JobPagePreview } from "./pages/job-page";
import { operatorPages } from "./operator/app";

/** Public data that any origin may read (DESIGN 11). */
const PUBLIC_PATHS = [
  ...["positiontypes", "jobcategories", "salarytypes", "applicantroutingtypes", "locations", "locations/*"].map((p) => `${API_PREFIX}/${p}`),
  OPENAPI_PATH,
  `${API_PREFIX}/board/*`,
];

/** The employer's API: an API key, per-employer rate limits, never cached (Hono's `/x/*` matches `/x` too). */
const AUTHENTICATED_PATHS = [`${API_PREFIX}/jobs/*`, `${API_PREFIX}/webhooks/*`, `${API_PREFIX}/applications/*`, `${API_PREFIX}/employer`];
/** DESIGN 15, 18: the paths whose bodies may be up to 6 MiB (an application with its résumé, by the API or a job page's form). */
const APPLY_PATH = /^\/api\/v1\.1\/board\/jobs\/[^/]+\/applications$|^\/api\/v1\.1\/jobs\/[^/]+\/applications\/test$|^\/(jobs|fr\/emplois)\/[^/]+$/;
const MAX_APPLY_BODY_BYTES = 6 * 1024 * 1024;
/** The board's reads: `/board/jobs` and `/board/jobs/{id}` (its applications are writes to DB). */
const BOARD_READ = /^\/api\/v1\.1\/board\/jobs(\/[^/]*)?$/;

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  // Handed to every request, so that one served again after a move (src/shards/follow.ts)
  // goes through this app whole, without a module below the entry importing it.
  app.use((c, next) => {
    c.set("app", app);
    return next();
  });
  app.use(noSniff);
  app.use(postMethodOverride(app));
  app.use(requestId());
  app.use(requestLog);
  // Every answer of the job API, its 405 and 413 included, names the limit that applies.
  for (const path of AUTHENTICATED_PATHS) app.use(path, rateLimitPolicy);
  // Before the 405 check, so that a preflight (OPTIONS) of public data is answered.
  for (const path of PUBLIC_PATHS) app.use(path, publicCors);
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => problemResponse(c, new MethodNotAllowedError(c.req.method, methods)),
    }),
  );
  const limitOf = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new PayloadTooLargeError(maxSize);
      },
    });
  const [anyBody, applyBody] = [limitOf(MAX_BODY_BYTES), limitOf(MAX_APPLY_BODY_BYTES)];
  // The apply path's limit and media type come before its body is read, by the body limit too.
  app.on("POST", [APPLY_ROUTE, APPLY_TEST_PATH], applyGate);
  app.use((c, next) => (APPLY_PATH.test(c.req.path) ? applyBody : anyBody)(c, next));
  // Board reads use the board's own database (src/board/handlers.ts), never DB (DESIGN 17).
  const usesDb = (c: Context<AppEnv>) => !(BOARD_READ.test(c.req.path) && c.req.method !== "POST");
  app.use(`${API_PREFIX}/*`, (c, next) => (usesDb(c) ? bookmarks(c, next) : next()));
  // One registration per path, so each request is authenticated and counted once; before the
  // database, which is then the employer's shard's (DESIGN 22).
  for (const path of AUTHENTICATED_PATHS) app.use(path, privateResponses, authenticate, limitJobRequests);
  // An application is written in its job's shard, as the board's record of the job names it.
  app.on("POST", APPLY_ROUTE, applyInJobShard);
  app.use(`${API_PREFIX}/*`, (c, next) => (usesDb(c) ? database(c, next) : next()));
  // DESIGN 21: a board job's views are counted before its cache may answer.
  app.use(`${API_PREFIX}/board/jobs/:id`, countingViews((c) => Number(c.req.param("id"))));
  app.use(`${API_PREFIX}/board/*`, boardResponses);
  app.use(`${WITHDRAW_PATH}/*`, bookmarks, inWithdrawTokenShard, database);

  const routes = app.route("/", referenceApi).route("/", batchApi).route("/", reconcileApi).route("/", statsApi).route("/", jobsApi).route("/", webhooksApi).route("/", boardApi).route("/", applicationsApi).route("/", employerApi).route("/", alertsApi);
  app.route("/", withdrawPages);
  // DESIGN 23: the alerts' form and the pages their email links open (their own database only).
  app.route("/", alertPages);
  // DESIGN 25: the employer console (its own database, ACCOUNTS_DB; its own sessions), its
  // preview showing the board's job page: handed here, so that the console imports no page of the board.
  app.use("/employer/*", showingJobPage(JobPagePreview));
  app.route("/", consolePages);
  // DESIGN 26: the operator's console, behind Cloudflare Access (and npm run dev's stand-in of it).
  app.route("/", operatorPages);
  // The board's pages, the alert form under a search's results (DESIGN 23): filled here, so
  // that neither capability imports the other's pages.
  app.route("/", boardPages({ belowResults: alertFormBelowSearch }));
  // DESIGN 24a: IndexNow's key file, after the pages (robots.txt is theirs).
  app.route("/", reachKeyFile);

  app.get(OPENAPI_PATH, serveDocument);
  app.get(DOCS_PATH, docsPage);

  app.notFound((c) => problemResponse(c, new NotFoundError()));
  app.onError(handleError);
  return routes;
}
