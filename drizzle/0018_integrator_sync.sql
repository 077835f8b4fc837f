CREATE TABLE `job_expiry_notices` (
	`job_id` integer PRIMARY KEY NOT NULL,
	`close_date` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `job_views` (
	`job_id` integer NOT NULL,
	`day` integer NOT NULL,
	`views` integer NOT NULL,
	PRIMARY KEY(`job_id`, `day`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `employers` ADD `test_of` integer REFERENCES employers(id);--> statement-breakpoint
CREATE UNIQUE INDEX `employers_test_of_unique` ON `employers` (`test_of`) WHERE "employers"."test_of" IS NOT NULL;