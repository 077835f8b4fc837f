-- DESIGN 22: events get a recording order (seq, AUTOINCREMENT) for their shard's relay, which
-- replaces dispatched_at. Existing events keep their order (rowid, the order they were written).
CREATE TABLE `__new_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`type` text NOT NULL,
	`employer_id` integer NOT NULL,
	`subject_id` integer NOT NULL,
	`revision` integer,
	`occurred_at` integer NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_events`("id", "type", "employer_id", "subject_id", "revision", "occurred_at", "data") SELECT "id", "type", "employer_id", "subject_id", "revision", "occurred_at", "data" FROM `events` ORDER BY rowid;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
ALTER TABLE `__new_events` RENAME TO `events`;--> statement-breakpoint
CREATE UNIQUE INDEX `events_id_unique` ON `events` (`id`);--> statement-breakpoint
CREATE INDEX `events_occurred_idx` ON `events` (`occurred_at`);
