import { claimShardStatements } from "../../src/shards/identity.ts";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from "wrangler";

export const HOSTS = { api: "api.bench", probe: "probe.bench", floor: "floor.bench", noRules: "norules.bench", noViews: "noviews.bench" };
/** wrangler.toml's board queue (DESIGN 17). */
export const BOARD_QUEUE = "job-posting-board";
/** wrangler.toml's views queue (DESIGN 21). */
const VIEWS_QUEUE = "job-posting-views";

/**
 * wrangler.toml's `[env.load]` bindings for a Worker whose bundle is already built (so wrangler's
 * module rules and source options do not apply): `[env.load]` because the production rate limit
 * (1 000 requests a minute per employer) would turn the load into 429s; everything else is the
 * same. Every Durable Object binding points at the API's ("api"), as deployed. Returns wrangler's
 * options too, for the queue consumers a caller turns on.
 */
export function builtWorkerBindings(root) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, "wrangler.toml"), "load");
  const bindings = {
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
    bindings: workerOptions.bindings,
    kvNamespaces: workerOptions.kvNamespaces,
    d1Databases: workerOptions.d1Databases,
    ratelimits: workerOptions.ratelimits,
    // Résumés and every queue's producer; a caller turns on the consumers it measures (an email
    // or webhook delivery would leave the machine).
    r2Buckets: workerOptions.r2Buckets,
    queueProducers: workerOptions.queueProducers,
    // DESIGN 22: one relay per shard, whichever Worker pokes it: the API's, as deployed.
    durableObjects: Object.fromEntries(Object.entries(workerOptions.durableObjects ?? {}).map(([binding, target]) => [binding, { ...target, scriptName: "api" }])),
  };
  return { workerOptions, bindings };
}

/**
 * One workerd with fresh in-memory state and three Workers sharing the same D1 databases (DB and
 * the board's BOARD_DB) and KV namespace: the API as deployed, the probe (the API behind a round-trip counter, plus
 * cron and cleaner hooks) and the floor. Requests pick a Worker by Host.
 * The API without posting rules and without view counting join them when their scripts are given;
 * `variants` (`[{ name, host, scriptPath }]`) are more builds of the API, each under its own host,
 * without queue consumers (bench/lib/board-misses.mjs).
 * `options.inspectorPort`: workerd's V8 inspector listens there (bench/profile.mjs); without it,
 * as for the bench, there is no inspector. `options.port`: where it listens (default: any free port); `options.apiVars`: more variables of
 * the API Worker (bench/lib/shard-move.mjs: the stand-in of Access, which names the origin).
 */
export async function startRuntime(root, { apiScript, probeScript, floorScript, noRulesScript, noViewsScript, variants = [] }, options = {}) {
  const { workerOptions, bindings } = builtWorkerBindings(root);
  if (!bindings.durableObjects.RELAY) throw new Error("wrangler.toml [env.load] declares no RELAY Durable Object");
  if (!bindings.d1Databases?.BOARD_DB) throw new Error("wrangler.toml [env.load] declares no BOARD_DB database");
  if (!Object.values(bindings.queueProducers ?? {}).some((q) => q.queueName === BOARD_QUEUE)) {
    throw new Error(`wrangler.toml [env.load] declares no producer for ${BOARD_QUEUE}`);
  }
  const asBuilt = (name, scriptPath, extra = {}, host = HOSTS[name]) => ({
    ...bindings,
    name,
    modules: true,
    scriptPath,
    routes: [`${host}/*`],
    ...extra,
  });
  // wrangler hands out options in Miniflare 4's shape; Miniflare 5 converts them itself.
  const mf = new Miniflare(convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: options.port ?? 0,
    ...(options.inspectorPort !== undefined && { inspectorPort: options.inspectorPort }),
    // One JSON log line per request is part of the cost measured; printing them is not.
    handleStructuredLogs: () => {},
    workers: [
      // The board's consumer, in the API Worker as deployed (DESIGN 17), handing batches over
      // within 1 s as [env.load] does: the board's staleness under write load is measured.
      // So does the views queue's consumer: a view's whole cost, its one write per batch included.
      asBuilt("api", apiScript, {
        bindings: { ...bindings.bindings, ...options.apiVars },
        queueConsumers: {
          [BOARD_QUEUE]: { ...workerOptions.queueConsumers?.[BOARD_QUEUE], maxBatchTimeout: 1 },
          [VIEWS_QUEUE]: { ...workerOptions.queueConsumers?.[VIEWS_QUEUE], maxBatchTimeout: 1 },
        },
      }),
      asBuilt("probe", probeScript),
      // The API without posting rules (bench/lib/build.mjs), for the writes' A/B.
      ...(noRulesScript ? [asBuilt("noRules", noRulesScript)] : []),
      // The API without view counting, for the board reads' A/B (DESIGN 21).
      ...(noViewsScript ? [asBuilt("noViews", noViewsScript)] : []),
      ...variants.map((variant) => asBuilt(variant.name, variant.scriptPath, {}, variant.host)),
      {
        name: "floor",
        modules: true,
        scriptPath: floorScript,
        compatibilityDate: workerOptions.compatibilityDate,
        d1Databases: workerOptions.d1Databases,
        // The same limiter as the API's (floor c); its own key, so it never throttles the API.
        ratelimits: workerOptions.ratelimits,
        routes: [`${HOSTS.floor}/*`],
      },
    ],
  }));
  const url = await mf.ready;
  return {
    mf,
    origin: url.origin,
    db: await mf.getD1Database("DB", "api"),
    boardDb: await mf.getD1Database("BOARD_DB", "api"),
    kv: await mf.getKVNamespace("API_KEYS", "api"),
  };
}

/** Applies `drizzle/*.sql` (or `drizzle/board/*.sql`) in order, as `wrangler d1 migrations apply` would. */
export async function applyMigrations(db, dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  for (const file of files) {
    const sql = (await readFile(join(dir, file), "utf8")).replaceAll("--> statement-breakpoint", "");
    const statements = unstable_splitSqlQuery(sql).filter((s) => s.trim());
    for (let i = 0; i < statements.length; i += 50) {
      await db.batch(statements.slice(i, i + 50).map((s) => db.prepare(s)));
    }
  }
  return files;
}

/**
 * Every database as `npm run dev` has it: shard 0 (DB) and shard 1 (DB_1, claimed; the cron and a
 * rebuild read every shard), the board's, job alerts' and the console's (DESIGN 22, 17, 23, 25). Shard 1's and
 * alerts' bindings, and the files applied to each database, for the log.
 */
export async function migrateAll(runtime, root) {
  const shard1 = await runtime.mf.getD1Database("DB_1", "api");
  const alertsDb = await runtime.mf.getD1Database("ALERTS_DB", "api");
  const applied = { DB: await applyMigrations(runtime.db, `${root}drizzle`), DB_1: await applyMigrations(shard1, `${root}drizzle`) };
  await shard1.batch(claimShardStatements(1).map((statement) => shard1.prepare(statement)));
  applied.BOARD_DB = await applyMigrations(runtime.boardDb, `${root}drizzle/board`);
  applied.ALERTS_DB = await applyMigrations(alertsDb, `${root}drizzle/alerts`);
  // The employer console's own database (DESIGN 25), as npm run dev has it.
  applied.ACCOUNTS_DB = await applyMigrations(await runtime.mf.getD1Database("ACCOUNTS_DB", "api"), `${root}drizzle/accounts`);
  return { shard1, alertsDb, applied };
}
