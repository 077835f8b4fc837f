CREATE TABLE `alert_address_days` (
	`email_key` text NOT NULL,
	`day` integer NOT NULL,
	`confirmations` integer NOT NULL,
	PRIMARY KEY(`email_key`, `day`)
);
--> statement-breakpoint
CREATE TABLE `alert_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`alert_id` integer NOT NULL,
	`at` integer NOT NULL,
	`change` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `alert_changes_alert_idx` ON `alert_changes` (`alert_id`,`id`);--> statement-breakpoint
CREATE TABLE `alert_matches` (
	`alert_id` integer NOT NULL,
	`job_id` integer NOT NULL,
	`matched_at` integer NOT NULL,
	`card` text NOT NULL,
	`employer_id` integer NOT NULL,
	`publish_date` integer NOT NULL,
	`close_date` integer NOT NULL,
	`gone` integer DEFAULT false NOT NULL,
	`send_id` integer,
	PRIMARY KEY(`alert_id`, `job_id`)
);
--> statement-breakpoint
CREATE INDEX `alert_matches_job_idx` ON `alert_matches` (`job_id`);--> statement-breakpoint
CREATE INDEX `alert_matches_unsent_idx` ON `alert_matches` (`alert_id`,`publish_date`) WHERE "alert_matches"."send_id" IS NULL;--> statement-breakpoint
CREATE TABLE `alert_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`alert_id` integer NOT NULL,
	`period` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`jobs` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_sends_period_idx` ON `alert_sends` (`alert_id`,`period`);--> statement-breakpoint
CREATE INDEX `alert_sends_pending_idx` ON `alert_sends` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `alert_terms` (
	`term` text NOT NULL,
	`alert_id` integer NOT NULL,
	PRIMARY KEY(`term`, `alert_id`)
);
--> statement-breakpoint
CREATE INDEX `alert_terms_alert_idx` ON `alert_terms` (`alert_id`);--> statement-breakpoint
CREATE TABLE `alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`email_key` text NOT NULL,
	`status` text NOT NULL,
	`language` text NOT NULL,
	`frequency` text NOT NULL,
	`hour` integer NOT NULL,
	`weekday` text NOT NULL,
	`time_zone` text NOT NULL,
	`search` text NOT NULL,
	`place_name` text,
	`near_latitude` real,
	`near_longitude` real,
	`origin` text NOT NULL,
	`token_nonce` text NOT NULL,
	`confirm_hash` text NOT NULL,
	`manage_hash` text NOT NULL,
	`feed_hash` text NOT NULL,
	`due_at` integer,
	`last_sent_at` integer,
	`renewed_at` integer,
	`keep_asked_at` integer,
	`consent_text_version` text NOT NULL,
	`consent_text_sha256` text NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	`client_address` text,
	`user_agent` text,
	`confirmed_at` integer,
	`ended_at` integer
);
--> statement-breakpoint
CREATE INDEX `alerts_email_idx` ON `alerts` (`email_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_confirm_idx` ON `alerts` (`confirm_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_manage_idx` ON `alerts` (`manage_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_feed_idx` ON `alerts` (`feed_hash`);--> statement-breakpoint
CREATE INDEX `alerts_due_idx` ON `alerts` (`due_at`) WHERE "alerts"."status" = 'active' AND "alerts"."due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `alerts_status_idx` ON `alerts` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `alerts_renewed_idx` ON `alerts` (`renewed_at`) WHERE "alerts"."status" IN ('active', 'paused');