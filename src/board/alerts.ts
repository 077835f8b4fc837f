import type { Env } from "../env";
import type { JobRow } from "../jobs/repository";
import { sql } from "drizzle-orm";
import { all, createBoardDatabase } from "./database/client";
import { loadGazetteer } from "./database/places";
import { boardJobShards } from "./database/reads";
import { isOnBoard, projectJob, type BoardEntry } from "./projection";

// The board's public functions for job alerts (DESIGN 23): alerts judge a job's visibility and
// its searchable facts exactly as the board does, through here, and never read BOARD_DB's tables.

export type { BoardEntry };

/** The job as the board would show it after this change, or null when the change takes it off the board. */
export async function boardEntryOf(env: Pick<Env, "BOARD_DB">, row: JobRow | null, nowSeconds: number): Promise<BoardEntry | null> {
  if (!row || !isOnBoard(row, nowSeconds)) return null;
  return projectJob(row, await loadGazetteer(createBoardDatabase(env.BOARD_DB)));
}

/**
 * A radius search's centre: the point of a public place with coordinates (not a province: an area),
 * with its province, or null, as the board's search judges `near` (src/board/database/places.ts).
 */
export async function searchCentreOf(env: Pick<Env, "BOARD_DB">, placeId: number): Promise<{ latitude: number; longitude: number; provinceCode: string } | null> {
  const rows = await all<{ latitude: number; longitude: number; provinceCode: string }>(
    createBoardDatabase(env.BOARD_DB.withSession("first-unconstrained")),
    sql`SELECT latitude, longitude, province_code AS provinceCode FROM board_places WHERE id = ${placeId} AND type <> 'Province' AND latitude IS NOT NULL`,
  );
  return rows[0] ?? null;
}

/** Of these jobs, those on the board now (one read): an alert email holds no other. */
export async function jobsOnBoard(env: Pick<Env, "BOARD_DB">, jobIds: number[]): Promise<Set<number>> {
  const rows = await boardJobShards(createBoardDatabase(env.BOARD_DB.withSession("first-unconstrained")), jobIds);
  return new Set(rows.filter((row) => row.employerId !== null).map((row) => row.jobId));
}
