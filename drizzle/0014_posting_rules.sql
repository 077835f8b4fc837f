-- DESIGN 19. Columns are added in place (drizzle-kit would rebuild `employers` for its CHECK,
-- and dropping that table in D1 would cascade into every job); the CHECK rides on the column.
ALTER TABLE `employers` ADD `ontario_employees` integer;--> statement-breakpoint
ALTER TABLE `employers` ADD `federally_regulated` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `employers` ADD `posting_rules` text DEFAULT 'warn' NOT NULL CONSTRAINT "employers_posting_rules_check" CHECK(`posting_rules` IN ('warn', 'enforce'));--> statement-breakpoint
ALTER TABLE `employers` ADD `revision` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `ai_used_in_selection` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `existing_vacancy` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `translations` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `canadian_experience` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- A job write judged by the owner's settings is stored only while they are the ones it used.
CREATE TRIGGER write_guard_employer INSTEAD OF INSERT ON write_guards
WHEN NOT NEW.passed AND NEW.reason = 'employer' BEGIN
  SELECT RAISE(ABORT, 'write_guard:employer');
END;
--> statement-breakpoint
-- A job its owner's enforced posting rules refuse is not stored (the guard names the kinds of employer that refuse it).
CREATE TRIGGER write_guard_posting_rules INSTEAD OF INSERT ON write_guards
WHEN NOT NEW.passed AND NEW.reason = 'posting_rules' BEGIN
  SELECT RAISE(ABORT, 'write_guard:posting_rules');
END;
