CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`employer_id` integer NOT NULL,
	`subject_id` integer NOT NULL,
	`revision` integer,
	`occurred_at` integer NOT NULL,
	`data` text NOT NULL,
	`dispatched_at` integer
);
--> statement-breakpoint
CREATE INDEX `events_undispatched_idx` ON `events` (`occurred_at`) WHERE "events"."dispatched_at" IS NULL;--> statement-breakpoint
CREATE INDEX `events_occurred_idx` ON `events` (`occurred_at`);--> statement-breakpoint
ALTER TABLE `webhook_messages` ADD `event_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_messages_event_endpoint_unique` ON `webhook_messages` (`event_id`,`endpoint_id`);