-- DESIGN 15: an application that goes (its job deleted, or the 180-day retention) leaves its
-- résumé's R2 key behind for the cron to delete from the bucket.
CREATE TRIGGER applications_resume_deletion AFTER DELETE ON applications WHEN OLD.resume_key IS NOT NULL BEGIN
  INSERT OR IGNORE INTO resume_deletions (key) VALUES (OLD.resume_key);
END;
