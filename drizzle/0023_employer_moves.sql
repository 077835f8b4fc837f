-- DESIGN 22: moving an employer between shards (src/shards/move.ts). Its lock (frozen_at, moved_to),
-- the move's own record (shard_moves), and the list of each employer's API keys (api_keys), whose
-- KV records the move rewrites.
CREATE TABLE `api_keys` (
	`hash` text PRIMARY KEY NOT NULL,
	`employer_id` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `api_keys_employer_idx` ON `api_keys` (`employer_id`);--> statement-breakpoint
CREATE TABLE `shard_moves` (
	`employer_id` integer PRIMARY KEY NOT NULL,
	`to_shard` integer NOT NULL,
	`stage` text NOT NULL,
	`frozen_at` integer NOT NULL,
	`rows` integer,
	`updated_at` integer NOT NULL,
	CONSTRAINT "shard_moves_stage" CHECK("shard_moves"."stage" IN ('frozen', 'copied', 'verified', 'flipped', 'keys', 'done'))
);
--> statement-breakpoint
ALTER TABLE `employers` ADD `frozen_at` integer;--> statement-breakpoint
ALTER TABLE `employers` ADD `moved_to` integer;--> statement-breakpoint
CREATE INDEX `employers_locked_idx` ON `employers` (`id`) WHERE "employers"."frozen_at" IS NOT NULL OR "employers"."moved_to" IS NOT NULL;
--> statement-breakpoint
-- DESIGN 22, moving an employer between shards: the database itself refuses every write of a
-- locked employer's rows, whatever writes them (a request, a queue consumer, the cron, a script).
-- Locked: frozen while it moves (frozen_at), or moved away (moved_to: this row is a tombstone).
-- A refused statement aborts its whole batch, so nothing of it is stored; the message names why:
-- 'employer-moving' (answered 503 with Retry-After), 'employer-moved' (the request is served
-- again in the shard moved_to names). The move's own batches clear the lock in their first
-- statement and set it again in their last: one batch is one transaction, so nobody else ever
-- sees it cleared (src/shards/move.ts). Tables with employer_id; children written only with their
-- parent (job_locations, job_categories, application_history, job_expiry_notices) need none.
--> statement-breakpoint
CREATE TRIGGER jobs_lock_insert BEFORE INSERT ON jobs
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER jobs_lock_update BEFORE UPDATE ON jobs
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER jobs_lock_delete BEFORE DELETE ON jobs
WHEN EXISTS (SELECT 1 FROM employers WHERE id = OLD.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = OLD.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER applications_lock_insert BEFORE INSERT ON applications
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER applications_lock_update BEFORE UPDATE ON applications
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER applications_lock_delete BEFORE DELETE ON applications
WHEN EXISTS (SELECT 1 FROM employers WHERE id = OLD.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = OLD.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_lock_insert BEFORE INSERT ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_lock_update BEFORE UPDATE ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_lock_delete BEFORE DELETE ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM employers WHERE id = OLD.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = OLD.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER webhook_messages_lock_insert BEFORE INSERT ON webhook_messages
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER webhook_messages_lock_update BEFORE UPDATE ON webhook_messages
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER webhook_messages_lock_delete BEFORE DELETE ON webhook_messages
WHEN EXISTS (SELECT 1 FROM employers WHERE id = OLD.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = OLD.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER idempotency_keys_lock_insert BEFORE INSERT ON idempotency_keys
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER idempotency_keys_lock_update BEFORE UPDATE ON idempotency_keys
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER idempotency_keys_lock_delete BEFORE DELETE ON idempotency_keys
WHEN EXISTS (SELECT 1 FROM employers WHERE id = OLD.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = OLD.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER api_keys_lock_insert BEFORE INSERT ON api_keys
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER api_keys_lock_update BEFORE UPDATE ON api_keys
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER api_keys_lock_delete BEFORE DELETE ON api_keys
WHEN EXISTS (SELECT 1 FROM employers WHERE id = OLD.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = OLD.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER locations_lock_insert BEFORE INSERT ON locations
WHEN NEW.owner_employer_id IS NOT NULL AND EXISTS (SELECT 1 FROM employers WHERE id = NEW.owner_employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.owner_employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER locations_lock_update BEFORE UPDATE ON locations
WHEN NEW.owner_employer_id IS NOT NULL AND EXISTS (SELECT 1 FROM employers WHERE id = NEW.owner_employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.owner_employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER locations_lock_delete BEFORE DELETE ON locations
WHEN OLD.owner_employer_id IS NOT NULL AND EXISTS (SELECT 1 FROM employers WHERE id = OLD.owner_employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = OLD.owner_employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
-- Events are recorded with the change they describe (so refused with it); a notice the cron
-- records alone (job.expiring, application.decision_due) is refused here. Their deletion (the
-- relay's retention) goes on: the outbox of the shard an employer left is drained as before.
--> statement-breakpoint
CREATE TRIGGER events_lock_insert BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM employers WHERE id = NEW.employer_id AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.employer_id AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
-- Rows written without their parent, found through it: a view counted by the views queue, an
-- email's outcome recorded by the email queue, a report of the job from its page.
--> statement-breakpoint
CREATE TRIGGER job_views_lock_insert BEFORE INSERT ON job_views
WHEN EXISTS (SELECT 1 FROM employers WHERE id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id) AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id) AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER job_views_lock_update BEFORE UPDATE ON job_views
WHEN EXISTS (SELECT 1 FROM employers WHERE id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id) AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id) AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER applicant_emails_lock_insert BEFORE INSERT ON applicant_emails
WHEN EXISTS (SELECT 1 FROM employers WHERE id = (SELECT employer_id FROM applications WHERE id = NEW.application_id) AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = (SELECT employer_id FROM applications WHERE id = NEW.application_id) AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER applicant_emails_lock_update BEFORE UPDATE ON applicant_emails
WHEN EXISTS (SELECT 1 FROM employers WHERE id = (SELECT employer_id FROM applications WHERE id = NEW.application_id) AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = (SELECT employer_id FROM applications WHERE id = NEW.application_id) AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER job_reports_lock_insert BEFORE INSERT ON job_reports
WHEN EXISTS (SELECT 1 FROM employers WHERE id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id) AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id) AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
-- The employer's own row: its settings change, its deletion, a test space made for it. The move's
-- own changes of frozen_at and moved_to pass: only a change that leaves both as they were is refused.
--> statement-breakpoint
CREATE TRIGGER employers_lock_update BEFORE UPDATE ON employers
WHEN (OLD.frozen_at IS NOT NULL OR OLD.moved_to IS NOT NULL) AND NEW.frozen_at IS OLD.frozen_at AND NEW.moved_to IS OLD.moved_to BEGIN
  SELECT RAISE(ABORT, 'employer-moved') WHERE OLD.moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER employers_lock_delete BEFORE DELETE ON employers
WHEN OLD.frozen_at IS NOT NULL OR OLD.moved_to IS NOT NULL BEGIN
  SELECT RAISE(ABORT, 'employer-moved') WHERE OLD.moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
--> statement-breakpoint
CREATE TRIGGER employers_lock_test_space BEFORE INSERT ON employers
WHEN NEW.test_of IS NOT NULL AND EXISTS (SELECT 1 FROM employers WHERE id = NEW.test_of AND (frozen_at IS NOT NULL OR moved_to IS NOT NULL)) BEGIN
  SELECT RAISE(ABORT, 'employer-moved') FROM employers WHERE id = NEW.test_of AND moved_to IS NOT NULL;
  SELECT RAISE(ABORT, 'employer-moving');
END;
