import type { Env } from "../env";
import { createBoardDatabase } from "./database/client";
import { boardJob, wasListed } from "./database/reads";
import { toBoardJob } from "./representation";

// The board's public functions for its web pages (DESIGN 18): what they read of BOARD_DB, and
// nothing else reaches it.

export type BoardJob = ReturnType<typeof toBoardJob>;

/** A job's page: open (on the board now), gone (listed once: archived, expired or deleted), or unknown. */
export async function boardJobForPage(
  env: Pick<Env, "BOARD_DB">,
  jobId: number,
  nowSeconds: number,
): Promise<{ state: "open"; job: BoardJob } | { state: "gone" } | { state: "unknown" }> {
  const db = createBoardDatabase(env.BOARD_DB.withSession("first-unconstrained"));
  const row = await boardJob(db, jobId, nowSeconds);
  if (row) return { state: "open", job: toBoardJob(row) };
  return (await wasListed(db, jobId)) ? { state: "gone" } : { state: "unknown" };
}
