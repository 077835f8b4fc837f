import { DurableObject } from "cloudflare:workers";
import { retryingBindings } from "../db/retrying";
import type { Env, Reach } from "../env";
import { isFresh, publish, requestToken, TokenError, type AccessToken } from "./google";
import { INDEXNOW_URLS_PER_REQUEST, submitUrls } from "./indexnow";
import { backoffMs, GATHERING_MS, isNewer, isRetryable, MAX_ATTEMPTS, mergeNotice, nextUtcDay, noticesOf, retryAfterOf, utcDayOf, type KnownPage, type PageChange } from "./rules";
import { reachSettings, servicesOn, type GoogleSettings, type IndexNowSettings, type ReachSettings, type Service } from "./settings";
import * as store from "./store";

// DESIGN 24: one notifier (a Durable Object with SQLite storage, one instance, named "reach")
// holds everything reach keeps: the pages as last gathered, the notices waiting, the send log,
// the receipts of the events it took (DESIGN 16a), the quota's count and the access token. One
// instance because the quota and the token are one per deployment, and gathering a page's
// changes needs one place where they meet; the work is small (a few SQL statements per change,
// a few hundred sends a day to Google). The queue consumer hands it each batch's changes; its
// alarm, at the end of each gathering minute, sends what is due.

/** What the consumer hands over per batch: the pages' changes and the events they came from. */
export interface GatheredBatch {
  changes: PageChange[];
  receipts: { shard: number; ids: string[] }[];
  now: number;
}

/** Google sends per alarm (each a subrequest), this many at a time. */
const GOOGLE_PER_RUN = 100;
const GOOGLE_AT_ONCE = 6;
/** IndexNow requests per alarm (10 000 addresses each). */
const INDEXNOW_PER_RUN = 2;
/** Pages whose closeDate passed, turned into deletions per alarm. */
const CLOSED_PER_RUN = 500;
/** After a failed alarm, the next try. */
const RETRY_RUN_MS = 30_000;

const QUOTA = "google-quota";
const TOKEN = "google-token";

export const NOTIFIER_NAME = "reach";
export const notifierOf = (env: Pick<Env, "REACH">) => env.REACH.get(env.REACH.idFromName(NOTIFIER_NAME));

