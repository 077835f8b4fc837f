ALTER TABLE `board_jobs` ADD `shard` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `board_jobs_shard_idx` ON `board_jobs` (`shard`,`job_id`);--> statement-breakpoint
ALTER TABLE `board_revisions` ADD `shard` integer DEFAULT 0 NOT NULL;