// DESIGN 22: the stages of moving an employer between shards (src/shards/move.ts), in order. Each
// is recorded in the source shard's shard_moves row once complete. No imports: the shards command
// runs this in Node as it is.

export const MOVE_STAGES = ["frozen", "copied", "verified", "flipped", "keys", "done"] as const;

export type MoveStage = (typeof MOVE_STAGES)[number];
