import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Env } from "../env";
import { dayOf } from "./rules";

// DESIGN 21: a view is a 200 (or 304: the page was shown) of a board job or its page, counted in
// the Worker before the cache answers. Views wait here a moment and leave in one queue message,
// so the request path does no D1 write and, under load, not even a queue send per view.

/** Views of one job on one UTC day (days since 1970-01-01); a views queue message holds many. */
export interface JobView {
  jobId: number;
  day: number;
  views: number;
}

/** How long an isolate gathers views before sending them. */
const GATHER_MS = 5_000;
/** A message's views at most: well within a queue message's 128 KB. */
const MAX_VIEWS_PER_MESSAGE = 1_000;

let gathered = new Map<string, JobView>();
let sending: Promise<void> | null = null;

async function sendGathered(env: Pick<Env, "VIEWS_QUEUE">): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
  const views = [...gathered.values()];
  gathered = new Map();
  sending = null;
  for (let i = 0; i < views.length; i += MAX_VIEWS_PER_MESSAGE) await env.VIEWS_QUEUE.send(views.slice(i, i + MAX_VIEWS_PER_MESSAGE));
}

/** Counts one view of the job; the first view of a moment keeps its invocation alive (waitUntil) until the views are sent. */
export function countView(c: Context<AppEnv>, jobId: number): void {
  const day = dayOf(Date.now());
  const key = `${jobId}.${day}`;
  const seen = gathered.get(key);
  if (seen) seen.views++;
  else gathered.set(key, { jobId, day, views: 1 });
  if (sending) return;
  sending = sendGathered(c.env).catch((error) => console.error(JSON.stringify({ event: "views-not-sent", error: String(error) })));
  c.executionCtx.waitUntil(sending);
}

/**
 * Middleware, placed before the board's cache: counts the answer once it is known, when it is a
 * 200 or a 304 of a GET. `jobIdOf` reads the job's id from the request (null: not a job).
 */
export function countingViews(jobIdOf: (c: Context<AppEnv>) => number | null): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Read first: once later middleware ran, `c.req.param` names the last one's route params.
    const jobId = jobIdOf(c);
    await next();
    if (c.req.method === "GET" && (c.res.status === 200 || c.res.status === 304) && jobId !== null && Number.isSafeInteger(jobId)) countView(c, jobId);
  };
}
