CREATE TABLE `alert_receipts` (
	`shard` integer NOT NULL,
	`event_id` text NOT NULL,
	`taken_at` integer NOT NULL,
	PRIMARY KEY(`shard`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `alert_receipts_taken_idx` ON `alert_receipts` (`taken_at`);