const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const fixed = (n, digits = 2) => Number(n).toFixed(digits);
const kib = (bytes) => `${fixed(bytes / 1024, 1)} KiB`;

const KiB = 1024;
// 1 MiB inputs come out a few bytes short of it (whole units, JSON escapes): still "1 MiB".
const sizeLabel = (bytes) => (bytes >= 1000 * KiB ? `${fixed(bytes / KiB / KiB, 0)} MiB` : `${fixed(bytes / KiB, 0)} KiB`);

const mibOf = (bytes) => (bytes == null ? "not observed" : `${fixed(bytes / 2 ** 20, 0)} MiB`);
const count = (n) => Number(n).toLocaleString("en-CA").replaceAll(",", " ");
const tripsBy = (t) => `DB ${t.DB}, BOARD_DB ${t.BOARD_DB}, ALERTS_DB ${t.ALERTS_DB}`;

/** DESIGN 23's budgets for job alerts (bench/lib/alerts.mjs). */
function alertTargets(a) {
  const { small, large } = a.match;
  const worstTrips = Math.max(small.trips.warm.total, large.trips.warm.total);
  const d = a.digests;
  const growth = d.peak.workerdRssBytes == null || d.peak.workerdRssAtStartBytes == null ? null : d.peak.workerdRssBytes - d.peak.workerdRssAtStartBytes;
  return [
    {
      id: "alertsMatch",
      target: `Matching one new job against job alerts (its event through the alerts' consumer, DESIGN 23): p50 at ${count(large.alerts)} alerts ≤ 2 × p50 at ${count(small.alerts)} (the same true matches)`,
      measured: `${fixed(large.p50)} ms / ${fixed(small.p50)} ms = ${fixed(a.match.ratio)} ×`,
      pass: a.match.ratio <= 2 && large.matched === small.matched,
      value: a.match.ratio,
      details: [
        `${small.matched} and ${large.matched} true matches; the reverse search read ${small.candidates} and ${large.candidates} candidate alerts (under ${large.terms} terms of the job); ${a.match.paused} of the added alerts that matched the job were paused`,
        `inside workerd p50 ${small.insideP50} ms and ${large.insideP50} ms; p99 ${fixed(small.p99)} ms and ${fixed(large.p99)} ms over ${large.samples} samples each`,
      ],
    },
    {
      id: "alertsMatchTrips",
      target: "Matching one new job against job alerts: ≤ 3 D1 round trips (DESIGN 23)",
      measured: `${worstTrips} warm at both sizes (${tripsBy(large.trips.warm)}); ${small.trips.first.total} on the probe's first (${tripsBy(small.trips.first)})`,
      pass: worstTrips <= 3,
      value: worstTrips,
    },
    {
      id: "alertsDigests",
      target: `A day's digests for ${count(d.alerts)} daily alerts (DESIGN 23: built, handed to the email queue, sent): ≥ 1 000 alerts/s, workerd's memory growing ≤ 256 MiB over the run`,
      measured: `${count(d.due)} alerts in ${fixed(d.wallMs / 1000, 1)} s = ${fixed(d.alertsPerSecond, 0)} alerts/s (${count(d.emails)} emails, ${fixed(d.emailsPerSecond, 0)}/s); workerd RSS ${mibOf(d.peak.workerdRssAtStartBytes)} at the start, peak ${mibOf(d.peak.workerdRssBytes)}: + ${mibOf(growth)}`,
      pass: d.alertsPerSecond >= 1000 && growth !== null && growth <= 256 * 2 ** 20 && d.due === d.alerts && d.left === 0 && d.emails === d.expectedEmails && d.sent === d.expectedEmails && d.notSent === 0,
      value: d.alertsPerSecond,
      details: [
        `${d.runs} hourly cron runs; the busiest handled ${count(d.maxDuePerRun)} alerts in ${fixed(d.busiestRunMs / 1000, 1)} s; ${fixed(d.trips / Math.max(1, d.due), 1)} D1 round trips per alert`,
        `${count(d.expectedEmails)} alerts had new matches, ${count(d.sent)} ledger rows sent, ${d.notSent} not; ${d.left} alerts still due after the day`,
      ],
    },
  ];
}

/** Issue 48 item 9's budgets for the employer console (bench/lib/console.mjs). */
function consoleTargets(c) {
  const pair = (id, label, p, api) => ({
    id,
    target: `${label} ≤ 1.5 × ${api}, p50 one request at a time in turn (DESIGN 25)`,
    measured: `${fixed(p.console.p50)} ms ÷ ${fixed(p.api.p50)} ms = ${fixed(p.ratio)} × (p95 ${fixed(p.console.p95)} ms and ${fixed(p.api.p95)} ms, ${p.console.samples} each)`,
    pass: p.ratio <= 1.5 && !p.console.statuses.wrong && !p.api.statuses.wrong,
    value: p.ratio,
  });
  return [
    pair("console:jobs", "The console's jobs page (`GET /employer/jobs`, 20 a page)", c.list, `the \`GET /jobs?pageSize=${c.pageSize}\` it shows`),
    pair("console:save", "A saved job (`POST /employer/jobs/{id}`, the whole form)", c.save, "the `PUT /jobs/{id}` of the same change"),
  ];
}

/**
 * Every target with its measured value; the numbers come from one run, floors included. `op`
 * names the operation a target measures, `details` what else the run measured about it.
 */
