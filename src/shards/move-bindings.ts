import type { Env } from "../env";
import { shardDatabase, shardNumbers } from "./bindings";
import type { KeyRecords, MoveDatabases } from "./move";
import type { Row } from "./move-plan";

// DESIGN 22b: the move's runner over the Worker's own bindings (the EmployerMove Durable Object
// moves employers with it). Values are bound, so a
// batch's size is bounded by D1's own limits only: the rows per batch (MAX_ROWS) bound it first.

/** A batch's SQL text and values, at most: well within what one D1 call takes. */
const BATCH_BYTES = 4_000_000;
/** Between two batches of a move. */
const PAUSE_MS = 10;

export function moveThroughBindings(env: Env): { dbs: MoveDatabases; keys: KeyRecords } {
  return {
    dbs: {
      shards: shardNumbers(env),
      batchBytes: BATCH_BYTES,
      async batch(shard, statements) {
        const d1 = shardDatabase(env, shard);
        const results = await d1.batch(statements.map((statement) => d1.prepare(statement.sql).bind(...statement.params)));
        // As the cron's rounds do (src/scheduled/chunks.ts): a pause lets the queries queued
        // meanwhile go first; batches sent back to back held every other query of both shards
        // until the move ended (the bench's move row).
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        return results.map((result) => result.results as Row[]);
      },
    },
    keys: {
      get: async (hashes) => new Map(await Promise.all(hashes.map(async (hash) => [hash, await env.API_KEYS.get(hash, "json")] as const))),
      async put(records) {
        for (const [hash, record] of records) await env.API_KEYS.put(hash, JSON.stringify(record));
      },
      async hashes() {
        const names: string[] = [];
        for (let cursor: string | undefined; ; ) {
          const page = await env.API_KEYS.list(cursor ? { cursor } : {});
          names.push(...page.keys.map((key) => key.name));
          if (page.list_complete) return names;
          cursor = page.cursor;
        }
      },
    },
  };
}
