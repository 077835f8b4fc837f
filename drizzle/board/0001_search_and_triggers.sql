-- The board's word index and the triggers that keep its lists in step with board_jobs (DESIGN 17).
-- Written by hand: drizzle-kit cannot express virtual tables or triggers.
--
-- board_search: the search tokens of each job's title and of its employer's public name (none for
-- a confidential employer). A token is a prefix of a folded word (src/board/rules.ts
-- searchTokensOf), so a query word is one exact term, whose postings FTS5 reads in rowid order
-- and stops reading at the page; a prefix query (`word*`) would first merge every matching term.
-- rowid = board_jobs.seq: the matches are read newest first. Contentless: the tokens live in
-- board_jobs and board_employers.
CREATE VIRTUAL TABLE board_search USING fts5(
  title, employer,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
INSERT INTO board_totals (id, jobs) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER board_jobs_insert AFTER INSERT ON board_jobs BEGIN
  INSERT INTO board_search (rowid, title, employer) VALUES (NEW.seq, NEW.words,
    CASE WHEN NEW.confidential THEN '' ELSE coalesce((SELECT words FROM board_employers WHERE employer_id = NEW.employer_id), '') END);
  INSERT INTO board_job_places (seq, position, place_id, geo_id)
    SELECT NEW.seq, key, value ->> 'placeId', value ->> 'geoId' FROM json_each(NEW.places);
  INSERT OR IGNORE INTO board_job_provinces (province_code, seq)
    SELECT value ->> 'province', NEW.seq FROM json_each(NEW.places) WHERE value ->> 'province' IS NOT NULL;
  INSERT OR IGNORE INTO board_job_categories (category_id, seq) SELECT value, NEW.seq FROM json_each(NEW.categories);
  UPDATE board_places SET jobs = jobs + 1 WHERE id IN (SELECT value ->> 'geoId' FROM json_each(NEW.places));
  UPDATE board_totals SET jobs = jobs + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER board_jobs_delete AFTER DELETE ON board_jobs BEGIN
  DELETE FROM board_search WHERE rowid = OLD.seq;
  UPDATE board_places SET jobs = jobs - 1 WHERE id IN (SELECT value ->> 'geoId' FROM json_each(OLD.places));
  DELETE FROM board_job_places WHERE seq = OLD.seq;
  DELETE FROM board_job_provinces WHERE seq = OLD.seq AND province_code IN (SELECT value ->> 'province' FROM json_each(OLD.places));
  DELETE FROM board_job_categories WHERE seq = OLD.seq AND category_id IN (SELECT value FROM json_each(OLD.categories));
  UPDATE board_totals SET jobs = jobs - 1 WHERE id = 1;
END;
--> statement-breakpoint
-- An update is the delete of the old row's lists and the insert of the new one's (its seq may change).
-- It repeats the two triggers above on purpose: SQLite triggers cannot share a body, and an
-- INSERT OR REPLACE would fire the delete trigger only with recursive_triggers on.
CREATE TRIGGER board_jobs_update AFTER UPDATE ON board_jobs BEGIN
  DELETE FROM board_search WHERE rowid = OLD.seq;
  UPDATE board_places SET jobs = jobs - 1 WHERE id IN (SELECT value ->> 'geoId' FROM json_each(OLD.places));
  DELETE FROM board_job_places WHERE seq = OLD.seq;
  DELETE FROM board_job_provinces WHERE seq = OLD.seq AND province_code IN (SELECT value ->> 'province' FROM json_each(OLD.places));
  DELETE FROM board_job_categories WHERE seq = OLD.seq AND category_id IN (SELECT value FROM json_each(OLD.categories));
  INSERT INTO board_search (rowid, title, employer) VALUES (NEW.seq, NEW.words,
    CASE WHEN NEW.confidential THEN '' ELSE coalesce((SELECT words FROM board_employers WHERE employer_id = NEW.employer_id), '') END);
  INSERT INTO board_job_places (seq, position, place_id, geo_id)
    SELECT NEW.seq, key, value ->> 'placeId', value ->> 'geoId' FROM json_each(NEW.places);
  INSERT OR IGNORE INTO board_job_provinces (province_code, seq)
    SELECT value ->> 'province', NEW.seq FROM json_each(NEW.places) WHERE value ->> 'province' IS NOT NULL;
  INSERT OR IGNORE INTO board_job_categories (category_id, seq) SELECT value, NEW.seq FROM json_each(NEW.categories);
  UPDATE board_places SET jobs = jobs + 1 WHERE id IN (SELECT value ->> 'geoId' FROM json_each(NEW.places));
END;
