// D1's transient errors: the ones whose recommended action is "retry the operation"
// (developers.cloudflare.com/d1/observability/debug-d1/#error-list), and SQLite's busy lock,
// which local D1 (wrangler dev, the keys CLI) reports under concurrent writers.
// Plain JavaScript rules, shared by the Worker and the CLI scripts.

/** Refused before anything ran: sending the same statements again cannot apply them twice. */
const REFUSED_BEFORE_RUNNING = [
  /SQLITE_BUSY/,
  /database is locked/i,
  /D1 DB is overloaded/i,
  /Durable Object is overloaded/i,
  /Internal error while starting up D1 DB storage/i,
  /Cannot resolve D1 DB due to transient issue/i,
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

/** Attempts in all (the first and the retries) before the error is the answer. */
export const MAX_ATTEMPTS = 4;
const BASE_DELAY_MS = 25;

/** Full jitter: a random wait up to a ceiling that doubles, so retrying clients spread out. */
export const retryDelayMs = (retry: number): number => Math.random() * BASE_DELAY_MS * 2 ** retry;

/** Runs `operation`, again after a jittered wait while it fails in a way `mayRepeat` allows. */
export async function withRetries<T>(operation: () => Promise<T>, readOnly: boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !mayRepeat(error, readOnly)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
    }
  }
}
