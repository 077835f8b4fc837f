ALTER TABLE `jobs` ADD `description_digest` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `french_description_digest` text;