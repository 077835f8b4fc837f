ALTER TABLE `board_revisions` ADD `listed` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- The jobs on the board now were listed; those that left it before this migration are not known.
UPDATE `board_revisions` SET `listed` = 1 WHERE `job_id` IN (SELECT `job_id` FROM `board_jobs`);
