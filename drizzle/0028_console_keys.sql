-- DESIGN 25: the console's API keys — each key's prefix (its first 12 characters, unique within
-- an employer and its test space), the hour it was last used, and a rolled key's end.
ALTER TABLE `api_keys` ADD `prefix` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `last_used_at` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_employer_prefix` ON `api_keys` (`employer_id`,`prefix`);