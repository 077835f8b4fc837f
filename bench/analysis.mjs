// Why a target was missed and what would close it: written from query plans, profiles and
// experiments (docs/scaling.md has the background). `r` is the run, so the text quotes it.
const fixed = (n, digits = 2) => Number(n).toFixed(digits);
const kib = (bytes) => `${fixed(bytes / 1024, 1)} KiB`;

const ratio = (r, op) => r.runs[op].requestsPerSecond / r.runs[op].floorC;

/** One request at a time: the operation's p50 over floor (c)'s, and what is left for the app's own work. */
const ownWork = (r, op) => {
  const mine = r.sequential[op]?.p50;
  const floor = r.sequential["floor.limited"]?.p50;
  if (mine === undefined || floor === undefined) return "";
  return (
    ` One request at a time it takes ${fixed(mine)} ms against ${fixed(floor)} ms for floor (c): ${fixed(mine - floor)} ms of the ` +
    "app's own work per request on top of the limiter call and one query"
  );
};

// What the app does per job request beyond floor (c), from the code path (src/app.ts, src/http/*,
// src/jobs/*): these are what a closer look with a profiler would rank.
const appWork =
  "Beyond floor (c) each job request runs Hono's router and middleware chain (request id, security headers, body " +
  "limit, the key lookup in the isolate's cache, the limiter), zod validation of path and query, the job's own query " +
  "(with its locations and categories as JSON subqueries) instead of `SELECT 1`, the JSON response, and the one-line JSON request log. Closing the gap means trimming that per-request path (for " +
  "example one middleware instead of several, the log line built without JSON.stringify of a larger object), measured " +
  "one change at a time against floor (c) in this harness.";

const EXPLANATIONS = {
  getOne: (r) => `${fixed(ratio(r, "getOne"))} × floor (c).${ownWork(r, "getOne")}. ${appWork}`,
  listPage1: (r) =>
    `${fixed(ratio(r, "listPage1Large"))} × floor (c) at 100 000 jobs, ${fixed(ratio(r, "listPage1Small"))} at 1 000: not the ` +
    "size (same plan, same rows read; page 1 latency one at a time " +
    `${fixed(r.sequential.listPage1Large.p50)} ms at 100 000 and ${fixed(r.sequential.listPage1Small.p50)} ms at 1 000). ` +
    "The list does the most per request of the reads: a batch of two statements (the page, ten rows each with a " +
    "correlated subquery building its locations JSON, and the total from job_counts), the employer join, and a larger " +
    `response with paging links. ${appWork}`,
  delete: (r) =>
    `${fixed(ratio(r, "delete"))} × floor (c). A DELETE is a write: it fires the FTS and job_counts triggers and cascades to ` +
    `both link tables, where floor (c) reads one constant; D1 runs one statement at a time, so writes cost more of its time. ${appWork}`,
  post: (r) => {
    const c = r.cleanerFloor["5 KB realistic"];
    return (
      `${fixed(ratio(r, "post"))} × floor (c). Cleaning the 5 KB description costs ${fixed(c.cleanerMs, 2)} ms of CPU per call ` +
      `(${fixed(c.ratio)} × a bare HTMLRewriter pass over it, ${fixed(c.floorMs, 2)} ms: the cleaner is at its floor, ` +
      "see the Descriptions section), which on two cores shared with D1 and the load generator is most of the POST's cost; " +
      "the insert itself is one batch (job, links, FTS and counter triggers). What would close it is fewer rewriter events " +
      "per description (each start tag, end tag and text chunk is a call from the runtime into JavaScript, the floor's " +
      "cost) — not possible with HTMLRewriter's API, which has no cheaper way to read text and end tags — or cleaning " +
      "descriptions off the request path, which would change the API's contract (the cleaned text is in the response)."
    );
  },
  putPartial: (r) =>
    `${fixed(ratio(r, "putPartial"))} × floor (c): two D1 round trips by design (read, then one write batch), against one in floor (c).`,
  putUpsert: (r) =>
    `${fixed(ratio(r, "putUpsert"))} × floor (c): two D1 round trips by design (read, then one write batch), against one in floor (c).`,
  listQLarge: (r) =>
    `${fixed(ratio(r, "listQLarge"))} × floor (c); one at a time ${fixed(r.sequential.listQLarge.p50)} ms. Measured on the ` +
    "`q` of this branch: one trigram FTS5 index over every employer's jobs, so each search pays for the matches of all " +
    `employers (\`accountant\` matches one job in twenty of the ${r.seedCheck?.jobs ?? "~220 000"} seeded) before keeping ` +
    "the caller's. Issue 11 item 2 (another change) bounds `q` by the caller's own jobs; run the benchmark again once it " +
    "is merged.",
  listQSmall: (r) =>
    `${fixed(r.qVsPage1.small.q.p50)} ms for \`q\` against ${fixed(r.qVsPage1.small.page1.p50)} ms for page 1, for the ` +
    "employer with 1 000 jobs: the same cause as above, the search walks every employer's matches. Closed by the " +
    "employer-bounded `q` of issue 11 item 2.",
  hostilePost: () =>
    "The slowest POST is named in the measure. Dense markup past 20 000 tags is refused by a count before the rewriter " +
    "runs; what remains is the rewriter's own cost for up to 20 000 tags (one call into JavaScript per event, the floor " +
    "of this design). Lowering MAX_TAGS (src/description/markup.ts) would shorten it, at the price of refusing longer " +
    "rich text.",
  hostileGrowth: () =>
    "Past the tag limit a POST costs the count and the JSON parse, both linear; a growth above 5 points at the count " +
    "scanning further than it should (it stops at the first tag over the limit).",
  stall: () =>
    "workerd runs one isolate per Worker on one thread: a GET waits while the rewriter runs a POST's description " +
    "synchronously. The wait is bounded by the heaviest accepted description (20 000 tags).",
  cron: (r) =>
    `${r.cron.trips} round trip(s), ${fixed(r.cron.wallMs, 0)} ms. The two UPDATEs search their indexes, but each archived job ` +
    "also fires the job_counts trigger (two writes). Chunk the statements (`WHERE id IN (SELECT id … LIMIT 10 000)` until " +
    "fewer change) if this has to stay short, or keep counts of active jobs in a separate pass (docs/scaling.md, section 7).",
  bundle: (r) => {
    const zod = r.bundle.byPackage.find((p) => p.name === "zod")?.bytes ?? 0;
    return (
      `zod is ${kib(zod)} of the ${kib(r.bundle.minifiedBytes)} minified. Its 64 error-message locales are already replaced ` +
      "by English alone (wrangler.toml `alias`, src/http/zod-locales.ts); what remains is zod's core, which " +
      "@hono/zod-openapi keeps whole by extending the `z` namespace."
    );
  },
};