export function evaluate(r) {
  const ratio = (op) => r.runs[op].requestsPerSecond / r.runs[op].floorC;
  const throughput = (id, op, label, min) => ({
    id,
    op,
    target: `${label}: throughput ≥ ${min} × floor (c)`,
    measured: `${fixed(r.runs[op].requestsPerSecond, 0)} req/s ÷ ${fixed(r.runs[op].floorC, 0)} = ${fixed(ratio(op))} × floor (c)`,
    pass: ratio(op) >= min,
    value: ratio(op),
  });
  const growth = (id, label, smallOp, largeOp) => {
    const value = r.sequential[largeOp].p50 / r.sequential[smallOp].p50;
    return {
      id,
      op: largeOp,
      target: `${label}: p50 at 100 000 jobs ≤ 2 × p50 at 1 000`,
      measured: `${fixed(r.sequential[largeOp].p50)} ms / ${fixed(r.sequential[smallOp].p50)} ms = ${fixed(value)} ×`,
      pass: value <= 2,
      value,
    };
  };
  const tripBudget = (id, op, label, max) => ({
    id,
    op,
    target: `${label}: ≤ ${max} D1 round trip${max === 1 ? "" : "s"} (DESIGN 9)`,
    measured: `${r.trips[op].warm} warm, ${r.trips[op].cold} on a cold isolate`,
    pass: r.trips[op].warm <= max,
    value: r.trips[op].warm,
  });
  const cleaner = Object.entries(r.cleanerFloor).map(([name, row]) => ({
    id: `cleaner:${name}`,
    target: `Cleaner ÷ bare-rewriter floor, ${name === "5 KB realistic" ? name : `${sizeLabel(row.bytes)} of \`${name}\``}: ≤ 2`,
    measured: `${fixed(row.cleanerMs, name === "5 KB realistic" ? 3 : 1)} ms ÷ ${fixed(row.floorMs, name === "5 KB realistic" ? 3 : 1)} ms = ${fixed(row.ratio)}`,
    pass: row.ratio <= 2,
    value: row.ratio,
    details: row.work ? [`${row.work.events / (row.calls ?? 1)} rewriter events per call`] : [],
  }));
  const posts = r.hostile.sizes.flatMap((size) =>
    Object.entries(r.hostile.bySize[size].shapes).map(([name, p]) => ({ name: `${name} at ${sizeLabel(size)}`, ...p })),
  );
  const allPosts = [...posts, ...Object.entries(r.hostile.accepted).map(([name, p]) => ({ name, ...p }))];
  const slowest = allPosts.reduce((a, b) => (b.ms > a.ms ? b : a));
  const [small, large] = r.hostile.sizes;
  const growths = Object.keys(r.hostile.bySize[large].shapes).map((name) => ({
    name,
    value: r.hostile.bySize[large].shapes[name].ms / r.hostile.bySize[small].shapes[name].ms,
  }));
  const steepest = growths.reduce((a, b) => (b.value > a.value ? b : a));
  const qSmall = r.qVsPage1.small;
  const withDetails = (target, details) => ({ ...target, details });
  const boardAlone = (kind) => [
    `one request at a time: p50 ${fixed(r.board.large[kind].p50)} ms against ${fixed(r.sequential["floor.d1"].p50)} ms for floor (b)`,
    ...boardMissesSplit(kind),
  ];
  // Issue 38 (bench/lib/board-misses.mjs): the API as is and with one piece of the miss path taken out, in turn.
  const boardMissesSplit = (kind) => {
    const split = r.board.misses?.byPath[kind];
    if (!split) return [];
    const name = { asIs: "as is", noLimiter: "without the limiter", noLookup: "without the cache lookup", noPut: "without the cache put", noEtag: "without the ETag digest", bare: "the bare handler" };
    return [
      `the miss path's split (bench/lib/board-misses.mjs, ${r.board.misses.rounds} slices of ${r.board.misses.seconds} s each in turn), × floor (b) and workerd's CPU a request: ` +
        Object.entries(name)
          .filter(([variant]) => split[variant])
          .map(([variant, label]) => `${label} ${fixed(split[variant].ofFloorB)} (${fixed(split[variant].workerdCpuMsPerRequest)} ms)`)
          .join(", ") +
        `; floor (b) ${fixed(split.floorB.workerdCpuMsPerRequest)} ms` +
        (split.floorE ? `; floor (e) (floor (b) with the limiter, a lookup that misses and a put) ${fixed(split.floorE.ofFloorB)} (${fixed(split.floorE.workerdCpuMsPerRequest)} ms), as is ÷ floor (e) = ${fixed(split.asIs.ofFloorE)}` : ""),
    ];
  };
  return [
    throughput("getOne", "getOne", "GET one job (100 000 jobs)", 0.9),
    throughput("listPage1", "listPage1Large", "List page 1 (100 000 jobs)", 0.85),
    throughput("delete", "delete", "DELETE by id", 0.8),
    withDetails(throughput("post", "post", "POST with a 5 KB description", 0.6), [
      `cleaning a 5 KB description of the same kind inside workerd: ${fixed(r.cleaning["5 KB"].msPerCall)} ms per call`,
    ]),
    ...(r.runs.post.floorD
      ? [
          {
            id: "postFloorD",
            op: "post",
            // What /floor/rewrite does (bench/floor-worker.js), word for word: a text handler on "*" is
            // called for a text chunk once per element it lies in.
            target: "POST with a 5 KB description: ≥ 0.8 × floor (d): floor (c) plus one HTMLRewriter pass over the POST's description with a no-op element and text handler on `*`, in alternating slices",
            measured: `${fixed(r.runs.post.requestsPerSecond, 0)} ÷ ${fixed(r.runs.post.floorD, 0)} req/s = ${fixed(r.runs.post.requestsPerSecond / r.runs.post.floorD)} × floor (d)`,
            pass: r.runs.post.requestsPerSecond / r.runs.post.floorD >= 0.8,
            value: r.runs.post.requestsPerSecond / r.runs.post.floorD,
          },
        ]
      : []),
    throughput("putPartial", "putPartial", "Partial PUT by id (DESIGN 22: one batch)", 0.5),
    throughput("putUpsert", "putUpsert", "PUT by referenceId (upsert; DESIGN 22: one batch)", 0.5),
    throughput("listQLarge", "listQLarge", "List with `q`, 100 000 own jobs", 0.5),
    {
      id: "listQSmall",
      op: "listQSmall",
      target: "List with `q`, employer with 1 000 jobs: p50 ≤ 1.2 × its own page-1 p50",
      measured: `${fixed(qSmall.q.p50)} ms ÷ ${fixed(qSmall.page1.p50)} ms = ${fixed(qSmall.ratio)} ×`,
      pass: qSmall.ratio <= 1.2,
      value: qSmall.ratio,
    },
    ...cleaner,
    {
      id: "hostilePost",
      target: "Any hostile POST ≤ 1 MiB through the API (and the heaviest accepted ones): ≤ 1 s",
      measured: `slowest: ${slowest.name}, ${fixed(slowest.ms, 1)} ms (${slowest.status})`,
      pass: slowest.ms <= 1000,
      value: slowest.ms,
    },
    {
      id: "hostileGrowth",
      target: `Hostile POST growth, ${sizeLabel(large)} ÷ ${sizeLabel(small)}: ≤ 5`,
      measured: `steepest: \`${steepest.name}\` ${fixed(steepest.value)} ×`,
      pass: steepest.value <= 5,
      value: steepest.value,
    },
    {
      id: "stall",
      target: "Stall of a concurrent cheap GET (`/positiontypes`) during the heaviest POST: ≤ 1 s",
      measured: `${fixed(r.stall.worstGetMs, 1)} ms at worst over ${r.stall.gets} GETs, during ${r.stall.label} (${fixed(r.stall.postMs, 0)} ms)`,
      pass: r.stall.worstGetMs <= 1000,
      value: r.stall.worstGetMs,
    },
    growth("listGrowth", "List page 1 (with total)", "listPage1Small", "listPage1Large"),
    growth("listQGrowth", "List with q", "listQSmall", "listQLarge"),
    growth("listStatusGrowth", "List with status", "listStatusSmall", "listStatusLarge"),
    {
      id: "cron",
      target: "Cron over 100 000 eligible jobs in one shard (DESIGN 22): longest single D1 call ≤ 250 ms, each run ≤ 10 s, every job changed exactly once",
      measured: `longest call ${fixed(r.cron.longestCallMs, 0)} ms; ${r.cron.runsMs.length} run(s) of ${r.cron.runsMs.map((ms) => fixed(ms, 0)).join(", ")} ms (${r.cron.refreshed} refreshed, ${r.cron.expired} expired)`,
      pass: r.cron.longestCallMs <= 250 && Math.max(...r.cron.runsMs) <= 10_000 && r.cron.refreshed + r.cron.expired === r.cron.eligible,
      value: r.cron.longestCallMs,
      details: [`${r.cron.trips} round trips in all, ${fixed(r.cron.wallMs, 0)} ms from the harness`],
    },
    {
      id: "cronConcurrentGet",
      target: "During that cron, a GET of another employer of the same shard, one at a time (DESIGN 22): p99 ≤ 300 ms",
      measured: `p99 ${fixed(r.cron.concurrentGet.p99Ms, 1)} ms, p50 ${fixed(r.cron.concurrentGet.p50Ms, 1)} ms over ${r.cron.concurrentGet.samples} GETs; floor (b) in turn with them: p99 ${fixed(r.cron.concurrentGet.floorB.p99Ms, 1)} ms`,
      pass: r.cron.concurrentGet.p99Ms <= 300,
      value: r.cron.concurrentGet.p99Ms,
    },
    {
      id: "moveFrozen",
      target: `Moving an employer with ${r.move.jobs} jobs (applications, résumés, webhooks, a test space) by \`npm run shards -- move\` while an employer of each shard writes 20 times a second (DESIGN 22b): frozen ≤ 5 s (its first refused write to its last)`,
      measured: `${fixed(r.move.frozenMs / 1000, 2)} s, ${r.move.refused} of its writes refused (503); its writes meanwhile ${JSON.stringify(r.move.movedWrites)}; the move's freezes: ${r.move.freezes ?? "none reported"}`,
      pass: r.move.outcome !== null && r.move.frozenMs <= 5_000,
      value: r.move.frozenMs,
    },
    {
      id: "moveDone",
      target: "That move: done ≤ 60 s locally (from the command's start to its last line)",
      measured: `${fixed(r.move.ms / 1000, 1)} s (${r.move.via}; the move itself ${fixed((r.move.outcome?.ms ?? NaN) / 1000, 1)} s, exit ${r.move.exitCode})`,
      pass: r.move.outcome !== null && r.move.exitCode === 0 && r.move.ms <= 60_000,
      value: r.move.ms,
    },
    {
      id: "moveIntact",
      target: "That move: 0 lost, 0 doubled (jobs, applications, webhooks, the test space's jobs), nothing left in the old shard",
      measured: `lost ${r.move.lost}, doubled ${r.move.doubled}, left in the old shard ${r.move.leftInSource}; before ${JSON.stringify(r.move.before)}, after ${JSON.stringify(r.move.after)}`,
      pass: r.move.lost === 0 && r.move.doubled === 0 && r.move.leftInSource === 0 && r.move.getAfter === 200,
      value: r.move.lost + r.move.doubled,
    },
    {
      id: "moveNeighbours",
      target: "During that move, the other employers' writes: no 5xx, no 503, p99 ≤ 1.5 × their p99 under the same load without a move",
      measured: `p99 ${fixed(r.move.duringP99, 1)} ms during ÷ ${fixed(r.move.baselineP99, 1)} ms without = ${fixed(r.move.p99Ratio, 2)} ×; their writes ${JSON.stringify(r.move.bystanderWrites)}`,
      pass: r.move.p99Ratio !== null && r.move.p99Ratio <= 1.5 && r.move.bystanderWrites.every((statuses) => Object.keys(statuses).every((status) => status === "200")),
      value: r.move.p99Ratio,
    },
    ...["idle", "load"].map((label) => ({
      id: `handOver_${label}`,
      target: `Event hand-over ${label === "idle" ? "idle" : "under 80 other writes/s"} (DESIGN 22): from a write's answer until its shard's relay has handed its events to the queues, p99 ≤ 2 s`,
      measured: `p99 ${fixed(r.handOver[label].p99Ms, 0)} ms, p50 ${fixed(r.handOver[label].p50Ms, 0)} ms over ${r.handOver[label].samples} writes${label === "load" ? ` (other writes: ${JSON.stringify(r.handOver.load.load.statuses)})` : ""}`,
      // Under load only while the load lasted: a pool of jobs to delete that ran out ends it.
      pass: r.handOver[label].p99Ms <= 2_000 && !r.handOver[label].load?.statuses.poolExhausted,
      value: r.handOver[label].p99Ms,
    })),
    ...(r.reach
      ? [
          {
            id: "reach",
            target: "A write's throughput with reach's notifier on (its queue consumed, Google and IndexNow configured, at stubs) ≥ 0.95 × without (DESIGN 24)",
            measured: `${fixed(r.reach.onRps, 0)} PUT/s on ÷ ${fixed(r.reach.offRps, 0)} PUT/s off = ${fixed(r.reach.ratio, 3)} ×; ${r.reach.notifierRun ? "the notifier run as its alarm would a minute past the writes, until a run sent nothing more," : "a minute later"} the stubs had ${r.reach.received.google} Google notices, ${r.reach.received.indexNowUrls} IndexNow addresses in ${r.reach.received.indexNowRequests} requests, ${r.reach.received.token} token(s)`,
            pass: r.reach.ratio >= 0.95,
            value: r.reach.ratio,
            details: [`medians of ${r.reach.rounds} slices of ${r.reach.seconds} s each way, in turn, ${r.reach.connections} connections; two fresh runtimes of the same bundle`],
          },
        ]
      : []),
    ...(r.receipts
      ? [
          (() => {
            const { board, webhooks, write } = r.receipts;
            const batch = (name, c, what) =>
              `${name} (${c.notices} × ${c.eventsPerNotice} ${what}) ${fixed(c.withMs, 0)} ms with ÷ ${fixed(c.withoutMs, 0)} ms without = ${fixed(c.timeRatio, 3)} × time, ${fixed(c.throughputRatio, 3)} × throughput`;
            return {
              id: "receipts",
              // DESIGN 16a sets no budget for the consumers: their ratio is reported. The write is
              // reported too: this run has no API without receipts to set it against (bench/lib/receipts.mjs).
              target: `Receipts (DESIGN 16a), reported: a consumer batch with them and without, in turn; a write (PUT by id ÷ floor (c)) with them`,
              measured: `${batch("board batch", board, "job changes")}; ${batch("webhooks fan-out", webhooks, "events")}; PUT by id ${fixed(write.putRps, 0)} ÷ ${fixed(write.floorCRps, 0)} = ${fixed(write.ratio)} × floor (c)`,
              pass: true,
              value: write.ratio,
              details: [
                `medians of ${board.samples} batches each way, in turn, timed inside workerd by the probe (bench/probe-receipts.ts); the median of the pairs ${fixed(board.pairedTimeRatio, 3)} × (board) and ${fixed(webhooks.pairedTimeRatio, 3)} × (webhooks); the receipts statements alone, in a batch of their own, ${fixed(board.aloneMs, 0)} ms (board, 1 × ${board.notices * board.eventsPerNotice}) and ${fixed(webhooks.aloneMs, 0)} ms (webhooks, ${webhooks.notices} × ${webhooks.eventsPerNotice} at once); D1 round trips ${board.last.with.boardTrips} with, ${board.last.without.boardTrips} without (board), ${webhooks.last.with.trips} and ${webhooks.last.without.trips} (webhooks)`,
                `the write: ${write.source}`,
              ],
            };
          })(),
        ]
      : []),
    {
      id: "bundle",
      // DESIGN 25: with both consoles in it (200 KiB before them); the passkeys Worker is deployed apart.
      target: "Bundle ≤ 300 KiB gzip with both consoles (wrangler --minify; DESIGN 25): what the consoles add, and the passkeys Worker apart, reported",
      measured: `${kib(r.bundle.gzipBytes)} (${r.bundle.gzipBytes} bytes); the consoles add ${kib(r.bundle.consoles.gzipBytes)}; the passkeys Worker ${kib(r.bundle.passkeysWorker.gzipBytes)} (${r.bundle.passkeysWorker.gzipBytes} bytes)`,
      pass: r.bundle.gzipBytes <= 300 * 1024,
      value: r.bundle.gzipBytes,
    },
    ...(r.coldStart
      ? [
          {
            id: "coldStart",
            target: "Cold start, reported: the first request the API Worker serves in a freshly started workerd (its five Workers, empty state, the migrations and one job written straight to D1 and KV), against the 20 after it",
            measured: `first GET /jobs/{id} ${fixed(r.coldStart.firstMs, 1)} ms, the next 20 p50 ${fixed(r.coldStart.warmP50Ms, 1)} ms; workerd with its five Workers ready in ${fixed(r.coldStart.readyMs, 0)} ms (medians of ${r.coldStart.rounds} starts)`,
            pass: true,
            value: r.coldStart.firstMs,
            details: [`medians of ${r.coldStart.rounds} fresh runtimes`],
          },
        ]
      : []),
    {
      id: "batchSync",
      target: "Batch sync, one client: 100-entry batches (half new, half updates, 2 KB descriptions) store ≥ 10 × the jobs per second of single `PUT /jobs`",
      measured: `${fixed(r.batchSync.batch.jobsPerSecond, 0)} jobs/s ÷ ${fixed(r.batchSync.single.jobsPerSecond, 0)} jobs/s = ${fixed(r.batchSync.ratio, 1)} ×`,
      pass: r.batchSync.ratio >= 10,
      value: r.batchSync.ratio,
      details: [
        `a ${r.batchSync.entriesPerBatch}-entry batch took ${fixed(r.batchSync.batch.msPerRequest, 1)} ms, a single PUT ${fixed(r.batchSync.single.msPerRequest, 1)} ms`,
        `D1 round trips per batch: ${r.batchSync.trips[1]} / ${r.batchSync.trips[10]} / ${r.batchSync.trips[100]} at 1 / 10 / 100 entries`,
        ...(r.batchSync.cpuRatio
          ? [
              `workerd's CPU: ${fixed(r.batchSync.batch.cpuMsPerRequest, 0)} ms per batch, ${fixed(r.batchSync.single.cpuMsPerRequest, 1)} ms per PUT (the work each leaves for after its answer included) = ${fixed(r.batchSync.cpuRatio, 1)} × the jobs per CPU second`,
            ]
          : []),
      ],
    },
    ...(r.batchSync.bare
      ? [
          {
            id: "batchBare",
            target: "Batch sync, the same mix: jobs per second (one client, one batch at a time) ≥ 0.8 × the passes per second of a bare HTMLRewriter pass over the same 2 KB description (the probe's: one no-op handler per element and per text chunk; workerd CPU per call, best of 3 rounds of 300)",
            measured: `${fixed(r.batchSync.batch.jobsPerSecond, 0)} jobs/s ÷ ${fixed(r.batchSync.bare.jobsPerSecond, 0)} passes/s = ${fixed(r.batchSync.bareRatio)} ×`,
            pass: r.batchSync.bareRatio >= 0.8,
            value: r.batchSync.bareRatio,
            details: [`a bare pass took ${fixed(r.batchSync.bare.msPerCall, 3)} ms of workerd's CPU per description`],
          },
          {
            id: "batchResend",
            target: "A resend of 100 unchanged jobs (a nightly full sync): ≥ 10 × the jobs per second of the same resend as single `PUT /jobs`",
            measured: `${fixed(r.batchSync.resend.batch.jobsPerSecond, 0)} jobs/s ÷ ${fixed(r.batchSync.resend.single.jobsPerSecond, 0)} jobs/s = ${fixed(r.batchSync.resend.ratio, 1)} ×`,
            pass: r.batchSync.resend.ratio >= 10,
            value: r.batchSync.resend.ratio,
            details: [`a resend batch took ${fixed(r.batchSync.resend.batch.msPerRequest, 1)} ms, a resent single PUT ${fixed(r.batchSync.resend.single.msPerRequest, 1)} ms`],
          },
        ]
      : []),
    {
      id: "batchTrips",
      target: "Batch sync: D1 round trips do not grow with the entry count (1, 10, 100 entries)",
      measured: `${r.batchSync.trips[1]} / ${r.batchSync.trips[10]} / ${r.batchSync.trips[100]}`,
      pass: r.batchSync.trips[1] === r.batchSync.trips[100] && r.batchSync.trips[10] === r.batchSync.trips[100],
      value: r.batchSync.trips[100],
    },
    {
      id: "webhookOverhead",
      target: "POST with a subscribed webhook endpoint: ≥ 0.9 × the throughput without",
      measured: `${fixed(r.webhooks.subscribedRequestsPerSecond, 0)} ÷ ${fixed(r.webhooks.noneRequestsPerSecond, 0)} req/s = ${fixed(r.webhooks.ratio)} (${r.webhooks.eventsRecorded} events recorded)`,
      pass: r.webhooks.ratio >= 0.9,
      value: r.webhooks.ratio,
    },
    ...(r.postingRules
      ? ["post", "putPartial"].map((name) => ({
          id: `postingRules:${name}`,
          target: `${name === "post" ? "POST /jobs" : "PUT /jobs/{id}"} with the posting rules: ≥ 0.97 × the throughput of the same API without them (DESIGN 19)`,
          measured: `${fixed(r.postingRules[name].withRules, 0)} ÷ ${fixed(r.postingRules[name].withoutRules, 0)} req/s = ${fixed(r.postingRules[name].ratio, 3)}`,
          pass: r.postingRules[name].ratio >= 0.97,
          value: r.postingRules[name].ratio,
          details: [
            `slice pairs (with ÷ without): ${r.postingRules[name].pairRatios.map((x) => fixed(x)).join(", ")}`,
            ...(r.postingRules[name].sequential
              ? [`one request at a time, p50: ${fixed(r.postingRules[name].sequential.withP50)} ms with, ${fixed(r.postingRules[name].sequential.withoutP50)} ms without (${r.postingRules[name].sequential.samples} each, in turn)`]
              : []),
          ],
        }))
      : []),
    ...(r.screening
      ? [
          {
            id: "screeningTrips",
            target: "An application with 20 screening answers: the same D1 round trips as one without (DESIGN 20)",
            measured: `${r.screening.apply.twenty.trips.join("/")} vs ${r.screening.apply.none.trips.join("/")} round trip(s); p50 ${fixed(r.screening.apply.twenty.p50)} ms vs ${fixed(r.screening.apply.none.p50)} ms`,
            pass: r.screening.apply.twenty.trips.length === 1 && r.screening.apply.twenty.trips[0] === r.screening.apply.none.trips[0] && r.screening.apply.none.trips.length === 1,
            value: r.screening.apply.twenty.trips[0],
          },
          {
            id: "moveTrips",
            target: "Moving an application: one read and one atomic write batch (2 D1 round trips; DESIGN 20)",
            measured: `${r.screening.move.trips.join("/")} round trip(s), p50 ${fixed(r.screening.move.p50)} ms over ${r.screening.samples}`,
            pass: r.screening.move.trips.length === 1 && r.screening.move.trips[0] === 2,
            value: r.screening.move.trips[0],
          },
        ]
      : []),
    ...(r.pages
      ? [
          ["job", "A job page"],
          ["search", "The search page with `q`"],
        ].map(([name, label]) => ({
          id: `pages:${name}`,
          target: `${label} (cache misses): ≥ 0.8 × the throughput of the board API request it renders (DESIGN 18)`,
          measured: `${fixed(r.pages[name].page, 0)} ÷ ${fixed(r.pages[name].api, 0)} req/s = ${fixed(r.pages[name].ratio)}`,
          pass: r.pages[name].ratio >= 0.8,
          value: r.pages[name].ratio,
        }))
      : []),
    ...(r.console ? consoleTargets(r.console) : []),
    ...(r.reconcile
      ? [
          {
            id: "reconcile:trips",
            target: `Reconcile of ${r.reconcile.referenceIds} referenceIds against ${r.reconcile.activeJobs} active jobs: ≤ 3 D1 round trips (DESIGN 21)`,
            measured: `${r.reconcile.trips} round trip(s)`,
            pass: r.reconcile.trips <= 3,
            value: r.reconcile.trips,
          },
          {
            id: "reconcile:p50",
            target: "Reconcile, the same: p50 ≤ 5 × one batch of 100 upserts (the bench's mix), one request at a time in turn (DESIGN 21)",
            measured: `${fixed(r.reconcile.reconcileP50)} ms ÷ ${fixed(r.reconcile.batchP50)} ms = ${fixed(r.reconcile.ratio)} × over ${r.reconcile.samples} each`,
            pass: r.reconcile.ratio <= 5,
            value: r.reconcile.ratio,
          },
        ]
      : []),
    ...(r.viewCounting
      ? ["hits", "misses"].map((name) => ({
          id: `viewCounting:${name}`,
          target: `A board read with view counting (cache ${name}): ≥ 0.95 × the same read without it (DESIGN 21)`,
          measured: `${fixed(r.viewCounting[name].counted, 0)} ÷ ${fixed(r.viewCounting[name].uncounted, 0)} req/s = ${fixed(r.viewCounting[name].ratio, 3)}`,
          pass: r.viewCounting[name].ratio >= 0.95,
          value: r.viewCounting[name].ratio,
        }))
      : []),
    // DESIGN 17: `q` at the largest board (≥ 250 000 active jobs) ≤ 1.5 × at 1 000; list page 1 keeps DESIGN 14's 2 ×.
    ...[["list", 2], ["q", 1.5]].map(([kind, max]) => ({
      id: `boardGrowth:${kind}`,
      target: `Board ${kind === "q" ? "`q` search" : "list page 1"} (cache miss): p50 at ${r.board.large.activeJobs} active jobs ≤ ${max} × at ${r.board.small.activeJobs}`,
      measured: `${fixed(r.board.large[kind].p50)} ms / ${fixed(r.board.small[kind].p50)} ms = ${fixed(r.board.large[kind].p50 / r.board.small[kind].p50)} ×`,
      pass: r.board.large[kind].p50 / r.board.small[kind].p50 <= max,
      value: r.board.large[kind].p50 / r.board.small[kind].p50,
      details: r.board.rebuilds && kind === "q" && r.board.large.activeJobs < 250_000 ? [`DESIGN 17 asks for a board of at least 250 000 active jobs; this run's largest had ${r.board.large.activeJobs}`] : [],
    })),
    ...[["list", 0.5], ["q", 0.3]].map(([kind, min]) => ({
      id: `boardThroughput:${kind}`,
      target: `Board ${kind === "q" ? "`q` search" : "list page 1"} (cache misses, ${r.board.large.activeJobs} active jobs): ≥ ${min} × floor (b)`,
      measured: `${fixed(r.board.throughput[kind].requestsPerSecond, 0)} ÷ ${fixed(r.board.throughput[kind].floorB, 0)} req/s = ${fixed(r.board.throughput[kind].ratio)}`,
      pass: r.board.throughput[kind].ratio >= min,
      value: r.board.throughput[kind].ratio,
      details: boardAlone(kind),
    })),
    ...(r.board.radius
      ? [
          {
            id: "boardRadius",
            target: "Board radius search `near=14&radiusKm=50` (cache miss): p50 ≤ 2 × list page 1 p50, one at a time in turn",
            measured: `${fixed(r.board.radius.near.p50)} ms ÷ ${fixed(r.board.radius.list.p50)} ms = ${fixed(r.board.radius.ratio)} ×`,
            pass: r.board.radius.ratio <= 2,
            value: r.board.radius.ratio,
            details: [
              ...(r.board.throughput.near ? [`throughput (misses) ${fixed(r.board.throughput.near.requestsPerSecond, 0)} ÷ floor (b) ${fixed(r.board.throughput.near.floorB, 0)} req/s = ${fixed(r.board.throughput.near.ratio)}`] : []),
              `p99 ${fixed(r.board.radius.near.p99)} ms vs ${fixed(r.board.radius.list.p99)} ms`,
            ],
          },
        ]
      : []),
    ...(r.board.staleness
      ? [
          {
            id: "boardStaleness",
            target: `Board staleness under write load (write answered → visible on an uncached \`GET /board/jobs/{id}\`): p99 over ${r.board.staleness.loaded.changes} changes ≤ 5 s`,
            measured: `p99 ${fixed(r.board.staleness.loaded.p99, 0)} ms (p50 ${fixed(r.board.staleness.loaded.p50, 0)}, max ${fixed(r.board.staleness.loaded.max, 0)}) under ${fixed(r.board.staleness.writeLoad.requestsPerSecond, 0)} PUT/s = ${fixed(r.board.staleness.ratio)} × idle p99 ${fixed(r.board.staleness.idle.p99, 0)} ms`,
            pass: r.board.staleness.loaded.p99 <= 5000 && r.board.staleness.loaded.seen === r.board.staleness.loaded.changes,
            value: r.board.staleness.loaded.p99,
            details: [
              `idle p50 ${fixed(r.board.staleness.idle.p50, 0)} ms; the board queue hands batches over within 1 s (max_batch_timeout)`,
              `${r.board.staleness.loaded.seen} of ${r.board.staleness.loaded.changes} changes seen under load, ${r.board.staleness.loaded.timedOut} not within 30 s`,
            ],
          },
        ]
      : []),
    ...(r.board.rebuilds
      ? [
          {
            id: "boardRebuild",
            target: "Board rebuild (the Worker's scheduled handler, cron `board:rebuild`): BOARD_DB holds exactly the visible jobs; reported",
            measured: Object.values(r.board.rebuilds)
              .map((b) => `${b.jobs} jobs in ${fixed(b.wallMs / 1000, 1)} s (${fixed(b.jobsPerSecond, 0)} jobs/s)`)
              .join("; "),
            pass: Object.values(r.board.rebuilds).every((b) => b.matches) && (r.board.converged?.same ?? true),
            value: r.board.rebuilds.large.wallMs,
            details: [
              ...Object.values(r.board.rebuilds).map(
                (b) => `${b.label}: peak workerd RSS ${b.peak.workerdRssBytes == null ? "not observed" : `${fixed(b.peak.workerdRssBytes / 2 ** 20, 0)} MiB`}, peak Node heap ${fixed(b.peak.nodeHeapUsedBytes / 2 ** 20, 0)} MiB`,
              ),
              ...(r.board.converged ? [`after the staleness write load the queue alone kept the board exact: ${r.board.converged.same ? "yes" : "no"}`] : []),
            ],
          },
        ]
      : []),
    {
      id: "boardCache",
      target: "Board: a cached repeat is faster than a miss (p50, one at a time)",
      measured: `${fixed(r.board.cached.p50)} ms vs ${fixed(r.board.miss.p50)} ms`,
      pass: r.board.cached.p50 < r.board.miss.p50,
      value: r.board.cached.p50,
    },
    {
      id: "apply",
      target: "Apply with a 1 MiB PDF résumé (R2 put + one D1 batch): reported, ≤ 1 s",
      measured: `p50 ${fixed(r.apply.p50, 1)} ms, worst ${fixed(r.apply.max, 1)} ms over ${r.apply.samples}`,
      pass: r.apply.max <= 1000,
      value: r.apply.p50,
    },
    ...(r.alerts ? alertTargets(r.alerts) : []),
    tripBudget("tripsGet", "getOne", "GET one", 1),
    tripBudget("tripsList", "listPage1Large", "List", 1),
    tripBudget("tripsPost", "post", "POST", 1),
    tripBudget("tripsPut", "putPartial", "PUT by id", 2),
    tripBudget("tripsUpsert", "putUpsert", "PUT by referenceId", 2),
    tripBudget("tripsDelete", "delete", "DELETE", 1),
  ];
}

