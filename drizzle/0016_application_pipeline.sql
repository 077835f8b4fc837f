CREATE TABLE `applicant_emails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`application_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`next_attempt_at` integer,
	`withdraw_link` text,
	FOREIGN KEY (`application_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `applicant_emails_application_idx` ON `applicant_emails` (`application_id`,`id`);--> statement-breakpoint
CREATE INDEX `applicant_emails_due_idx` ON `applicant_emails` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `application_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`application_id` integer NOT NULL,
	`status` text NOT NULL,
	`at` integer NOT NULL,
	`note` text,
	FOREIGN KEY (`application_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `application_history_application_idx` ON `application_history` (`application_id`,`id`);--> statement-breakpoint
ALTER TABLE `applications` ADD `answers` text;--> statement-breakpoint
ALTER TABLE `applications` ADD `screened_out` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `applications` ADD `status` text DEFAULT 'received' NOT NULL CONSTRAINT "applications_status_check" CHECK(`status` IN ('received', 'reviewing', 'interviewing', 'offered', 'hired', 'rejected', 'withdrawn'));--> statement-breakpoint
ALTER TABLE `applications` ADD `revision` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `applications` ADD `updated_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `applications` ADD `interviewed_at` integer;--> statement-breakpoint
ALTER TABLE `applications` ADD `decision_notice_at` integer;--> statement-breakpoint
ALTER TABLE `applications` ADD `language` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `applications` ADD `withdraw_token_hash` text;--> statement-breakpoint
ALTER TABLE `applications` ADD `withdraw_expires_at` integer;--> statement-breakpoint
CREATE INDEX `applications_job_status_idx` ON `applications` (`job_id`,`status`,`received_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `applications_withdraw_token_unique` ON `applications` (`withdraw_token_hash`) WHERE "applications"."withdraw_token_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `applications_decision_notice_idx` ON `applications` (`decision_notice_at`) WHERE "applications"."decision_notice_at" IS NOT NULL;--> statement-breakpoint
-- Applications received before the pipeline: updated when received, and their history starts there.
UPDATE `applications` SET `updated_at` = `received_at`;--> statement-breakpoint
INSERT INTO `application_history` (`application_id`, `status`, `at`, `note`) SELECT `id`, 'received', `received_at`, NULL FROM `applications`;
