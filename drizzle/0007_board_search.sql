-- The public board (DESIGN 14): jobs on the board are active; they are listed newest first.
CREATE INDEX jobs_board_idx ON jobs (publish_date DESC, id DESC) WHERE status = 'active';
--> statement-breakpoint
-- A word index over titles for the board's `q`: words folded for case and accents
-- (unicode61, remove_diacritics 2), prefix queries allowed; rowid = the job's id.
CREATE VIRTUAL TABLE board_search USING fts5(title, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
INSERT INTO board_search (rowid, title) SELECT id, coalesce(title, '') FROM jobs;
--> statement-breakpoint
CREATE TRIGGER board_search_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO board_search (rowid, title) VALUES (NEW.id, coalesce(NEW.title, ''));
END;
--> statement-breakpoint
CREATE TRIGGER board_search_delete AFTER DELETE ON jobs BEGIN
  DELETE FROM board_search WHERE rowid = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER board_search_update AFTER UPDATE OF title ON jobs BEGIN
  UPDATE board_search SET title = coalesce(NEW.title, '') WHERE rowid = NEW.id;
END;
