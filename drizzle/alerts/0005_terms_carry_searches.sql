-- The reverse-search index carries what the check needs of each alert (its search and point), so a
-- job's candidates are read from one covering index and never from the alerts table. Made again
-- (SQLite adds no NOT NULL column to a table), filled from the alerts filed in it: active ones only.
CREATE TABLE `__new_alert_terms` (
	`term` text NOT NULL,
	`alert_id` integer NOT NULL,
	`search` text NOT NULL,
	`near_latitude` real,
	`near_longitude` real,
	PRIMARY KEY(`term`, `alert_id`)
);
--> statement-breakpoint
INSERT INTO `__new_alert_terms` (`term`, `alert_id`, `search`, `near_latitude`, `near_longitude`)
	SELECT t.`term`, t.`alert_id`, a.`search`, a.`near_latitude`, a.`near_longitude` FROM `alert_terms` t JOIN `alerts` a ON a.`id` = t.`alert_id` WHERE a.`status` = 'active';
--> statement-breakpoint
DROP TABLE `alert_terms`;--> statement-breakpoint
ALTER TABLE `__new_alert_terms` RENAME TO `alert_terms`;--> statement-breakpoint
CREATE INDEX `alert_terms_alert_idx` ON `alert_terms` (`alert_id`);--> statement-breakpoint
CREATE INDEX `alert_terms_match_idx` ON `alert_terms` (`term`,`alert_id`,`near_latitude`,`near_longitude`,`search`);
