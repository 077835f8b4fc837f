CREATE TABLE `board_employers` (
	`employer_id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`words` text NOT NULL,
	`named_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `board_job_categories` (
	`category_id` integer NOT NULL,
	`seq` integer NOT NULL,
	PRIMARY KEY(`category_id`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `board_job_places` (
	`seq` integer NOT NULL,
	`position` integer NOT NULL,
	`place_id` integer,
	`geo_id` integer,
	PRIMARY KEY(`seq`, `position`)
);
--> statement-breakpoint
CREATE INDEX `board_job_places_place_idx` ON `board_job_places` (`place_id`,`seq`) WHERE "board_job_places"."place_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `board_job_places_geo_idx` ON `board_job_places` (`geo_id`,`seq`) WHERE "board_job_places"."geo_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `board_job_provinces` (
	`province_code` text NOT NULL,
	`seq` integer NOT NULL,
	PRIMARY KEY(`province_code`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `board_jobs` (
	`seq` integer PRIMARY KEY NOT NULL,
	`job_id` integer NOT NULL,
	`revision` integer NOT NULL,
	`employer_id` integer NOT NULL,
	`confidential` integer NOT NULL,
	`title` text NOT NULL,
	`words` text NOT NULL,
	`publish_date` integer NOT NULL,
	`close_date` integer NOT NULL,
	`position_type_id` integer,
	`salary_year_top` real,
	`summary` text NOT NULL,
	`item` text NOT NULL,
	`job` text NOT NULL,
	`places` text NOT NULL,
	`categories` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `board_jobs_job_idx` ON `board_jobs` (`job_id`);--> statement-breakpoint
CREATE INDEX `board_jobs_employer_idx` ON `board_jobs` (`employer_id`);--> statement-breakpoint
CREATE INDEX `board_jobs_position_type_idx` ON `board_jobs` (`position_type_id`);--> statement-breakpoint
CREATE TABLE `board_places` (
	`id` integer PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`province_code` text NOT NULL,
	`latitude` real,
	`longitude` real,
	`jobs` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `board_places_coordinates_idx` ON `board_places` (`latitude`,`longitude`) WHERE "board_places"."latitude" IS NOT NULL AND "board_places"."type" <> 'Province';--> statement-breakpoint
CREATE TABLE `board_revisions` (
	`job_id` integer PRIMARY KEY NOT NULL,
	`revision` integer NOT NULL,
	`deleted` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `board_totals` (
	`id` integer PRIMARY KEY NOT NULL,
	`jobs` integer NOT NULL
);