const cleanerMiss = (name) => (r) => {
  const row = r.cleanerFloor[name];
  return (
    `${fixed(row.ratio)} × its floor with ${row.work ? row.work.events / (row.calls ?? 1) : "?"} events per call. The cleaner needs what the floor skips: an end-tag ` +
    "handler registered per kept element and called at its end tag (one more call into JavaScript per element), and " +
    "reading each text chunk's text. Nested inline elements (`<b><i>x</i></b>`) have the most end tags per text chunk, " +
    "so the ratio is highest there. Closing it would need end tags without a registration per element, which " +
    "HTMLRewriter does not offer."
  );
};

export function explain(id, r) {
  if (id.startsWith("cleaner:")) return cleanerMiss(id.slice("cleaner:".length))(r);
  return EXPLANATIONS[id]?.(r) ?? "No analysis recorded for this target: see the numbers above.";
}

/** Findings outside the targets that a reader of the numbers should not miss. */
export function findings(r) {
  const clean5 = r.cleaning["5 KB"].msPerCall;
  const clean100 = r.cleaning["100 KB"].msPerCall;
  const worst = Object.entries(r.hostile.accepted).reduce((a, b) => (b[1].ms > a[1].ms ? b : a));
  return [
    `Cleaning costs CPU in proportion to the markup, not the length: ${fixed(clean5)} ms for a 5 KB pasted description, ` +
      `${fixed(clean100)} ms for 100 KB of it, a few ms for 1 MiB of plain text. The heaviest description the API accepts ` +
      `(\`${worst[0]}\`) took ${fixed(worst[1].ms, 0)} ms through the API; anything denser is refused by the count ` +
      "before the rewriter runs, in a few milliseconds.",
    "Under `npm run dev` (wrangler attaches its inspector to the Worker), each call from HTMLRewriter into JavaScript " +
      "gets slower the more such calls one request has made: a bare rewriter pass with no-op handlers over 256 KiB of " +
      "`x<br>` took 7.8 s with the inspector's Runtime domain enabled against 1.0 s without (measured in a scratch Worker, " +
      "Miniflare, same machine). That, not the cleaner, was the 82 s of issue 11. With the 20 000-tag limit the heaviest " +
      "accepted description stays near a second there; the benchmark runs without an inspector, as production does.",
    `An unknown API key costs a KV read every time (misses are not cached, so a new key works at once): ` +
      `${fixed(r.runs.unauthorized.requestsPerSecond, 0)} req/s here against ${fixed(r.floors.noop[0].requestsPerSecond, 0)} for floor (a).`,
  ];
}
