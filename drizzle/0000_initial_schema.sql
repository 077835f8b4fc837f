CREATE TABLE `applicant_routing_types` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `employers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`plan` text DEFAULT 'standard' NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "employers_plan_check" CHECK("employers"."plan" IN ('standard', 'unlimited')),
	CONSTRAINT "employers_name_length" CHECK(length("employers"."name") BETWEEN 1 AND 128)
);
--> statement-breakpoint
CREATE TABLE `job_categories` (
	`job_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`job_id`, `category_id`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `job_locations` (
	`job_id` integer NOT NULL,
	`location_id` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`job_id`, `location_id`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employer_id` integer NOT NULL,
	`reference_id` text,
	`title` text,
	`publish_date` integer NOT NULL,
	`close_date` integer NOT NULL,
	`confidential` integer DEFAULT false NOT NULL,
	`auto_refresh` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`position_type_id` integer,
	`salary_amount` integer,
	`salary_max_amount` integer,
	`salary_type_id` integer,
	`salary_plus_commission` integer,
	`description` text,
	`applicant_routing_type_id` integer,
	`application_email` text,
	`application_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`employer_id`) REFERENCES `employers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`position_type_id`) REFERENCES `position_types`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`salary_type_id`) REFERENCES `salary_types`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`applicant_routing_type_id`) REFERENCES `applicant_routing_types`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "jobs_status_check" CHECK("jobs"."status" IN ('active', 'archived', 'draft'))
);
--> statement-breakpoint
CREATE INDEX `jobs_employer_list_idx` ON `jobs` (`employer_id`,`publish_date`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_employer_status_list_idx` ON `jobs` (`employer_id`,`status`,`publish_date`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_employer_reference_unique` ON `jobs` (`employer_id`,`reference_id`) WHERE "jobs"."reference_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `jobs_auto_refresh_idx` ON `jobs` (`status`,`auto_refresh`,`publish_date`);--> statement-breakpoint
CREATE INDEX `jobs_expiry_idx` ON `jobs` (`status`,`close_date`);--> statement-breakpoint
CREATE TABLE `locations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`type` text NOT NULL,
	`province_code` text NOT NULL,
	`name_key` text NOT NULL,
	`population_rank` integer,
	`source` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `locations_place_unique` ON `locations` (`name_key`,`province_code`,`type`);--> statement-breakpoint
CREATE INDEX `locations_name_key_rank_idx` ON `locations` (`name_key`,`population_rank`);--> statement-breakpoint
CREATE TABLE `position_types` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `salary_types` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`unit` text NOT NULL
);
