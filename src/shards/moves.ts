import type { Env } from "../env";
import { bindingsOf, isShard } from "./bindings";
import { MoveRefused } from "./move";
import type { MoveStatus } from "./move-status";

// DESIGN 22b: moving an employer between shards, as the operator's routes ask it
// (POST /operator/shards/moves, GET /operator/shards/moves/{employerId}, src/operator/moves.tsx)
// and `npm run shards -- move` through them. The move itself runs in its Durable Object (src/shards/employer-move.ts): these
// only start it and read how it goes; neither waits for it.

export { MoveRefused } from "./move";
export type { MoveStatus } from "./move-status";

const moverOf = (env: Env, employerId: number) => {
  const { MOVES } = bindingsOf(env);
  return MOVES.get(MOVES.idFromName(`employer:${employerId}`));
};

/**
 * Starts moving employer `employerId` (its test space with it) to shard `to`, and answers the
 * move's status at once. Asked again for the same shard while it moves, or once it is done, it
 * answers the same move (a lost alarm started again): nothing is done twice. MoveRefused (nothing
 * changed) says why it cannot: not an employer id or no such shard, an unknown employer or a test
 * space's id, the shard it lives in, another move of it under way, its rows numbered above the
 * target's range, shards not migrated alike.
 */
export async function startMove(env: Env, request: { employerId: number; to: number }): Promise<MoveStatus> {
  const { employerId, to } = request;
  if (!Number.isSafeInteger(employerId) || employerId < 1) throw new MoveRefused("employerId must be an employer id (a whole number from 1).");
  if (!isShard(env, to)) throw new MoveRefused(`No shard ${String(to)} is bound.`);
  const answer = await moverOf(env, employerId).start(employerId, to);
  if ("refused" in answer) throw new MoveRefused(answer.refused);
  return answer;
}

/** How the Worker's move of employer `employerId` goes (its latest one); null when it never moved it. */
export async function moveProgress(env: Env, employerId: number): Promise<MoveStatus | null> {
  if (!Number.isSafeInteger(employerId) || employerId < 1) return null;
  return moverOf(env, employerId).status();
}
