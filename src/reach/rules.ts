import { isOnBoard } from "../board/projection";
import type { JobRow } from "../jobs/repository";
import { jobPath } from "../ui/paths";

// DESIGN 24, 24a: the pure rules of reach — what a search engine sees of a job page, which
// addresses a change concerns and how, how changes of one page within a gathering minute merge,
// when a failed send is tried again, and the Google quota's day. No I/O.

export type NoticeType = "URL_UPDATED" | "URL_DELETED";

/** Changes of one page are gathered this long from the first (DESIGN 24a: at most one send per page per minute). */
export const GATHERING_MS = 60_000;

/**
 * A job's page as one change left it, as the consumer hands it to the notifier. `paths` are the
 * English and French canonical addresses (without the origin), `digest` a hash of what a search
 * engine shows of the page (shownFacts).
 */
export interface PageChange {
  jobId: number;
  revision: number;
  /** job.deleted: the job is gone for good. */
  deleted: boolean;
  /** A job of an employer's test space: never stored, never sent (DESIGN 21). */
  test: boolean;
  /** On the board (active, open, not a test job), so its page answers 200. */
  shown: boolean;
  paths: string[];
  digest: string | null;
  /** When the job leaves the board by its closeDate (ms): its page answers 410 from then on. */
  closeAt: number;
}

/** What the notifier last gathered of a page. */
export interface KnownPage {
  revision: number;
  deleted: boolean;
  shown: boolean;
  paths: string[];
  digest: string | null;
}

/** One address to tell the search engines about; `wasShown`: they may know it from before this change. */
export interface Notice {
  path: string;
  type: NoticeType;
  wasShown: boolean;
}

/** The page addresses of a job: English, then French (the French title when the job has one), as the pages serve them. */
export function pathsOf(row: Pick<JobRow, "id" | "title" | "translations">): string[] {
  const french = row.translations ? (JSON.parse(row.translations) as { fr?: { title?: string | null } }).fr?.title : null;
  return [jobPath("en", row.id, row.title), jobPath("fr", row.id, french ?? row.title)];
}

/**
 * What a search engine shows of a job's page (its JobPosting and visible text): title,
 * description, pay, places, dates, and the few other members the JobPosting carries (position
 * type, employer or confidential, how to apply, the French version). A change of anything else
 * (referenceId, screening questions, the application email, the posting rules' settings) sends
 * nothing.
 */
export function shownFacts(row: JobRow): string {
  const places = (JSON.parse(row.locations) as { name: string; description: string; type: string }[]).map((place) => [place.name, place.description, place.type]);
  const categories = (JSON.parse(row.categories) as { id: number }[]).map((category) => category.id);
  return JSON.stringify([
    row.title,
    row.description,
    row.translations,
    [row.salaryAmount, row.salaryMaxAmount, row.salaryTypeId, row.salaryPlusCommission],
    places,
    [row.publishDate, row.closeDate],
    row.positionTypeId,
    categories,
    row.confidential ? null : row.employerName,
    [row.routingTypeId, row.applicationUrl],
  ]);
}

/** The page a change leaves (without its digest, which the caller hashes from shownFacts). */
export function pageOf(jobId: number, revision: number, row: JobRow | null, nowSeconds: number): Omit<PageChange, "digest"> & { facts: string | null } {
  if (!row) return { jobId, revision, deleted: true, test: false, shown: false, paths: [], facts: null, closeAt: 0 };
  return { jobId, revision, deleted: false, test: Boolean(row.test), shown: isOnBoard(row, nowSeconds), paths: pathsOf(row), facts: shownFacts(row), closeAt: row.closeDate * 1000 };
}

/** Whether `next` is news to the notifier: a later revision, or the deletion; nothing after a deletion. */
export const isNewer = (known: KnownPage | null, next: Pick<PageChange, "revision" | "deleted">) =>
  !known || (!known.deleted && (next.deleted || next.revision > known.revision));

/**
 * The notices one change of a page makes, given what the notifier knew of it and the addresses
 * of the job still waiting to be sent (`pendingPaths`).
 * - Appeared, or changed what a search engine shows: URL_UPDATED for its addresses.
 * - Its title changed (so did its slug): the old addresses now answer 301 to the new ones, and
 *   are sent as URL_UPDATED too, so that the engines crawl them, follow the redirect and drop
 *   them for the new ones (a URL_DELETED would claim a page gone that still leads to the job).
 * - Left the board (archived, expired, deleted, hidden): URL_DELETED for every address it was
 *   announced at, and for any of its addresses still waiting.
 * - Anything else: nothing.
 */
export function noticesOf(known: KnownPage | null, next: Pick<PageChange, "shown" | "paths" | "digest">, pendingPaths: string[] = []): Notice[] {
  const before = known?.shown ? known.paths : [];
  if (next.shown) {
    const samePaths = before.length === next.paths.length && before.every((path, i) => path === next.paths[i]);
    if (known?.shown && samePaths && known.digest === next.digest) return [];
    const moved = before.filter((path) => !next.paths.includes(path));
    return [
      ...next.paths.map((path) => ({ path, type: "URL_UPDATED" as const, wasShown: before.includes(path) })),
      ...moved.map((path) => ({ path, type: "URL_UPDATED" as const, wasShown: true })),
    ];
  }
  const leaving = [...new Set([...before, ...pendingPaths])];
  return leaving.map((path) => ({ path, type: "URL_DELETED" as const, wasShown: before.includes(path) }));
}

/**
 * A notice merged into the one already waiting for the same address and service (DESIGN 24a:
 * gathered, the latest state wins). Whether the engines may know the page is what it was before
 * the first waiting change; a page they never heard of that appears and leaves within the
 * wait is not sent at all (null).
 */
export function mergeNotice(waiting: { type: NoticeType; wasShown: boolean } | null, incoming: Notice): { type: NoticeType; wasShown: boolean } | null {
  const wasShown = waiting ? waiting.wasShown : incoming.wasShown;
  if (incoming.type === "URL_DELETED" && !wasShown) return null;
  return { type: incoming.type, wasShown };
}

/** 429 and 5xx (and no answer at all: status 0) are tried again; any other 4xx never (DESIGN 24). */
export const isRetryable = (status: number) => status === 0 || status === 429 || status >= 500;

/** A notice is given up after this many failed tries (about 7 hours with the delays below). */
export const MAX_ATTEMPTS = 12;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;

/** The wait before try `attempts + 1`: 30 s, doubling, at most an hour; a longer Retry-After (s) is honoured, up to an hour. */
export function backoffMs(attempts: number, retryAfterSeconds?: number | null): number {
  const doubled = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
  const asked = retryAfterSeconds && retryAfterSeconds > 0 ? Math.min(retryAfterSeconds * 1000, LONGEST_RETRY_MS) : 0;
  return Math.max(doubled, asked);
}

/** Google's quota is per UTC day (DESIGN 24: 200 by default). */
export const utcDayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The start of the UTC day after `ms`. */
export function nextUtcDay(ms: number): number {
  const day = new Date(ms);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
}

/** A Retry-After header's seconds (the HTTP-date form is rare for these services: ignored). */
export function retryAfterOf(header: string | null): number | null {
  const seconds = header ? Number(header) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}
