-- DESIGN 22b: moves the employer barely notices. While the Worker copies an employer to another
-- shard (src/shards/online-move.ts) it keeps being served and keeps writing here; this shard
-- records what it changes, so the move copies those rows again in catch-up rounds and freezes
-- the employer only for the last one. move_capture names the employers being moved out (the
-- employer and its test space); move_changes is the record: one row per change of a moved
-- table's row, its table and key (a JSON array of the key's columns), in the batch of the change.
CREATE TABLE `move_capture` (
	`employer_id` integer PRIMARY KEY NOT NULL,
	`move_of` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `move_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`move_of` integer NOT NULL,
	`tbl` text NOT NULL,
	`key` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `move_changes_move_idx` ON `move_changes` (`move_of`,`seq`);
--> statement-breakpoint
-- The capture triggers: a row of a captured employer (found through its job or application where
-- the row has no employer column) names itself. Nothing is written for any other employer, and
-- while nobody moves (move_capture empty) a write pays one look at an empty table. A parent's
-- delete names its dependents before they go (its cascade, or a report left without its job,
-- takes them out of the employer's rows), since their own triggers could no longer find it.
-- A test space made while its employer moves is captured from its first row.
--> statement-breakpoint
CREATE TRIGGER employers_move_insert AFTER INSERT ON employers
WHEN NEW.test_of IS NOT NULL AND EXISTS (SELECT 1 FROM move_capture WHERE employer_id = NEW.test_of) BEGIN
  INSERT INTO move_capture (employer_id, move_of) SELECT NEW.id, move_of FROM move_capture WHERE employer_id = NEW.test_of;
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'employers', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER employers_move_update AFTER UPDATE ON employers
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'employers', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER employers_move_delete BEFORE DELETE ON employers
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'employers', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER api_keys_move_insert AFTER INSERT ON api_keys
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'api_keys', json_array(NEW.hash) FROM move_capture WHERE employer_id = NEW.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER api_keys_move_update AFTER UPDATE ON api_keys
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'api_keys', json_array(NEW.hash) FROM move_capture WHERE employer_id = NEW.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'api_keys', json_array(OLD.hash) FROM move_capture WHERE employer_id = OLD.employer_id AND (OLD.hash IS NOT NEW.hash);
END;
--> statement-breakpoint
CREATE TRIGGER api_keys_move_delete AFTER DELETE ON api_keys
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'api_keys', json_array(OLD.hash) FROM move_capture WHERE employer_id = OLD.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER locations_move_insert AFTER INSERT ON locations
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'locations', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.owner_employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER locations_move_update AFTER UPDATE ON locations
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'locations', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.owner_employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'locations', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.owner_employer_id AND (OLD.id IS NOT NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER locations_move_delete AFTER DELETE ON locations
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'locations', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.owner_employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER jobs_move_insert AFTER INSERT ON jobs
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'jobs', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER jobs_move_update AFTER UPDATE ON jobs
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'jobs', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'jobs', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.employer_id AND (OLD.id IS NOT NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER jobs_move_delete BEFORE DELETE ON jobs
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'jobs', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'job_locations', json_array(d.job_id, d.location_id) FROM move_capture c, (SELECT job_id, location_id FROM job_locations WHERE job_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'job_categories', json_array(d.job_id, d.category_id) FROM move_capture c, (SELECT job_id, category_id FROM job_categories WHERE job_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'job_expiry_notices', json_array(d.job_id) FROM move_capture c, (SELECT job_id FROM job_expiry_notices WHERE job_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'job_views', json_array(d.job_id, d.day) FROM move_capture c, (SELECT job_id, day FROM job_views WHERE job_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'job_reports', json_array(d.id) FROM move_capture c, (SELECT id FROM job_reports WHERE job_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'applications', json_array(d.id) FROM move_capture c, (SELECT id FROM applications WHERE job_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'application_history', json_array(d.id) FROM move_capture c, (SELECT id FROM application_history WHERE application_id IN (SELECT id FROM applications WHERE job_id = OLD.id)) d WHERE c.employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'applicant_emails', json_array(d.id) FROM move_capture c, (SELECT id FROM applicant_emails WHERE application_id IN (SELECT id FROM applications WHERE job_id = OLD.id)) d WHERE c.employer_id = OLD.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER job_locations_move_insert AFTER INSERT ON job_locations
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_locations', json_array(NEW.job_id, NEW.location_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_locations_move_update AFTER UPDATE ON job_locations
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_locations', json_array(NEW.job_id, NEW.location_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_locations', json_array(OLD.job_id, OLD.location_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id) AND (OLD.job_id IS NOT NEW.job_id OR OLD.location_id IS NOT NEW.location_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_locations_move_delete AFTER DELETE ON job_locations
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_locations', json_array(OLD.job_id, OLD.location_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_categories_move_insert AFTER INSERT ON job_categories
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_categories', json_array(NEW.job_id, NEW.category_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_categories_move_update AFTER UPDATE ON job_categories
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_categories', json_array(NEW.job_id, NEW.category_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_categories', json_array(OLD.job_id, OLD.category_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id) AND (OLD.job_id IS NOT NEW.job_id OR OLD.category_id IS NOT NEW.category_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_categories_move_delete AFTER DELETE ON job_categories
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_categories', json_array(OLD.job_id, OLD.category_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_expiry_notices_move_insert AFTER INSERT ON job_expiry_notices
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_expiry_notices', json_array(NEW.job_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_expiry_notices_move_update AFTER UPDATE ON job_expiry_notices
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_expiry_notices', json_array(NEW.job_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_expiry_notices', json_array(OLD.job_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id) AND (OLD.job_id IS NOT NEW.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_expiry_notices_move_delete AFTER DELETE ON job_expiry_notices
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_expiry_notices', json_array(OLD.job_id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_views_move_insert AFTER INSERT ON job_views
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_views', json_array(NEW.job_id, NEW.day) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_views_move_update AFTER UPDATE ON job_views
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_views', json_array(NEW.job_id, NEW.day) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_views', json_array(OLD.job_id, OLD.day) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id) AND (OLD.job_id IS NOT NEW.job_id OR OLD.day IS NOT NEW.day);
END;
--> statement-breakpoint
CREATE TRIGGER job_views_move_delete AFTER DELETE ON job_views
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_views', json_array(OLD.job_id, OLD.day) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_reports_move_insert AFTER INSERT ON job_reports
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_reports', json_array(NEW.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_reports_move_update AFTER UPDATE ON job_reports
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_reports', json_array(NEW.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = NEW.job_id);
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_reports', json_array(OLD.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id) AND (OLD.id IS NOT NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER job_reports_move_delete AFTER DELETE ON job_reports
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'job_reports', json_array(OLD.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM jobs WHERE id = OLD.job_id);
END;
--> statement-breakpoint
CREATE TRIGGER applications_move_insert AFTER INSERT ON applications
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'applications', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER applications_move_update AFTER UPDATE ON applications
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'applications', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'applications', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.employer_id AND (OLD.id IS NOT NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER applications_move_delete BEFORE DELETE ON applications
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'applications', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'application_history', json_array(d.id) FROM move_capture c, (SELECT id FROM application_history WHERE application_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'applicant_emails', json_array(d.id) FROM move_capture c, (SELECT id FROM applicant_emails WHERE application_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER application_history_move_insert AFTER INSERT ON application_history
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'application_history', json_array(NEW.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM applications WHERE id = NEW.application_id);
END;
--> statement-breakpoint
CREATE TRIGGER application_history_move_update AFTER UPDATE ON application_history
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'application_history', json_array(NEW.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM applications WHERE id = NEW.application_id);
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'application_history', json_array(OLD.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM applications WHERE id = OLD.application_id) AND (OLD.id IS NOT NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER application_history_move_delete AFTER DELETE ON application_history
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'application_history', json_array(OLD.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM applications WHERE id = OLD.application_id);
END;
--> statement-breakpoint
CREATE TRIGGER applicant_emails_move_insert AFTER INSERT ON applicant_emails
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'applicant_emails', json_array(NEW.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM applications WHERE id = NEW.application_id);
END;
--> statement-breakpoint
CREATE TRIGGER applicant_emails_move_update AFTER UPDATE ON applicant_emails
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'applicant_emails', json_array(NEW.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM applications WHERE id = NEW.application_id);
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'applicant_emails', json_array(OLD.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM applications WHERE id = OLD.application_id) AND (OLD.id IS NOT NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER applicant_emails_move_delete AFTER DELETE ON applicant_emails
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'applicant_emails', json_array(OLD.id) FROM move_capture WHERE employer_id = (SELECT employer_id FROM applications WHERE id = OLD.application_id);
END;
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_move_insert AFTER INSERT ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'webhook_endpoints', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_move_update AFTER UPDATE ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'webhook_endpoints', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'webhook_endpoints', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.employer_id AND (OLD.id IS NOT NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_move_delete BEFORE DELETE ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'webhook_endpoints', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT c.move_of, 'webhook_messages', json_array(d.id) FROM move_capture c, (SELECT id FROM webhook_messages WHERE endpoint_id = OLD.id) d WHERE c.employer_id = OLD.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER webhook_messages_move_insert AFTER INSERT ON webhook_messages
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'webhook_messages', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER webhook_messages_move_update AFTER UPDATE ON webhook_messages
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'webhook_messages', json_array(NEW.id) FROM move_capture WHERE employer_id = NEW.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'webhook_messages', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.employer_id AND (OLD.id IS NOT NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER webhook_messages_move_delete AFTER DELETE ON webhook_messages
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'webhook_messages', json_array(OLD.id) FROM move_capture WHERE employer_id = OLD.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER idempotency_keys_move_insert AFTER INSERT ON idempotency_keys
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'idempotency_keys', json_array(NEW.employer_id, NEW.key) FROM move_capture WHERE employer_id = NEW.employer_id;
END;
--> statement-breakpoint
CREATE TRIGGER idempotency_keys_move_update AFTER UPDATE ON idempotency_keys
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'idempotency_keys', json_array(NEW.employer_id, NEW.key) FROM move_capture WHERE employer_id = NEW.employer_id;
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'idempotency_keys', json_array(OLD.employer_id, OLD.key) FROM move_capture WHERE employer_id = OLD.employer_id AND (OLD.employer_id IS NOT NEW.employer_id OR OLD.key IS NOT NEW.key);
END;
--> statement-breakpoint
CREATE TRIGGER idempotency_keys_move_delete AFTER DELETE ON idempotency_keys
WHEN EXISTS (SELECT 1 FROM move_capture) BEGIN
  INSERT INTO move_changes (move_of, tbl, key) SELECT move_of, 'idempotency_keys', json_array(OLD.employer_id, OLD.key) FROM move_capture WHERE employer_id = OLD.employer_id;
END;
