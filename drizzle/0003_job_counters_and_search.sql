-- Custom SQL drizzle cannot express: triggers keeping job_counts right, and a trigram
-- full-text index over title and reference_id for the job list's `q` (docs/decisions.md).

-- job_counts: one row per employer and status; the list's total is a sum of at most 3 rows.
INSERT INTO job_counts (employer_id, status, total)
SELECT employer_id, status, count(*) FROM jobs GROUP BY employer_id, status;
--> statement-breakpoint
CREATE TRIGGER jobs_count_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO job_counts (employer_id, status, total) VALUES (NEW.employer_id, NEW.status, 1)
  ON CONFLICT (employer_id, status) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER jobs_count_delete AFTER DELETE ON jobs BEGIN
  UPDATE job_counts SET total = total - 1 WHERE employer_id = OLD.employer_id AND status = OLD.status;
END;
--> statement-breakpoint
CREATE TRIGGER jobs_count_status AFTER UPDATE OF status, employer_id ON jobs
WHEN OLD.status IS NOT NEW.status OR OLD.employer_id IS NOT NEW.employer_id BEGIN
  UPDATE job_counts SET total = total - 1 WHERE employer_id = OLD.employer_id AND status = OLD.status;
  INSERT INTO job_counts (employer_id, status, total) VALUES (NEW.employer_id, NEW.status, 1)
  ON CONFLICT (employer_id, status) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
-- jobs_search: external content (the text stays in jobs); trigram makes MATCH a
-- case-insensitive substring search for terms of 3 characters or more.
CREATE VIRTUAL TABLE jobs_search USING fts5(
  title, reference_id, content = 'jobs', content_rowid = 'id', tokenize = 'trigram'
);
--> statement-breakpoint
INSERT INTO jobs_search (jobs_search) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER jobs_search_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO jobs_search (rowid, title, reference_id) VALUES (NEW.id, NEW.title, NEW.reference_id);
END;
--> statement-breakpoint
CREATE TRIGGER jobs_search_delete AFTER DELETE ON jobs BEGIN
  INSERT INTO jobs_search (jobs_search, rowid, title, reference_id) VALUES ('delete', OLD.id, OLD.title, OLD.reference_id);
END;
--> statement-breakpoint
CREATE TRIGGER jobs_search_update AFTER UPDATE OF title, reference_id ON jobs BEGIN
  INSERT INTO jobs_search (jobs_search, rowid, title, reference_id) VALUES ('delete', OLD.id, OLD.title, OLD.reference_id);
  INSERT INTO jobs_search (rowid, title, reference_id) VALUES (NEW.id, NEW.title, NEW.reference_id);
END;
