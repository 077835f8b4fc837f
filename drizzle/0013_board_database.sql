-- The board moves to a database of its own (DESIGN 17, BOARD_DB): its word index over titles and
-- its index of active jobs by publishDate are no longer read here, and no longer cost every write.
DROP TRIGGER IF EXISTS board_search_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS board_search_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS board_search_update;
--> statement-breakpoint
DROP TABLE IF EXISTS board_search;
--> statement-breakpoint
DROP INDEX IF EXISTS jobs_board_idx;
--> statement-breakpoint
-- The board's repair by the cron reads the jobs that should be on the board from this index alone.
CREATE INDEX `jobs_visible_idx` ON `jobs` (`id`,`revision`,`close_date`,`updated_at`) WHERE "jobs"."status" = 'active';