/** What the run measured about a target besides its value: round trips counted, time split. */
function measuredAlongside(t, r) {
  const facts = [];
  const trips = t.op && r.trips[t.op];
  if (trips && !t.id.startsWith("trips")) facts.push(`D1 round trips counted: ${trips.warm} warm, ${trips.cold} on a cold isolate`);
  const alone = t.op && r.sequential[t.op];
  const floor = r.sequential["floor.limited"];
  if (alone && floor && !t.id.endsWith("Growth")) {
    const gap = alone.p50 - floor.p50;
    facts.push(`one request at a time: p50 ${fixed(alone.p50)} ms against ${fixed(floor.p50)} ms for floor (c), ${fixed(Math.abs(gap))} ms ${gap < 0 ? "less" : "more"}`);
  }
  return [...facts, ...(t.details ?? [])];
}

const OPERATION_LABELS = {
  "floor.noop": "Floor (a): nothing",
  "floor.d1": "Floor (b): `SELECT 1`",
  "floor.limited": "Floor (c): rate-limiter call + `SELECT 1`",
  getOne: "GET /jobs/{id} (100 000 jobs)",
  listPage1Small: "List page 1 (1 000 jobs)",
  listPage1Large: "List page 1 (100 000 jobs)",
  listLastPageSmall: "List last page, 100 (1 000 jobs)",
  listPage500Large: "List page 500 (100 000 jobs)",
  listQSmall: "List `q=accountant` (1 000 jobs)",
  listQLarge: "List `q=accountant` (100 000 jobs)",
  listStatusSmall: "List `status=active` (1 000 jobs)",
  listStatusLarge: "List `status=active` (100 000 jobs)",
  post: "POST, 5 KB description",
  putPartial: "PUT /jobs/{id}, title only",
  putUpsert: "PUT /jobs by referenceId (update)",
  delete: "DELETE /jobs/{id}",
  unauthorized: "Unknown API key (401)",
};

