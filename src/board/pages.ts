import type { Env } from "../env";
import { createBoardDatabase } from "./database/client";
import { boardJob, boardJobCount, boardJobShards, boardSitemapPage, boardSitemapStarts, wasListed } from "./database/reads";
import { boardItemJson, toBoardJob } from "./representation";
import { decodeCursor, encodeCursor, ftsQuery, wordsOf } from "./rules";
import { searchBoard } from "./search";

// The board's public functions for its web pages (DESIGN 18): what they read of BOARD_DB, and
// nothing else reaches it.

export type BoardJob = ReturnType<typeof toBoardJob>;

/**
 * A job's page: open (on the board now, with the shard a write to it goes to), gone (listed
 * once: archived, expired or deleted), or unknown.
 */
export async function boardJobForPage(
  env: Pick<Env, "BOARD_DB">,
  jobId: number,
  nowSeconds: number,
): Promise<{ state: "open"; job: BoardJob; shard: number; employerId: number } | { state: "gone" } | { state: "unknown" }> {
  const db = createBoardDatabase(env.BOARD_DB.withSession("first-unconstrained"));
  const row = await boardJob(db, jobId, nowSeconds);
  if (row) return { state: "open", job: toBoardJob(row), shard: row.shard, employerId: row.employerId };
  return (await wasListed(db, jobId)) ? { state: "gone" } : { state: "unknown" };
}

/** A search of the board's pages (DESIGN 18): the API's filters, by place id once resolved. */
export interface PageSearch {
  q?: string;
  near?: { placeId: number; radiusKm: number };
  locationId?: number;
  provinceCode?: string;
  categoryId?: number;
  positionTypeId?: number;
  salaryMin?: number;
  /** A previous page's `next`; an unreadable one starts from the newest. */
  cursor?: string;
}

/** A list item as the board API shows it (DESIGN 14), with its distance in a radius search. */
export interface BoardListItem {
  id: number;
  title: string | null;
  employer: { id: number; name: string } | null;
  publishDate: string;
  closeDate: string;
  locations: { id: number | null; name: string; description: string; type: string }[];
  categories: { id: number; name: string }[];
  positionType: { id: number; name: string } | null;
  salary: { amount: number; maxAmount: number | null; type: { id: number; name: string; unit: string }; plusCommission: boolean } | null;
  summary: string;
  distanceKm?: number;
}

/** A page of the board, newest first, and the cursor of the next one (null at the end). */
export async function searchBoardForPage(
  env: Pick<Env, "BOARD_DB">,
  search: PageSearch,
  pageSize: number,
  nowSeconds: number,
): Promise<{ items: BoardListItem[]; next: string | null }> {
  const db = createBoardDatabase(env.BOARD_DB.withSession("first-unconstrained"));
  const words = wordsOf(search.q);
  const after = search.cursor === undefined ? null : decodeCursor(search.cursor);
  const rows = await searchBoard(
    db,
    {
      match: words.length ? ftsQuery(words) : null,
      locationId: search.locationId,
      provinceCode: search.provinceCode,
      categoryId: search.categoryId,
      positionTypeId: search.positionTypeId,
      salaryMin: search.salaryMin,
      near: search.near,
    },
    after,
    pageSize + 1,
    nowSeconds,
  );
  const page = rows.slice(0, pageSize);
  return {
    items: page.map((row) => JSON.parse(boardItemJson(row, "")) as BoardListItem),
    next: rows.length > pageSize ? encodeCursor(page[page.length - 1].seq) : null,
  };
}

/** DESIGN 18: jobs per sitemap file (each gives its English and French page: 50 000 addresses). */
export const SITEMAP_JOBS = 25_000;

/**
 * The sitemap's files: null while the board's jobs fit in one (the sitemap is then that file),
 * else the first job id of each file's range, for the sitemap index to name.
 */
export async function sitemapFiles(env: Pick<Env, "BOARD_DB">): Promise<number[] | null> {
  const db = createBoardDatabase(env.BOARD_DB.withSession("first-unconstrained"));
  if ((await boardJobCount(db)) <= SITEMAP_JOBS) return null;
  return boardSitemapStarts(db, SITEMAP_JOBS);
}

/** DESIGN 18a: the open jobs of the sitemap file whose range starts at `fromJobId` (the whole sitemap from 1). */
export function sitemapJobs(env: Pick<Env, "BOARD_DB">, fromJobId: number, nowSeconds: number) {
  const db = createBoardDatabase(env.BOARD_DB.withSession("first-unconstrained"));
  return boardSitemapPage(db, fromJobId, SITEMAP_JOBS, nowSeconds);
}

/** DESIGN 22: where the board says a job lives: its shard, and its employer while the job is on the board. */
export interface JobHome {
  shard: number;
  employerId: number | null;
}

/**
 * DESIGN 22: the employer-side shard of each of these jobs, from the board's own record of them,
 * so that a public write finds its shard without trying them all. A job the board never heard of
 * is absent.
 */
export async function shardsOfBoardJobs(env: Pick<Env, "BOARD_DB">, jobIds: number[]): Promise<Map<number, JobHome>> {
  const db = createBoardDatabase(env.BOARD_DB.withSession("first-unconstrained"));
  return new Map((await boardJobShards(db, jobIds)).map(({ jobId, shard, employerId }) => [jobId, { shard, employerId }]));
}
