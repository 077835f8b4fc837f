CREATE TABLE `idempotency_keys` (
	`employer_id` integer NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`holder` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_location` text,
	`response_body` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`employer_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
DROP INDEX `locations_place_unique`;--> statement-breakpoint
ALTER TABLE `locations` ADD `owner_employer_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `locations_owner_place_unique` ON `locations` (`owner_employer_id`,`name_key`,`province_code`,`type`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `revision` integer DEFAULT 1 NOT NULL;