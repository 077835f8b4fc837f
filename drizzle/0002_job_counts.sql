CREATE TABLE `job_counts` (
	`employer_id` integer NOT NULL,
	`status` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`employer_id`, `status`)
);
