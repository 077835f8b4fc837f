-- DESIGN 22b: the shards command no longer moves employers itself (it asks the Worker through the
-- operator's routes, src/operator/moves.tsx), so the record of its moves goes.
DROP TABLE `shard_moves`;
