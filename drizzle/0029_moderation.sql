-- DESIGN 26: trust and safety. A job an operator removed (jobs.moderation_*), an employer suspended
-- (employers.suspended_at: its writes refused by the guard below, its jobs left out of what the
-- board's reads and repair see, through jobs_visible_idx), reports resolved (job_reports.resolved_at)
-- and the queue of the open ones (job_report_tallies), and an applicant's data erased on request
-- (applications.erased_at, found by address through applications_email_idx).
CREATE TABLE `job_report_tallies` (
	`job_id` integer PRIMARY KEY NOT NULL,
	`open` integer NOT NULL,
	`latest_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `job_report_tallies_queue_idx` ON `job_report_tallies` (`open`,`latest_at`);--> statement-breakpoint
DROP INDEX `jobs_visible_idx`;--> statement-breakpoint
ALTER TABLE `jobs` ADD `moderation_status` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `moderation_reason` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `moderation_at` integer;--> statement-breakpoint
CREATE INDEX `jobs_visible_idx` ON `jobs` (`id`,`revision`,`close_date`,`updated_at`,`employer_id`) WHERE "jobs"."status" = 'active' AND "jobs"."test" = 0;--> statement-breakpoint
ALTER TABLE `employers` ADD `suspended_at` integer;--> statement-breakpoint
CREATE INDEX `employers_suspended_idx` ON `employers` (`id`) WHERE "employers"."suspended_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `applications` ADD `erased_at` integer;--> statement-breakpoint
CREATE INDEX `applications_email_idx` ON `applications` ("email" COLLATE NOCASE,`id`);--> statement-breakpoint
ALTER TABLE `job_reports` ADD `resolved_at` integer;--> statement-breakpoint
ALTER TABLE `job_reports` ADD `resolution` text;
--> statement-breakpoint
-- The queue's tallies follow the open reports, whoever writes them (a report from the board's form,
-- the operator's acts, a move's copy and delete, the retention): one row per job with an open report.
CREATE TRIGGER job_reports_tally_insert AFTER INSERT ON job_reports WHEN NEW.resolved_at IS NULL BEGIN
  INSERT OR IGNORE INTO job_report_tallies (job_id, open, latest_at) VALUES (NEW.job_id, 0, NEW.created_at);
  UPDATE job_report_tallies SET open = open + 1, latest_at = max(latest_at, NEW.created_at) WHERE job_id = NEW.job_id;
END;
--> statement-breakpoint
CREATE TRIGGER job_reports_tally_resolve AFTER UPDATE OF resolved_at ON job_reports WHEN OLD.resolved_at IS NULL AND NEW.resolved_at IS NOT NULL BEGIN
  UPDATE job_report_tallies SET open = open - 1 WHERE job_id = OLD.job_id;
  DELETE FROM job_report_tallies WHERE job_id = OLD.job_id AND open <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER job_reports_tally_reopen AFTER UPDATE OF resolved_at ON job_reports WHEN OLD.resolved_at IS NOT NULL AND NEW.resolved_at IS NULL BEGIN
  INSERT OR IGNORE INTO job_report_tallies (job_id, open, latest_at) VALUES (NEW.job_id, 0, NEW.created_at);
  UPDATE job_report_tallies SET open = open + 1, latest_at = max(latest_at, NEW.created_at) WHERE job_id = NEW.job_id;
END;
--> statement-breakpoint
CREATE TRIGGER job_reports_tally_delete AFTER DELETE ON job_reports WHEN OLD.resolved_at IS NULL BEGIN
  UPDATE job_report_tallies SET open = open - 1 WHERE job_id = OLD.job_id;
  DELETE FROM job_report_tallies WHERE job_id = OLD.job_id AND open <= 0;
END;
--> statement-breakpoint
-- Every report filed so far is open.
INSERT INTO job_report_tallies (job_id, open, latest_at) SELECT job_id, count(*), max(created_at) FROM job_reports GROUP BY job_id;
--> statement-breakpoint
-- A suspended employer's write is not stored (src/employers/suspension.ts suspensionGuard): 403.
CREATE TRIGGER write_guard_suspended INSTEAD OF INSERT ON write_guards
WHEN NOT NEW.passed AND NEW.reason = 'suspended' BEGIN
  SELECT RAISE(ABORT, 'write_guard:suspended');
END;
