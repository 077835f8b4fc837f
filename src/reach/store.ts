import type { KnownPage, NoticeType } from "./rules";
import type { Service } from "./settings";

// The notifier's own storage (a Durable Object's SQLite, src/reach/notifier.ts): every SQL of
// reach is here. Tables:
// - pages: what reach last gathered of each job's page (its revision, whether on the board, its
//   addresses, the digest of what engines see); a deleted job's row is a tombstone for 8 days.
// - pending: one row per service and address waiting to be sent (latest state wins).
// - sends: the send log (address, kind, time, outcome), 30 days.
// - receipts: the events reach took, per shard (DESIGN 16a), 8 days.
// - meta: the Google quota's day and count, the cached access token.

export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS pages (job_id INTEGER PRIMARY KEY, revision INTEGER NOT NULL, deleted INTEGER NOT NULL, shown INTEGER NOT NULL,
    paths TEXT NOT NULL, digest TEXT, close_at INTEGER NOT NULL, seen_at INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS pages_closing ON pages (close_at) WHERE shown = 1",
  "CREATE INDEX IF NOT EXISTS pages_deleted ON pages (seen_at) WHERE deleted = 1",
  `CREATE TABLE IF NOT EXISTS pending (service TEXT NOT NULL, path TEXT NOT NULL, job_id INTEGER NOT NULL, type TEXT NOT NULL, was_shown INTEGER NOT NULL,
    first_at INTEGER NOT NULL, due_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (service, path))`,
  "CREATE INDEX IF NOT EXISTS pending_job ON pending (job_id)",
  "CREATE INDEX IF NOT EXISTS pending_order ON pending (service, type, first_at)",
  `CREATE TABLE IF NOT EXISTS sends (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, service TEXT NOT NULL, url TEXT NOT NULL, type TEXT NOT NULL,
    status INTEGER, outcome TEXT NOT NULL, attempt INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS sends_at ON sends (at)",
  "CREATE TABLE IF NOT EXISTS receipts (shard INTEGER NOT NULL, event_id TEXT NOT NULL, taken_at INTEGER NOT NULL, PRIMARY KEY (shard, event_id)) WITHOUT ROWID",
  "CREATE INDEX IF NOT EXISTS receipts_taken ON receipts (taken_at)",
  "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
];

/** Receipts and deleted jobs' tombstones outlive the events' week of retention by a day (DESIGN 16a, 22). */
export const RECEIPT_MS = 8 * 24 * 60 * 60_000;
/** The send log is kept a month. */
export const SEND_LOG_MS = 30 * 24 * 60 * 60_000;
/** Rows pruned per statement: a few ms, whatever the tables hold (DESIGN 6a). */
const PRUNED_PER_STATEMENT = 1_000;

export interface Waiting {
  service: Service;
  path: string;
  jobId: number;
  type: NoticeType;
  attempts: number;
  firstAt: number;
}

export interface LoggedSend {
  at: number;
  service: Service;
  url: string;
  type: NoticeType;
  status: number | null;
  outcome: "sent" | "retry" | "rejected" | "gave-up";
  attempt: number;
}

export function createSchema(sql: SqlStorage): void {
  for (const statement of SCHEMA) sql.exec(statement);
}

export function knownPage(sql: SqlStorage, jobId: number): KnownPage | null {
  const row = sql.exec<{ revision: number; deleted: number; shown: number; paths: string; digest: string | null }>("SELECT revision, deleted, shown, paths, digest FROM pages WHERE job_id = ?", jobId).toArray()[0];
  return row ? { revision: row.revision, deleted: Boolean(row.deleted), shown: Boolean(row.shown), paths: JSON.parse(row.paths) as string[], digest: row.digest } : null;
}

export function savePage(sql: SqlStorage, jobId: number, page: KnownPage & { closeAt: number }, now: number): void {
  sql.exec(
    `INSERT INTO pages (job_id, revision, deleted, shown, paths, digest, close_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (job_id) DO UPDATE SET revision = excluded.revision, deleted = excluded.deleted, shown = excluded.shown, paths = excluded.paths,
       digest = excluded.digest, close_at = excluded.close_at, seen_at = excluded.seen_at`,
    jobId, page.revision, Number(page.deleted), Number(page.shown), JSON.stringify(page.paths), page.digest, page.closeAt, now,
  );
}

/** Shown pages whose job closed by `now` (their page answers 410 from its closeDate on), at most `limit`. */
export function closedPages(sql: SqlStorage, now: number, limit: number): { jobId: number; known: KnownPage; closeAt: number }[] {
  return sql
    .exec<{ jobId: number; revision: number; paths: string; digest: string | null; closeAt: number }>(
      "SELECT job_id AS jobId, revision, paths, digest, close_at AS closeAt FROM pages WHERE shown = 1 AND close_at <= ? ORDER BY close_at LIMIT ?",
      now, limit,
    )
    .toArray()
    .map((row) => ({ jobId: row.jobId, closeAt: row.closeAt, known: { revision: row.revision, deleted: false, shown: true, paths: JSON.parse(row.paths) as string[], digest: row.digest } }));
}

export function pendingPathsOf(sql: SqlStorage, jobId: number): string[] {
  return sql.exec<{ path: string }>("SELECT DISTINCT path FROM pending WHERE job_id = ?", jobId).toArray().map((row) => row.path);
}

export function waitingNotice(sql: SqlStorage, service: Service, path: string): { type: NoticeType; wasShown: boolean } | null {
  const row = sql.exec<{ type: NoticeType; wasShown: number }>("SELECT type, was_shown AS wasShown FROM pending WHERE service = ? AND path = ?", service, path).toArray()[0];
  return row ? { type: row.type, wasShown: Boolean(row.wasShown) } : null;
}

/** A new waiting notice is due a gathering minute after its first change; a waiting one keeps its time and tries. */
export function putWaiting(sql: SqlStorage, service: Service, path: string, jobId: number, notice: { type: NoticeType; wasShown: boolean }, now: number, dueAt: number): void {
  sql.exec(
    `INSERT INTO pending (service, path, job_id, type, was_shown, first_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (service, path) DO UPDATE SET type = excluded.type, was_shown = excluded.was_shown, job_id = excluded.job_id`,
    service, path, jobId, notice.type, Number(notice.wasShown), now, dueAt,
  );
}

export function dropWaiting(sql: SqlStorage, service: Service, path: string): void {
  sql.exec("DELETE FROM pending WHERE service = ? AND path = ?", service, path);
}

/** Drops every waiting notice of services that are off now: turned on again later, they start afresh. */
export function dropServicesOff(sql: SqlStorage, on: Service[]): void {
  sql.exec("DELETE FROM pending WHERE service NOT IN (SELECT value FROM json_each(?))", JSON.stringify(on));
}

/** What a service may send now: due and not waiting for a retry; deletions first, then the oldest (then in the order gathered: English before French). */
export function dueNotices(sql: SqlStorage, service: Service, now: number, limit: number): Waiting[] {
  return sql
    .exec<{ path: string; jobId: number; type: NoticeType; attempts: number; firstAt: number }>(
      `SELECT path, job_id AS jobId, type, attempts, first_at AS firstAt FROM pending WHERE service = ? AND due_at <= ? AND next_at <= ?
       ORDER BY type = 'URL_DELETED' DESC, first_at, rowid LIMIT ?`,
      service, now, now, limit,
    )
    .toArray()
    .map((row) => ({ service, ...row }));
}

/** When a service's next notice is due (ms), or null. */
export function nextDue(sql: SqlStorage, service: Service): number | null {
  return sql.exec<{ at: number | null }>("SELECT min(max(due_at, next_at)) AS at FROM pending WHERE service = ?", service).one().at;
}

export function nextClose(sql: SqlStorage): number | null {
  return sql.exec<{ at: number | null }>("SELECT min(close_at) AS at FROM pages WHERE shown = 1").one().at;
}

/** A sent or refused notice is done, unless a newer change of its page came meanwhile (then that is sent). */
export function finishNotice(sql: SqlStorage, notice: Waiting): void {
  sql.exec("DELETE FROM pending WHERE service = ? AND path = ? AND type = ?", notice.service, notice.path, notice.type);
}

export function retryNotice(sql: SqlStorage, notice: Waiting, nextAt: number): void {
  sql.exec("UPDATE pending SET attempts = attempts + 1, next_at = ? WHERE service = ? AND path = ?", nextAt, notice.service, notice.path);
}

export function logSend(sql: SqlStorage, send: LoggedSend): void {
  sql.exec("INSERT INTO sends (at, service, url, type, status, outcome, attempt) VALUES (?, ?, ?, ?, ?, ?, ?)", send.at, send.service, send.url, send.type, send.status, send.outcome, send.attempt);
}

export function takeEvents(sql: SqlStorage, shard: number, ids: string[], now: number): void {
  sql.exec("INSERT INTO receipts (shard, event_id, taken_at) SELECT ?, value, ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING", shard, now, JSON.stringify(ids));
}

export function takenEvents(sql: SqlStorage, shard: number, ids: string[]): string[] {
  const taken = new Set(
    sql.exec<{ id: string }>("SELECT event_id AS id FROM receipts WHERE shard = ? AND event_id IN (SELECT value FROM json_each(?))", shard, JSON.stringify(ids)).toArray().map((row) => row.id),
  );
  return ids.filter((id) => taken.has(id));
}

/** One bounded step of retention: old receipts, old tombstones, the old send log. */
export function prune(sql: SqlStorage, now: number): void {
  sql.exec("DELETE FROM receipts WHERE (shard, event_id) IN (SELECT shard, event_id FROM receipts WHERE taken_at < ? LIMIT ?)", now - RECEIPT_MS, PRUNED_PER_STATEMENT);
  sql.exec("DELETE FROM pages WHERE job_id IN (SELECT job_id FROM pages WHERE deleted = 1 AND seen_at < ? LIMIT ?)", now - RECEIPT_MS, PRUNED_PER_STATEMENT);
  sql.exec("DELETE FROM sends WHERE id IN (SELECT id FROM sends WHERE at < ? ORDER BY at LIMIT ?)", now - SEND_LOG_MS, PRUNED_PER_STATEMENT);
}

export function readMeta<T>(sql: SqlStorage, key: string): T | null {
  const row = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
  return row ? (JSON.parse(row.value) as T) : null;
}

export function writeMeta(sql: SqlStorage, key: string, value: unknown): void {
  sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, JSON.stringify(value));
}

export function deleteMeta(sql: SqlStorage, key: string): void {
  sql.exec("DELETE FROM meta WHERE key = ?", key);
}

/** The newest sends first, for operators and tests. */
export function recentSends(sql: SqlStorage, limit: number): LoggedSend[] {
  return sql.exec<LoggedSend & Record<string, SqlStorageValue>>("SELECT at, service, url, type, status, outcome, attempt FROM sends ORDER BY id DESC LIMIT ?", limit).toArray();
}