export class ReachNotifier extends DurableObject<Env> implements Reach {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, retryingBindings(env));
    store.createSchema(ctx.storage.sql);
  }

  private get sql() {
    return this.ctx.storage.sql;
  }

  /**
   * A batch's changes, gathered, and its events' receipts, in one storage write (DESIGN 16a: what
   * reach took is recorded with its effect). Stale changes (an older revision arriving late, an
   * event handed over twice) change nothing; test-space jobs are never kept.
   */
  async gather(batch: GatheredBatch): Promise<void> {
    const on = servicesOn(reachSettings(this.env));
    this.ctx.storage.transactionSync(() => {
      for (const { shard, ids } of batch.receipts) store.takeEvents(this.sql, shard, ids, batch.now);
      for (const change of batch.changes) {
        if (change.test) continue;
        const known = store.knownPage(this.sql, change.jobId);
        if (!isNewer(known, change)) continue;
        this.notify(change.jobId, known, change, on, batch.now);
        store.savePage(this.sql, change.jobId, change, batch.now);
      }
      store.prune(this.sql, batch.now);
    });
    await this.schedule(batch.now);
  }

  /** DESIGN 16a: of these events of `shard`, those reach has taken. */
  async taken(shard: number, ids: string[]): Promise<string[]> {
    return store.takenEvents(this.sql, shard, ids);
  }

  /** The newest sends first (the send log), for operators and tests. */
  async sends(limit = 100): Promise<store.LoggedSend[]> {
    return store.recentSends(this.sql, Math.min(Math.max(1, limit), 1_000));
  }

  override async alarm(): Promise<void> {
    try {
      await this.run(Date.now());
    } catch (error) {
      console.error(JSON.stringify({ level: "error", message: "reach run failed", error: String(error) }));
      await this.ctx.storage.setAlarm(Date.now() + RETRY_RUN_MS);
    }
  }

  /**
   * One run at `now`: deletions of closed pages, then what is due, then the next alarm. The alarm
   * passes its own time; tests pass a later one to skip a gathering minute or a day.
   */
  async run(now: number): Promise<void> {
    const settings = reachSettings(this.env);
    const on = servicesOn(settings);
    this.ctx.storage.transactionSync(() => {
      store.dropServicesOff(this.sql, on);
      for (const { jobId, known, closeAt } of store.closedPages(this.sql, now, CLOSED_PER_RUN)) {
        // Its page answers 410 from its closeDate on; the cron's job.expired comes later and finds it gone.
        const closed = { ...known, shown: false };
        this.notify(jobId, known, closed, on, now);
        store.savePage(this.sql, jobId, { ...closed, closeAt }, now);
      }
      store.prune(this.sql, now);
    });
    if (settings.indexNow) await this.sendIndexNow(settings as ReachSettings & { indexNow: IndexNowSettings; origin: string }, now);
    if (settings.google) await this.sendGoogle(settings as ReachSettings & { google: GoogleSettings; origin: string }, now);
    await this.schedule(now);
  }

  /** The notices a change of a page makes, merged into those waiting, for every service on. */
  private notify(jobId: number, known: KnownPage | null, next: Pick<PageChange, "shown" | "paths" | "digest">, on: Service[], now: number): void {
    const notices = noticesOf(known, next, store.pendingPathsOf(this.sql, jobId));
    for (const service of on) {
      for (const notice of notices) {
        const merged = mergeNotice(store.waitingNotice(this.sql, service, notice.path), notice);
        if (merged) store.putWaiting(this.sql, service, notice.path, jobId, merged, now, now + GATHERING_MS);
        else store.dropWaiting(this.sql, service, notice.path);
      }
    }
  }

  /** IndexNow: every due address in requests of up to 10 000; no quota. */
  private async sendIndexNow(settings: ReachSettings & { indexNow: IndexNowSettings; origin: string }, now: number): Promise<void> {
    for (let request = 0; request < INDEXNOW_PER_RUN; request++) {
      const due = store.dueNotices(this.sql, "indexnow", now, INDEXNOW_URLS_PER_REQUEST);
      if (due.length === 0) return;
      const answer = await submitUrls(settings.indexNow, due.map((notice) => settings.origin + notice.path));
      this.ctx.storage.transactionSync(() => {
        for (const notice of due) this.settle(settings.origin, notice, answer, now);
      });
      console.log(JSON.stringify({ level: "info", message: "reach sent", service: "indexnow", urls: due.length, status: answer.status, detail: answer.detail || undefined }));
      if (due.length < INDEXNOW_URLS_PER_REQUEST) return;
    }
  }

  /** Google: one POST per address, within the day's quota (deletions first, then the oldest); the rest waits for the next UTC day. */
  private async sendGoogle(settings: ReachSettings & { google: GoogleSettings; origin: string }, now: number): Promise<void> {
    const room = settings.google.dailyQuota - this.quotaUsed(now);
    if (room <= 0) return;
    const due = store.dueNotices(this.sql, "google", now, Math.min(room, GOOGLE_PER_RUN));
    if (due.length === 0) return;
    let token: AccessToken;
    try {
      token = await this.accessToken(settings.google, now);
    } catch (error) {
      const status = error instanceof TokenError ? error.status : 0;
      const retryAfter = error instanceof TokenError ? error.retryAfter : null;
      console.error(JSON.stringify({ level: "error", message: "reach token refused", status, error: String(error) }));
      // The token's failure is every notice's: a 429/5xx waits and tries again, another 4xx (a key Google refuses) gives them up.
      this.ctx.storage.transactionSync(() => {
        for (const notice of due) this.settle(settings.origin, notice, { status, retryAfter, detail: "token" }, now);
      });
      return;
    }
    for (let i = 0; i < due.length; i += GOOGLE_AT_ONCE) {
      const group = due.slice(i, i + GOOGLE_AT_ONCE);
      const answers = await Promise.all(group.map((notice) => publish(settings.google, token.token, settings.origin + notice.path, notice.type)));
      this.ctx.storage.transactionSync(() => {
        // Every request Google answered counts against the day's quota, whatever the answer: never past it.
        this.countQuota(now, answers.filter((answer) => answer.status !== 0).length);
        group.forEach((notice, j) => this.settle(settings.origin, notice, answers[j], now));
      });
      // A token Google no longer takes is not reused.
      if (answers.some((answer) => answer.status === 401)) store.deleteMeta(this.sql, TOKEN);
      for (const [j, answer] of answers.entries()) {
        console.log(JSON.stringify({ level: "info", message: "reach sent", service: "google", url: settings.origin + group[j].path, type: group[j].type, status: answer.status, detail: answer.detail || undefined }));
      }
    }
  }

  /** A notice's outcome: done (2xx), tried again later (429, 5xx, no answer), or refused for good (any other 4xx); logged either way. */
  private settle(origin: string, notice: store.Waiting, answer: { status: number; retryAfter: string | null; detail?: string }, now: number): void {
    const attempt = notice.attempts + 1;
    const base = { at: now, service: notice.service, url: origin + notice.path, type: notice.type, status: answer.status || null, attempt };
    if (answer.status >= 200 && answer.status < 300) {
      store.finishNotice(this.sql, notice);
      store.logSend(this.sql, { ...base, outcome: "sent" });
    } else if (isRetryable(answer.status) && attempt < MAX_ATTEMPTS) {
      store.retryNotice(this.sql, notice, now + backoffMs(attempt, retryAfterOf(answer.retryAfter)));
      store.logSend(this.sql, { ...base, outcome: "retry" });
    } else {
      store.finishNotice(this.sql, notice);
      store.logSend(this.sql, { ...base, outcome: isRetryable(answer.status) ? "gave-up" : "rejected" });
    }
  }

  /** The cached token while it has more than a minute left (DESIGN 24a), else a new one, cached. */
  private async accessToken(settings: GoogleSettings, now: number): Promise<AccessToken> {
    const cached = store.readMeta<AccessToken>(this.sql, TOKEN);
    if (isFresh(cached, settings, now)) return cached;
    const token = await requestToken(settings, now);
    store.writeMeta(this.sql, TOKEN, token);
    return token;
  }

  private quotaUsed(now: number): number {
    const quota = store.readMeta<{ day: string; used: number }>(this.sql, QUOTA);
    return quota && quota.day === utcDayOf(now) ? quota.used : 0;
  }

  private countQuota(now: number, requests: number): void {
    if (requests) store.writeMeta(this.sql, QUOTA, { day: utcDayOf(now), used: this.quotaUsed(now) + requests });
  }

  /**
   * The next alarm: the first notice due (Google's, once its quota is spent, not before the next
   * UTC day), or the first shown page to close; none when nothing waits.
   */
  private async schedule(now: number): Promise<void> {
    const settings = reachSettings(this.env);
    const times: number[] = [];
    const indexNow = store.nextDue(this.sql, "indexnow");
    if (indexNow !== null) times.push(indexNow);
    const google = store.nextDue(this.sql, "google");
    if (google !== null) times.push(settings.google && this.quotaUsed(now) >= settings.google.dailyQuota ? Math.max(google, nextUtcDay(now)) : google);
    const close = store.nextClose(this.sql);
    if (close !== null) times.push(close);
    if (times.length === 0) return this.ctx.storage.deleteAlarm();
    const at = Math.max(Math.min(...times), Date.now());
    // Computed from everything stored, so it replaces whatever alarm was set before.
    if ((await this.ctx.storage.getAlarm()) !== at) await this.ctx.storage.setAlarm(at);
  }
}
