CREATE TABLE `job_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`reason` text NOT NULL,
	`details` text,
	`email` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `job_reports_created_idx` ON `job_reports` (`created_at`);