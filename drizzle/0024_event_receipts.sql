CREATE TABLE `webhook_receipts` (
	`shard` integer NOT NULL,
	`event_id` text NOT NULL,
	`taken_at` integer NOT NULL,
	PRIMARY KEY(`shard`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `webhook_receipts_taken_idx` ON `webhook_receipts` (`taken_at`);