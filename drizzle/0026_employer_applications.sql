-- The console's list of all the employer's applications (DESIGN 25): newest first, a page at a time,
-- by status or not, found on these indexes as a job's list is on applications_job(_status)_idx.
CREATE INDEX `applications_employer_idx` ON `applications` (`employer_id`,`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `applications_employer_status_idx` ON `applications` (`employer_id`,`status`,`received_at`,`id`);
