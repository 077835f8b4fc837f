CREATE INDEX `employers_name_search_idx` ON `employers` ("name" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `job_reports_job_idx` ON `job_reports` (`job_id`,`created_at`);