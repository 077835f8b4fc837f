CREATE TABLE `board_receipts` (
	`shard` integer NOT NULL,
	`event_id` text NOT NULL,
	`taken_at` integer NOT NULL,
	PRIMARY KEY(`shard`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `board_receipts_taken_idx` ON `board_receipts` (`taken_at`);