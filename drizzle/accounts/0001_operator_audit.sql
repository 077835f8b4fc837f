CREATE TABLE `audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`operator` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`reason` text,
	`note` text,
	`outcome` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_at` ON `audit` (`at`);