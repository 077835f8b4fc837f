CREATE TABLE `webhook_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`employer_id` integer NOT NULL,
	`endpoint_id` integer NOT NULL,
	`type` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`data` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_status_code` integer,
	`enqueued_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_messages_endpoint_log_idx` ON `webhook_messages` (`endpoint_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_messages_due_idx` ON `webhook_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_messages_created_idx` ON `webhook_messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employer_id` integer NOT NULL,
	`url` text NOT NULL,
	`events` text DEFAULT '[]' NOT NULL,
	`description` text,
	`enabled` integer DEFAULT true NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_until` integer,
	`failing_since` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`employer_id`) REFERENCES `employers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhook_endpoints_enabled" CHECK("webhook_endpoints"."enabled" IN (0, 1))
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_employer_idx` ON `webhook_endpoints` (`employer_id`);