export function renderReport(r) {
  const targets = evaluate(r);
  const floorNoop = mean(r.floors.noop.map((f) => f.requestsPerSecond));
  const lines = [];
  const out = (s = "") => lines.push(s);

  out("# Benchmarks");
  out();
  out("Generated by `npm run bench` (bench/run.mjs); raw numbers in `bench/results/latest.json`. Do not edit by hand:");
  out("run the benchmark again.");
  out();
  out(`Run: ${r.date}, ${fixed(r.durationSeconds, 0)} s in all. ${r.conditions.cpus} × ${r.conditions.cpuModel ?? "CPU"}, Node ${r.conditions.node},`);
  out(`load average (1/5/15 min) ${r.conditions.loadAverageAtStart.map((l) => fixed(l)).join(" / ")} at the start and ${r.conditions.loadAverageAtEnd.map((l) => fixed(l)).join(" / ")} at the end;`);
  out("every ratio is taken against floors measured alongside. The bundle `wrangler deploy` builds runs in one local");
  out("workerd with fresh in-memory D1 and KV (Miniflare), next to three floors in the same workerd, sharing the same D1");
  out("database: (a) a route that does nothing, (b) one `SELECT 1` through a D1 session, (c) one call to the Rate Limiting");
  out("binding plus one `SELECT 1` through a session: the irreducible work of an authenticated, rate-limited read as served");
  out(`locally. autocannon drives each operation with ${r.conditions.connections} connections in ${r.conditions.rounds} slices of ${r.conditions.sliceSeconds} s alternating with floor (c) (floor, operation, floor, …, floor;`);
  out(
    r.floors.warmedOnce
      ? `${r.conditions.warmupSeconds} s warm-up of the operation first, and of floor (c) before the first operation only: each operation's slices end with one of floor (c)'s). An operation's ratio is its mean req/s over floor (c)'s mean req/s in the slices around`
      : `${r.conditions.warmupSeconds} s warm-up of each first). An operation's ratio is its mean req/s over floor (c)'s mean req/s in the slices around`,
  );
  out("it. Round trips are counted by the probe, the same API behind a counter of D1 calls.");
  out();
  out("This report holds only what the run measured. Why a target is missed, which of those causes are");
  out("measured and which are hypotheses, and what would close each miss: [performance.md](performance.md),");
  out("written by hand against a named run.");
  out();
  if (r.conditions.quick) {
    out("**Quick mode (`BENCH_QUICK=1`): smaller data and shorter slices; these numbers are a smoke test, not the report.**");
    out();
  }
  // Rows given a size of their own so that a full run fits in 30 minutes (issue 47 item 4).
  const smaller = [
    r.alerts?.sizes?.digests < 100_000 &&
      `a day's digests run for ${count(r.alerts.sizes.digests)} alerts (issue sizes: 100 000; matching runs at ${count(r.alerts.sizes.large)})`,
  ].filter(Boolean);
  if (smaller.length) {
    out(`Sizes are the issues' but for: ${smaller.join("; ")}.`);
    out();
  }
  const alone = Object.entries(r.rows ?? {}).filter(([, row]) => row.alone);
  if (alone.length) {
    out(`Rows run alone since (\`npm run bench -- --only\`), each in a runtime with only the setup it needs; their numbers replace the run's: ${alone.map(([name, row]) => `${name} (${row.date}${row.quick ? ", quick" : ""}${row.conditions ? `, load average ${fixed(row.conditions.loadAverageAtStart[0])} at the start, ${fixed(row.conditions.loadAverageAtEnd[0])} at the end` : ""})`).join(", ")}.`);
    out();
  }
  out("## Targets");
  out();
  out("| Target | Measured | Result |");
  out("|---|---|---|");
  for (const t of targets) out(`| ${t.target} | ${t.measured} | ${t.pass ? "pass" : "**miss**"} |`);
  out();
  const missed = targets.filter((t) => !t.pass);
  if (missed.length) {
    out("### Misses: what else the run measured about them");
    out();
    for (const t of missed) {
      const facts = measuredAlongside(t, r);
      out(`- **${t.target}** — ${t.measured}${facts.length ? `; ${facts.join("; ")}` : ""}.`);
    }
    out();
  }
  out("## Operations");
  out();
  out(`Floor (a), nothing: ${r.floors.noop.map((f) => fixed(f.requestsPerSecond, 0)).join(" and ")} req/s (mean ${fixed(floorNoop, 0)}).`);
  const floorB = mean(r.floors.d1.map((f) => f.requestsPerSecond));
  out(`Floor (b), \`SELECT 1\`: ${r.floors.d1.map((f) => fixed(f.requestsPerSecond, 0)).join(" and ")} req/s (mean ${fixed(floorB, 0)}).`);
  out(`Floor (c), a rate-limiter call and \`SELECT 1\`, around each operation in turn: ${r.floors.limited.map((f) => fixed(f.requestsPerSecond, 0)).join(", ")} req/s.`);
  out();
  out("p50 is the median slice's, p99 the worst slice's.");
  out();
  out("| Operation | req/s | ÷ floor (c) | ÷ floor (b) | p50 ms | p99 ms | requests | unexpected statuses / errors | D1 round trips (warm / cold isolate) |");
  out("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const [name, run] of Object.entries(r.runs)) {
    if (name.startsWith("floor")) continue;
    const trips = r.trips[name];
    out(
      `| ${OPERATION_LABELS[name] ?? name} | ${fixed(run.requestsPerSecond, 0)} | ${fixed(run.requestsPerSecond / run.floorC)} | ${fixed(run.requestsPerSecond / floorB)} | ${run.latencyMs.p50} | ${run.latencyMs.p99} | ${run.requests} | ${run.unexpected} | ${trips ? `${trips.warm} / ${trips.cold}` : ""} |`,
    );
  }
  out();
  out("One request at a time (keep-alive, after 10 warm-up rounds, up to 200 rounds or 8 s), the two operations of");
  out("each pair sent in turn so that a busy moment of the machine hits both alike (these give the 100 000 ÷ 1 000");
  out("ratios above):");
  out();
  out("| Operation | p50 ms | p99 ms | samples |");
  out("|---|---:|---:|---:|");
  for (const [name, s] of Object.entries(r.sequential)) {
    out(`| ${OPERATION_LABELS[name] ?? name} | ${fixed(s.p50, 3)} | ${fixed(s.p99, 3)} | ${s.samples} |`);
  }
  out();
  out("`q` against the same employer's page 1, one request at a time in turn:");
  out();
  out("| Employer | `q=accountant` p50 ms | page 1 p50 ms | ratio |");
  out("|---|---:|---:|---:|");
  for (const [who, v] of Object.entries(r.qVsPage1)) {
    out(`| ${who === "small" ? "1 000 jobs" : "100 000 jobs"} | ${fixed(v.q.p50, 3)} | ${fixed(v.page1.p50, 3)} | ${fixed(v.ratio)} |`);
  }
  out();
  out("## Descriptions: cleaner, hostile POSTs, stall (DESIGN 6a)");
  out();
  out("The cleaner (`src/description/clean.ts`, limits off for inputs past them) against its floor, a bare");
  out("HTMLRewriter pass over the same input with one no-op JavaScript handler per element and per text chunk; both");
  out("inside workerd through the probe, interleaved, best of the rounds. Events are the calls from the rewriter into");
  out("the cleaner's JavaScript (start tags, end tags, text chunks), counted by the cleaner itself.");
  out();
  out("| Input | size | floor ms | cleaner ms | ratio | cleaner events per call |");
  out("|---|---:|---:|---:|---:|---:|");
  for (const [name, row] of Object.entries(r.cleanerFloor)) {
    out(`| \`${name}\` | ${kib(row.bytes)} | ${fixed(row.floorMs, 3)} | ${fixed(row.cleanerMs, 3)} | ${fixed(row.ratio)} | ${row.work ? row.work.events / (row.calls ?? 1) : ""} |`);
  }
  out();
  const [small, large] = r.hostile.sizes;
  out(`POST /jobs with a hostile description through the API (median of ${r.hostile.repeats ?? 3}), against a plain-text POST of the same size;`);
  out("400 is the refusal of DESIGN 6a (more than 20 000 tags or 10 000 open elements).");
  out();
  out(`| Shape | ${sizeLabel(small)} ms (status) | ÷ plain | ${sizeLabel(large)} ms (status) | ÷ plain | growth |`);
  out("|---|---:|---:|---:|---:|---:|");
  const ps = r.hostile.bySize[small];
  const pl = r.hostile.bySize[large];
  out(`| plain text | ${fixed(ps.plain.ms, 1)} (${ps.plain.status}) | 1.00 | ${fixed(pl.plain.ms, 1)} (${pl.plain.status}) | 1.00 | ${fixed(pl.plain.ms / ps.plain.ms)} |`);
  for (const name of Object.keys(ps.shapes)) {
    const a = ps.shapes[name];
    const b = pl.shapes[name];
    out(`| \`${name}\` | ${fixed(a.ms, 1)} (${a.status}) | ${fixed(a.ratioToPlain)} | ${fixed(b.ms, 1)} (${b.status}) | ${fixed(b.ratioToPlain)} | ${fixed(b.ms / a.ms)} |`);
  }
  out();
  out("The heaviest descriptions the API accepts (just within the limits):");
  out();
  out("| Description | size | ms | status |");
  out("|---|---:|---:|---:|");
  for (const [name, p] of Object.entries(r.hostile.accepted)) out(`| \`${name}\` | ${kib(p.bytes)} | ${fixed(p.ms, 1)} | ${p.status} |`);
  out();
  out(`Stall: \`GET /api/v1.1/positiontypes\` sent again and again on its own connection while POST ${r.stall.label} ran`);
  out(`(${fixed(r.stall.postMs, 0)} ms at worst): ${r.stall.gets} GETs, the slowest answered in ${fixed(r.stall.worstGetMs, 1)} ms.`);
  out();
  if (r.board.rebuilds) {
    const b = r.board;
    const mib = (bytes) => (bytes == null ? "not observed" : `${fixed(bytes / 2 ** 20, 0)} MiB`);
    out("## Board (DESIGN 17)");
    out();
    out("The seeds write DB alone; the board's own database (BOARD_DB) is filled as an operator would, by the Worker's");
    out("scheduled handler with cron `board:rebuild` (through the probe), after the 1 000-job seed and again once every");
    out("large seed is in, just before the board's measurements. From then on the board queue's consumer (in the API");
    out("Worker, batches within 1 s) keeps it current. A rebuild's time runs from the handler's call until the board is");
    out(
      Object.values(b.rebuilds).every((x) => x.polled === "rows")
        ? "whole again: its rows counted every 200 ms until they are as many as the jobs that belong there, then the whole board checked against the jobs (counts and checksums of job id and revision, read inside workerd by the probe)."
        : "whole again: the whole board checked against the jobs (counts and checksums of job id and revision) every 200 ms.",
    );
    out("Memory: workerd's resident set sampled every 100 ms (its V8 heaps");
    out("are inside it, together with the in-memory databases), and this Node process's V8 heap.");
    out("Reads are cache misses (a URL of their own each), one at a time unless said otherwise.");
    out();
    out("| Rebuild | jobs | s | jobs/s | peak workerd RSS | workerd RSS high-water | peak Node heap | board = visible jobs |");
    out("|---|---:|---:|---:|---:|---:|---:|---|");
    for (const x of Object.values(b.rebuilds)) {
      out(`| ${x.label} | ${x.jobs} | ${fixed(x.wallMs / 1000, 1)} | ${fixed(x.jobsPerSecond, 0)} | ${mib(x.peak.workerdRssBytes)} | ${mib(x.peak.workerdRssHighWaterBytes)} | ${mib(x.peak.nodeHeapUsedBytes)} | ${x.matches ? "yes" : "**no**"} |`);
    }
    out();
    out(`| Read | p50 ms at ${b.small.activeJobs} active jobs | p50 ms at ${b.large.activeJobs} | growth | throughput req/s | ÷ floor (b) |`);
    out("|---|---:|---:|---:|---:|---:|");
    for (const [kind, label] of [["list", "list page 1"], ["q", "`q=accountant`"], ["near", "`near=14&radiusKm=50`"]]) {
      const t = b.throughput[kind];
      const small = b.small[kind];
      const large = kind === "near" ? b.radius?.near : b.large[kind];
      out(`| ${label} | ${small ? fixed(small.p50) : ""} | ${large ? fixed(large.p50) : ""} | ${small && large ? `${fixed(large.p50 / small.p50)} ×` : ""} | ${t ? fixed(t.requestsPerSecond, 0) : ""} | ${t ? fixed(t.ratio) : ""} |`);
    }
    out();
    if (b.radius) {
      out(`Radius against list page 1, in turn at ${b.large.activeJobs} active jobs: p50 ${fixed(b.radius.near.p50)} ms vs ${fixed(b.radius.list.p50)} ms = ${fixed(b.radius.ratio)} ×`);
      out(`(p99 ${fixed(b.radius.near.p99)} vs ${fixed(b.radius.list.p99)} ms); its first page: ${JSON.stringify(b.radius.firstPage)}.`);
      out();
    }
    if (b.staleness) {
      const st = b.staleness;
      out(`Staleness: ${st.loaded.changes} changes (3 in 4 a title by \`PUT /jobs/{id}\`, 1 in 4 a new job by POST), one every 100 ms, each`);
      out("polled every 50 ms on `GET /board/jobs/{id}` (a new URL each time) from the write's answer until the board shows it:");
      out(`idle p50 ${fixed(st.idle.p50, 0)} ms, p99 ${fixed(st.idle.p99, 0)} ms; under ${fixed(st.writeLoad.requestsPerSecond, 0)} partial PUTs a second (${st.writeLoad.connections} connections)`);
      out(`p50 ${fixed(st.loaded.p50, 0)} ms, p99 ${fixed(st.loaded.p99, 0)} ms, worst ${fixed(st.loaded.max, 0)} ms: ${fixed(st.ratio)} × the idle p99.`);
      if (b.converged) out(`Afterwards the board held exactly the visible jobs again (queue alone): ${b.converged.same ? `yes, ${b.converged.waitedMs} ms after the load` : "**no**"}.`);
      out();
    }
  }
  if (r.alerts) {
    const a = r.alerts;
    const d = a.digests;
    out("## Job alerts (DESIGN 23)");
    out();
    out("Alerts are seeded into ALERTS_DB set-based (bench/lib/alerts.mjs), confirmed and active, of mixed kinds as people");
    out("save searches: words alone (one or two, from the seeded titles' words, prefixes and words no title has), words in");
    out("a province, words around a place (25, 50 or 100 km, or the default), a place alone or with a category, a province");
    out("with a category, a province, a category, a position type in a province, words with a minimum salary; places and");
    out("provinces drawn by population; 20 % instant, 60 % daily, 20 % weekly, most at 8 h. The probe files them in the");
    out("reverse-search index and schedules them with the Worker's own functions (`termsOfAlert`, `nextScheduledAt`,");
    out("`timeZoneOf`). The jobs are posted through the API, so each has its `job.created` event in the outbox and is on the");
    out("board. Matching is that event handed to the alerts queue's consumer (`consumeAlertsBatch`) inside workerd through");
    out("the probe, timed one request at a time from here, its matches taken back between samples (unmeasured) so that each");
    out(`sample is a new job for the alerts; first at ${count(a.sizes.small)} alerts, then at ${count(a.sizes.large)}, where the added alerts that match the job are`);
    out("paused as the Worker pauses them (out of the index) so that both sizes have the same true matches. Round trips are counted on every D1");
    out("binding the consumer reaches. The alerts queue and the EMAIL binding are stubs in the probe that count: nothing is");
    out("sent, and what the cron and the consumer send to the queue is delivered to the consumer by the probe, 10 messages");
    out("a batch, until none is left.");
    out();
    out(`Timed job: ${a.job.title}, ${a.job.place} (job ${a.job.jobId}).`);
    out();
    out("| Alerts | p50 ms | p99 ms | p50 inside workerd ms | index terms of the job | candidates read | true matches | round trips (warm) |");
    out("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const m of [a.match.small, a.match.large]) {
      out(`| ${count(m.alerts)} | ${fixed(m.p50)} | ${fixed(m.p99)} | ${m.insideP50} | ${m.terms ?? ""} | ${m.candidates ?? ""} | ${m.matched} | ${m.trips.warm.total} (${tripsBy(m.trips.warm)}) |`);
    }
    out();
    const dm = a.dayMatching;
    out(`The day's ${dm.jobs} jobs (the seed's titles in the ${Math.min(20, dm.jobs)} largest places), matched one event at a time at ${count(a.sizes.large)} alerts:`);
    out(`p50 ${fixed(dm.p50, 1)} ms, slowest ${fixed(dm.max, 1)} ms, at most ${dm.maxTrips} round trips; ${count(dm.matches)} matches for ${count(dm.alertsMatched)} alerts.`);
    out();
    const digestsOf = a.sizes.digests ?? a.sizes.large;
    const some = digestsOf < a.sizes.large ? `the first ${count(digestsOf)} of the ${count(a.sizes.large)} alerts (the others paused; issue sizes: all 100 000)` : "every alert";
    out(`A day's digests: ${some} made daily and scheduled from the start of the day, then ${d.runs} cron runs an hour apart`);
    out("(`runAlertsUpkeep` at that `scheduledTime`: at most 10 000 due alerts a run, 10 per message), each run's messages");
    out("delivered to the consumer until every email was built (a batch's alerts together), recorded in the ledger, handed to the");
    out("queue (10 ledger rows per message) and given to the EMAIL stub (a batch's emails together):");
    out(`${count(d.due)} alerts handled in ${fixed(d.wallMs / 1000, 1)} s (${fixed(d.insideMs / 1000, 1)} s inside workerd) = ${fixed(d.alertsPerSecond, 0)} alerts/s; ${count(d.emails)} emails`);
    out(`(${fixed(d.emailBytes / Math.max(1, d.emails) / 1024, 1)} KiB of text and HTML each), ${count(d.trips)} D1 round trips. workerd's resident memory, sampled every 100 ms from`);
    out(`here: ${mibOf(d.peak.workerdRssAtStartBytes)} at the start, peak ${mibOf(d.peak.workerdRssBytes)}, high-water ${mibOf(d.peak.workerdRssHighWaterBytes)} (since workerd started).`);
    out();
    out("| Hour | alerts due | emails | messages | round trips | s |");
    out("|---:|---:|---:|---:|---:|---:|");
    for (const run of d.perRun.filter((x) => x.due > 0)) out(`| ${run.hour} | ${count(run.due)} | ${count(run.emails)} | ${count(run.messages)} | ${count(run.trips)} | ${fixed(run.ms / 1000, 1)} |`);
    out();
  }
  if (r.console) {
    const c = r.console;
    out("## Employer console (DESIGN 25)");
    out();
    out(`An employer with ${count(c.jobs)} jobs and a signed-in admin (an invitation accepted over HTTP, as a person accepts one);`);
    out("each console request and the API request it stands for, same employer, one at a time in turn (the order swapped");
    out("every other round) after 10 untimed rounds. A save: the form as the console's job page fills it from the job as it");
    out("is (its ETag in `ifMatch`, a new title each time), posted form-urlencoded with the console's Origin, against the `PUT`");
    out("with the body the console's own code makes of that form and the same `If-Match`; reading the job first is untimed.");
    out("The time from a sign-in form's answer to its email being sent is not measured: the email leaves after the answer");
    out("(`waitUntil`), through a binding the bench does not observe.");
    const run = r.rows?.console;
    if (run?.alone) out(`Run alone; load average (1/5/15 min) ${run.conditions.loadAverageAtStart.map((l) => fixed(l)).join(" / ")} on ${run.conditions.cpus} cores at its start.`);
    out();
    out("| Request | p50 ms | p95 ms | samples | statuses |");
    out("|---|---:|---:|---:|---|");
    for (const [label, p] of [
      ["`GET /employer/jobs`", c.list.console],
      [`\`GET /api/v1.1/jobs?pageSize=${c.pageSize}\``, c.list.api],
      ["`POST /employer/jobs/{id}`", c.save.console],
      ["`PUT /api/v1.1/jobs/{id}`", c.save.api],
    ]) out(`| ${label} | ${fixed(p.p50)} | ${fixed(p.p95)} | ${p.samples} | ${JSON.stringify(p.statuses)} |`);
    out();
  }
  out("## Cron, cleaning, bundle, storage");
  out();
  out(`- Cron (\`runScheduledJobs\`, bounded chunks, run after run until done) over ${r.cron.eligible} eligible active jobs (half due for auto-refresh, half past their`);
  out(`  close date): ${r.cron.refreshed} refreshed, ${r.cron.expired} expired in ${r.cron.runsMs.length} run(s) (${r.cron.runsMs.join(", ")} ms), longest single D1 call ${r.cron.longestCallMs} ms,`);
  out(`  ${r.cron.trips} D1 round trips, ${fixed(r.cron.wallMs, 0)} ms from the harness (${r.cron.elapsedMs} ms inside workerd). Counted in the jobs table afterwards; the runner reported`);
  const agrees = r.cron.reportedChanges.expiry === r.cron.expired && r.cron.reportedChanges["auto-refresh"] === r.cron.refreshed;
  out(`  ${JSON.stringify(r.cron.reportedChanges)}${agrees ? ", the same." : ", which differs from those counts."}`);
  for (const [label, c] of Object.entries(r.cleaning)) {
    out(`- Cleaning a ${label} description (\`cleanDescription\`, HTMLRewriter, inside workerd): ${fixed(c.msPerCall, 3)} ms per call`);
    out(`  (${c.calls} calls in one request, minus a one-call request).`);
  }
  out(`- Bundle (\`wrangler deploy --dry-run --minify\`): ${kib(r.bundle.minifiedBytes)} minified, **${kib(r.bundle.gzipBytes)} gzip**. Minified bytes by package:`);
  out(`  ${r.bundle.byPackage.map((p) => `${p.name} ${kib(p.bytes)}`).join(", ")}.`);
  out(`  Of zod, its ${r.bundle.zodLocales.files} error-message locale files are ${kib(r.bundle.zodLocales.bytes)}.`);
  out(`  Both consoles (employer's and operator's) add ${kib(r.bundle.consoles.minifiedBytes)} minified, ${kib(r.bundle.consoles.gzipBytes)} gzip (against a build that mounts neither).`);
  out(`  The passkeys Worker (workers/passkeys: @simplewebauthn/server, behind the service binding PASSKEYS), deployed apart: ${kib(r.bundle.passkeysWorker.minifiedBytes)} minified, ${kib(r.bundle.passkeysWorker.gzipBytes)} gzip.`);
  out(`  Largest files: ${r.bundle.largestFiles.slice(0, 6).map((f) => `\`${f.file}\` ${kib(f.bytes)}`).join(", ")}.`);
  out(`- Storage: ${r.storage.jobs} jobs (each with one location and one category link, a ${r.storage.seededDescriptionBytes}-byte`);
  out(`  description) grew the database by ${fixed(r.storage.bytes / 2 ** 20, 1)} MiB (D1's \`meta.size_after\`; \`PRAGMA page_count\` is not authorised on D1): ${fixed(r.storage.bytesPerJob, 0)} bytes per job,`);
  out(`  so about ${fixed(1e9 / r.storage.bytesPerJob / 1e6, 2)} million such jobs per GB and ${fixed((10 * 1e9) / r.storage.bytesPerJob / 1e6, 1)} million in D1's 10 GB (docs/scaling.md).`);
  out(`  Seeding them (jobs and links, set-based) took ${r.storage.seedMs} ms.`);
  if (r.seedCheck) {
    const c = r.seedCheck;
    out(`- Seed check (the jobs triggers fired for the seeded rows): ${c.jobs} jobs, ${c.counted} in job_counts; \`accountant\``);
    out(`  matches ${c.matched} jobs through the FTS index and ${c.liked} by LIKE; ${c.unlocated} jobs without a location.`);
  }
  out();
  if (r.rows) {
    out("## Rows");
    out();
    out("`npm run bench -- --list` names them; `npm run bench -- --only <row>` runs one alone. A row's time includes the setup it was");
    out("the first to need (the main runtime, the seeded employers, the board's rebuild); the build before the rows is not in any.");
    out();
    out("| Row | s | Run |");
    out("|---|---:|---|");
    for (const [name, row] of Object.entries(r.rows)) out(`| ${name} | ${fixed(row.seconds, 0)} | ${row.alone ? `alone, ${row.date}` : "this run"}${row.quick ? ", quick" : ""}${row.problems?.length ? `, ${row.problems.length} unexpected answer(s)` : ""} |`);
    out();
  }
  if (r.problems.length) {
    out("## Unexpected answers");
    out();
    for (const p of r.problems) out(`- ${p}`);
    out();
  }
  return `${lines.join("\n")}\n`;
}
