CREATE TABLE `applications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`employer_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`cover_letter` text,
	`received_at` integer NOT NULL,
	`resume_key` text,
	`resume_filename` text,
	`resume_type` text,
	`resume_size` integer,
	`email_status` text DEFAULT 'pending' NOT NULL,
	`email_attempts` integer DEFAULT 0 NOT NULL,
	`email_sent_at` integer,
	`email_next_attempt_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `applications_job_idx` ON `applications` (`job_id`,`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `applications_received_idx` ON `applications` (`received_at`);--> statement-breakpoint
CREATE INDEX `applications_email_due_idx` ON `applications` (`email_status`,`email_next_attempt_at`);--> statement-breakpoint
CREATE TABLE `resume_deletions` (
	`key` text PRIMARY KEY NOT NULL
);
