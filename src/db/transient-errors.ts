// D1's transient errors: the ones whose recommended action is "retry the operation"
// (developers.cloudflare.com/d1/observability/debug-d1/#error-list), and SQLite's busy lock,
// which local D1 reports when two processes (`npm run dev` and a command such as
// `npm run shards -- move`) write the same local files at the same moment.
// Plain JavaScript rules, shared by the Worker and the CLI scripts.

/** Refused before anything ran: sending the same statements again cannot apply them twice. */
const REFUSED_BEFORE_RUNNING = [
  /SQLITE_BUSY/,
  /database is locked/i,
  /D1 DB is overloaded/i,
  /Durable Object is overloaded/i,
  /Internal error while starting up D1 DB storage/i,
  /Cannot resolve D1 DB due to transient issue/i,
  // Local D1 (miniflare) asks for the commit's token inside the transaction, so when that commit
  // found the file locked by another process, the transaction was rolled back: nothing stored.
  // The Worker sees only this line ("…: internal error; reference = …"), not SQLITE_BUSY.
  /Failed to get session commit token/i,
];

/** Lost in transit or while the database restarted: the statements may have run, and committed. */
const OUTCOME_UNKNOWN = [
  /Network connection lost/i,
  /storage operation exceeded timeout/i,
  /caused object to be reset/i,
  /D1 DB reset because its code was updated/i,
  /Can't read from request stream because client disconnected/i,
];

export type Transience = "refused" | "outcome-unknown";

/** The error's message and those of its causes (a library may wrap D1's error). */
function messagesOf(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join("\n");
}

export function transienceOf(error: unknown): Transience | undefined {
  const text = messagesOf(error);
  if (REFUSED_BEFORE_RUNNING.some((pattern) => pattern.test(text))) return "refused";
  if (OUTCOME_UNKNOWN.some((pattern) => pattern.test(text))) return "outcome-unknown";
  return undefined;
}

export const isTransient = (error: unknown): boolean => transienceOf(error) !== undefined;

/**
 * Whether the same statements may simply be sent again: always when D1 refused them, and only
 * for reads when they may have run (a write that committed would be applied twice).
 */
export const mayRepeat = (error: unknown, readOnly: boolean): boolean => {
  const transience = transienceOf(error);
  return transience === "refused" || (transience === "outcome-unknown" && readOnly);
};

const WRITE_KEYWORD = /\b(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|VACUUM|ATTACH|DETACH|REINDEX|ANALYZE)\b/i;

/** A statement that can only read (D1's own test: SELECT, WITH or EXPLAIN, and no write keyword). */
export const isReadOnly = (sql: string): boolean => /^\s*(SELECT|WITH|EXPLAIN)\b/i.test(sql) && !WRITE_KEYWORD.test(sql);

/** How long one caller keeps trying: attempts in all (the first and the retries), and the longest wait between two. */
export interface RetryBudget {
  attempts: number;
  maxDelayMs: number;
}

/**
 * The Worker's calls: jittered waits of up to 50, 100 … 1 000 ms, 2.6 s in all at most, then
 * the error is the answer (a 503 with Retry-After). A command that writes a local database holds
 * it a few hundred ms at a time (a batch of a move is the longest).
 */
export const WORKER_RETRIES: RetryBudget = { attempts: 7, maxDelayMs: 1_000 };
/**
 * A command's calls (`npm run keys`, `shards`, `board:rebuild`, `alerts`): each attempt is a
 * wrangler process of its own (a second or two), and the waits grow to 8 s: about half a
 * minute in all at most, while `npm run dev` keeps writing.
 */
export const COMMAND_RETRIES: RetryBudget = { attempts: 10, maxDelayMs: 8_000 };

const BASE_DELAY_MS = 25;

/** Full jitter: a random wait up to a ceiling that doubles (up to the budget's), so retrying clients spread out. */
export const retryDelayMs = (retry: number, budget: RetryBudget = WORKER_RETRIES): number =>
  Math.random() * Math.min(budget.maxDelayMs, BASE_DELAY_MS * 2 ** retry);

/** Runs `operation`, again after a jittered wait while it fails in a way `mayRepeat` allows, within `budget`. */
export async function withRetries<T>(operation: () => Promise<T>, readOnly: boolean, budget: RetryBudget = WORKER_RETRIES): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= budget.attempts || !mayRepeat(error, readOnly)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt, budget)));
    }
  }
}
