// DESIGN 22: the runner of `npm run shards -- move` (src/shards/move.ts runs the move itself):
// each batch of statements one `wrangler d1 execute`, each shard by its binding, the keys through
// `wrangler kv bulk`. Locally (the state `npm run dev` serves, or --persist-to) or --remote.
import { shardBinding } from "../../src/shards/identity.ts";
import { shardNumbers } from "./shards.mjs";
import { COMMAND_BYTES, execute, KEYS_BINDING, sqlString, target, withFile, wrangler } from "./wrangler.mjs";

/**
 * Remotely a batch goes as one command where it fits (COMMAND_BYTES); locally files have no such
 * limit: batches are bounded by the move's rows per batch.
 */
const LOCAL_BATCH_BYTES = 4_000_000;
/** KV's bulk reads take at most 100 keys a request. */
const KEYS_PER_READ = 100;

/** A value written into SQL: a text holding NUL (which no command line carries) as its bytes in hex. */
function literal(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`not a number SQL can hold: ${value}`);
    return String(value);
  }
  const text = String(value);
  return text.includes("\u0000") ? `CAST(X'${Buffer.from(text, "utf8").toString("hex")}' AS TEXT)` : sqlString(text);
}

/** A statement with its values written in (wrangler binds none); the move's SQL holds `?` only as placeholders. */
function inline({ sql, params }) {
  let next = 0;
  const text = sql.replace(/\?/g, () => literal(params[next++]));
  if (next !== params.length) throw new Error(`a statement with ${next} placeholders got ${params.length} values: ${sql.slice(0, 80)}`);
  return text;
}

/** The move's databases and keys through wrangler. `extraArgs`: where local state lives (--persist-to DIR). */
export function moveThroughWrangler(remote, extraArgs = []) {
  const where = [...target(remote), ...extraArgs];
  const dbs = {
    shards: shardNumbers(remote),
    batchBytes: remote ? COMMAND_BYTES : LOCAL_BATCH_BYTES,
    async batch(shard, statements) {
      return execute(statements.map(inline).join(";\n"), remote, shardBinding(shard), extraArgs);
    },
  };
  const keys = {
    async get(hashes) {
      const found = new Map();
      for (let i = 0; i < hashes.length; i += KEYS_PER_READ) {
        const values = withFile(JSON.stringify(hashes.slice(i, i + KEYS_PER_READ)), (file) =>
          JSON.parse(wrangler(["kv", "bulk", "get", file, `--binding=${KEYS_BINDING}`, ...where])),
        );
        for (const [hash, { value }] of Object.entries(values)) {
          let record = null;
          try {
            record = value === null ? null : JSON.parse(value);
          } catch {
            // not a key's record
          }
          found.set(hash, record);
        }
      }
      return found;
    },
    async put(records) {
      const entries = [...records].map(([key, record]) => ({ key, value: JSON.stringify(record) }));
      withFile(JSON.stringify(entries), (file) => wrangler(["kv", "bulk", "put", file, `--binding=${KEYS_BINDING}`, ...where]));
    },
    async hashes() {
      return JSON.parse(wrangler(["kv", "key", "list", `--binding=${KEYS_BINDING}`, ...where])).map((entry) => entry.name);
    },
  };
  return { dbs, keys };
}
