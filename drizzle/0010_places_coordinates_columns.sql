ALTER TABLE `locations` ADD `population` integer;--> statement-breakpoint
ALTER TABLE `locations` ADD `latitude` real;--> statement-breakpoint
ALTER TABLE `locations` ADD `longitude` real;