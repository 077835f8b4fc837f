-- Issue 27: the employer's job list with `q` walks the index in the list's own order and stops
-- at the page, as the board's search does; the total counts within the caller's own entries.
--
-- rowid = (2^32 - 1 - publish_date) * 2^31 + (2^31 - 1 - id): ascending rowids are the list's
-- order (publish_date DESC, id DESC) across every employer. Employer ids, job ids and publish
-- times do not fit one 64-bit rowid together, so the employer is a token instead: column e holds
-- three private-use characters naming the employer (11 bits each), column s the same for the
-- employer and status. A search is `{title reference_id}: "<q>" AND {e}: "<token>"`; FTS5 steps
-- through both lists with its skip index, so another employer's entries are passed over, not
-- read. The column filters keep a title's own characters from matching a token
-- (src/jobs/repository/list.ts computes the same tokens).
--
-- Contentless (content = ''): the text lives in jobs; contentless_delete lets the triggers
-- remove an entry by its rowid.
DROP TRIGGER job_search_insert;
--> statement-breakpoint
DROP TRIGGER job_search_delete;
--> statement-breakpoint
DROP TRIGGER job_search_update;
--> statement-breakpoint
DROP TABLE job_search;
--> statement-breakpoint
CREATE VIRTUAL TABLE job_search USING fts5(title, reference_id, e, s, tokenize = 'trigram', content = '', contentless_delete = 1);
--> statement-breakpoint
INSERT INTO job_search (rowid, title, reference_id, e, s)
  SELECT (4294967295 - j.publish_date) * 2147483648 + (2147483647 - j.id), j.title, j.reference_id,
    char(57344 + (j.employer_id >> 22), 57344 + ((j.employer_id >> 11) & 2047), 57344 + (j.employer_id & 2047)),
    char(59392 + (v >> 22), 59392 + ((v >> 11) & 2047), 59392 + (v & 2047))
  FROM (SELECT *, jobs.employer_id * 4 + CASE jobs.status WHEN 'active' THEN 0 WHEN 'draft' THEN 1 ELSE 2 END AS v FROM jobs) j;
--> statement-breakpoint
CREATE TRIGGER job_search_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO job_search (rowid, title, reference_id, e, s)
  SELECT (4294967295 - NEW.publish_date) * 2147483648 + (2147483647 - NEW.id), NEW.title, NEW.reference_id,
    char(57344 + (NEW.employer_id >> 22), 57344 + ((NEW.employer_id >> 11) & 2047), 57344 + (NEW.employer_id & 2047)),
    char(59392 + (v >> 22), 59392 + ((v >> 11) & 2047), 59392 + (v & 2047))
  FROM (SELECT NEW.employer_id * 4 + CASE NEW.status WHEN 'active' THEN 0 WHEN 'draft' THEN 1 ELSE 2 END AS v);
END;
--> statement-breakpoint
CREATE TRIGGER job_search_delete AFTER DELETE ON jobs BEGIN
  DELETE FROM job_search WHERE rowid = (4294967295 - OLD.publish_date) * 2147483648 + (2147483647 - OLD.id);
END;
--> statement-breakpoint
CREATE TRIGGER job_search_update AFTER UPDATE OF title, reference_id, status, employer_id, publish_date ON jobs
WHEN OLD.title IS NOT NEW.title OR OLD.reference_id IS NOT NEW.reference_id OR OLD.status IS NOT NEW.status
  OR OLD.employer_id IS NOT NEW.employer_id OR OLD.publish_date IS NOT NEW.publish_date BEGIN
  DELETE FROM job_search WHERE rowid = (4294967295 - OLD.publish_date) * 2147483648 + (2147483647 - OLD.id);
  INSERT INTO job_search (rowid, title, reference_id, e, s)
  SELECT (4294967295 - NEW.publish_date) * 2147483648 + (2147483647 - NEW.id), NEW.title, NEW.reference_id,
    char(57344 + (NEW.employer_id >> 22), 57344 + ((NEW.employer_id >> 11) & 2047), 57344 + (NEW.employer_id & 2047)),
    char(59392 + (v >> 22), 59392 + ((v >> 11) & 2047), 59392 + (v & 2047))
  FROM (SELECT NEW.employer_id * 4 + CASE NEW.status WHEN 'active' THEN 0 WHEN 'draft' THEN 1 ELSE 2 END AS v);
END;
