CREATE TABLE `shard_identity` (
	`id` integer PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	CONSTRAINT "shard_identity_one_row" CHECK("shard_identity"."id" = 1),
	CONSTRAINT "shard_identity_shard" CHECK("shard_identity"."shard" >= 0)
);
