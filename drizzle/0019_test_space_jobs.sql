DROP INDEX `jobs_visible_idx`;--> statement-breakpoint
ALTER TABLE `jobs` ADD `test` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `jobs_visible_idx` ON `jobs` (`id`,`revision`,`close_date`,`updated_at`) WHERE "jobs"."status" = 'active' AND "jobs"."test" = 0;--> statement-breakpoint
-- DESIGN 21: a job inserted for an employer's test space is a test job. Live inserts pay one
-- lookup of their employer by primary key; the UPDATE touches no column other triggers watch.
CREATE TRIGGER jobs_test_space AFTER INSERT ON jobs
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND test_of IS NOT NULL) BEGIN
  UPDATE jobs SET test = 1 WHERE id = NEW.id;
END;
