-- Issue 38 (issue 27 before it): the employer's job list with `q` walks the index in the list's
-- own order and stops at the page, as the board's search does; the total counts within the
-- caller's own entries. Built once as migration 0021 (eb36c5e) and reverted because the cron then
-- moved 100 000 entries in one transaction; the cron now works in bounded chunks (DESIGN 22).
--
-- rowid = publish_date * 2^31 + id: descending rowids are the list's order (publish_date DESC,
-- id DESC) across every employer, and FTS5 walks its lists backwards as cheaply as forwards
-- (ORDER BY rowid DESC). Ascending rowids are the order jobs are usually written in (newer ids,
-- newer publish dates), which FTS5 needs within a transaction to add to one b-tree: a rowid lower
-- than the one before starts a new b-tree. It holds for 0 <= publish_date < 2^32 (seconds, until
-- 2106; the server sets it) and 0 < id < 2^31: shard k numbers its rows from k * 2^27 + 1
-- (src/shards/identity.ts), at most 16 shards, so every id below 16 * 2^27 = 2^31 fits, that is
-- all but the very last id of shard 15's range (which Int32 ids exclude already). The largest
-- rowid, (2^32 - 1) * 2^31 + 2^31 - 1, is 2^63 - 1: SQLite's largest integer.
--
-- Employer ids, job ids and publish times do not fit one 64-bit rowid together, so the employer is
-- a token instead: column e holds three private-use characters naming the employer (11 bits each,
-- U+E000..U+E7FF), column s the same for employer * 4 + a status code (U+E800..U+EFFF); employer
-- ids are below 2^31 as job ids are, so both fit their 33 bits. A search is
-- `{title reference_id}: "<q>" AND {e}: "<token>"`; FTS5 steps through both posting lists with its
-- skip index, so another employer's entries are passed over, not read. The column filters keep a
-- title's own characters from matching a token (src/jobs/repository/list.ts computes the same
-- tokens).
--
-- Contentless (content = ''): the text lives in jobs; contentless_delete lets the triggers
-- remove an entry by its rowid. The triggers move an entry when its title, referenceId, status,
-- employer or publishDate changes: a request's write, the cron's chunks, and a move between shards
-- (the copy inserts, or upserts, jobs rows in the target; the delete removes them in the source).
-- The cron merges the index's b-trees an hour at a time (src/jobs/search-index.ts).
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
-- Who merges the index's b-trees (FTS5 adds at least one with every write): the hourly cron, a
-- bounded 'merge' statement at a time (src/jobs/search-index.ts), not the writes. With FTS5's
-- default automerge a write sometimes merged large b-trees within its own transaction: a chunk of
-- the cron's refresh took up to 4.1 s in the bench. Without it, a level is merged within a write
-- only once it holds crisismerge (32) b-trees, all of them as small as the writes since the last
-- merge of that level; usermerge 2 lets the cron's 'merge' take any level of 2 or more (FTS5's
-- default waits for 4). docs/performance.md has the numbers.
INSERT INTO job_search (job_search, rank) VALUES ('automerge', 0);
--> statement-breakpoint
INSERT INTO job_search (job_search, rank) VALUES ('crisismerge', 32);
--> statement-breakpoint
INSERT INTO job_search (job_search, rank) VALUES ('usermerge', 2);
--> statement-breakpoint
-- Every existing job, so that a deployed database has the whole index once migrated; in rowid
-- order, so that FTS5 writes them as few b-trees, not one per job.
INSERT INTO job_search (rowid, title, reference_id, e, s)
  SELECT j.publish_date * 2147483648 + j.id, j.title, j.reference_id,
    char(57344 + (j.employer_id >> 22), 57344 + ((j.employer_id >> 11) & 2047), 57344 + (j.employer_id & 2047)),
    char(59392 + (v >> 22), 59392 + ((v >> 11) & 2047), 59392 + (v & 2047))
  FROM (SELECT *, jobs.employer_id * 4 + CASE jobs.status WHEN 'active' THEN 0 WHEN 'draft' THEN 1 ELSE 2 END AS v FROM jobs) j
  ORDER BY j.publish_date, j.id;
--> statement-breakpoint
CREATE TRIGGER job_search_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO job_search (rowid, title, reference_id, e, s)
  SELECT NEW.publish_date * 2147483648 + NEW.id, NEW.title, NEW.reference_id,
    char(57344 + (NEW.employer_id >> 22), 57344 + ((NEW.employer_id >> 11) & 2047), 57344 + (NEW.employer_id & 2047)),
    char(59392 + (v >> 22), 59392 + ((v >> 11) & 2047), 59392 + (v & 2047))
  FROM (SELECT NEW.employer_id * 4 + CASE NEW.status WHEN 'active' THEN 0 WHEN 'draft' THEN 1 ELSE 2 END AS v);
END;
--> statement-breakpoint
CREATE TRIGGER job_search_delete AFTER DELETE ON jobs BEGIN
  DELETE FROM job_search WHERE rowid = OLD.publish_date * 2147483648 + OLD.id;
END;
--> statement-breakpoint
-- The cron's chunks change hundreds of jobs in one statement, and a refresh moves each entry from
-- an old rowid to a newer one: deleted and added row by row, the rowids would go down and up again
-- at every job, and FTS5 would start a b-tree per job (and merge them by 32s within the chunk). So
-- a chunk defers the index: its batch adds a row to job_search_deferral first; while it is there,
-- the update trigger records each entry's move in job_search_moves instead, and the batch then
-- deletes the old entries and adds the new ones, each in rowid order, empties job_search_moves and
-- removes the row (src/jobs/search-index.ts). One batch is one transaction: nobody else ever sees
-- the row, and a chunk that fails leaves nothing of it.
CREATE TABLE job_search_deferral (
  id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1)
);
--> statement-breakpoint
CREATE TABLE job_search_moves (
  old_rowid INTEGER NOT NULL,
  new_rowid INTEGER NOT NULL,
  title TEXT NOT NULL,
  reference_id TEXT,
  e TEXT NOT NULL,
  s TEXT NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER job_search_update AFTER UPDATE OF title, reference_id, status, employer_id, publish_date ON jobs
WHEN (OLD.title IS NOT NEW.title OR OLD.reference_id IS NOT NEW.reference_id OR OLD.status IS NOT NEW.status
  OR OLD.employer_id IS NOT NEW.employer_id OR OLD.publish_date IS NOT NEW.publish_date)
  AND NOT EXISTS (SELECT 1 FROM job_search_deferral) BEGIN
  DELETE FROM job_search WHERE rowid = OLD.publish_date * 2147483648 + OLD.id;
  INSERT INTO job_search (rowid, title, reference_id, e, s)
  SELECT NEW.publish_date * 2147483648 + NEW.id, NEW.title, NEW.reference_id,
    char(57344 + (NEW.employer_id >> 22), 57344 + ((NEW.employer_id >> 11) & 2047), 57344 + (NEW.employer_id & 2047)),
    char(59392 + (v >> 22), 59392 + ((v >> 11) & 2047), 59392 + (v & 2047))
  FROM (SELECT NEW.employer_id * 4 + CASE NEW.status WHEN 'active' THEN 0 WHEN 'draft' THEN 1 ELSE 2 END AS v);
END;
--> statement-breakpoint
CREATE TRIGGER job_search_update_deferred AFTER UPDATE OF title, reference_id, status, employer_id, publish_date ON jobs
WHEN (OLD.title IS NOT NEW.title OR OLD.reference_id IS NOT NEW.reference_id OR OLD.status IS NOT NEW.status
  OR OLD.employer_id IS NOT NEW.employer_id OR OLD.publish_date IS NOT NEW.publish_date)
  AND EXISTS (SELECT 1 FROM job_search_deferral) BEGIN
  INSERT INTO job_search_moves (old_rowid, new_rowid, title, reference_id, e, s)
  SELECT OLD.publish_date * 2147483648 + OLD.id, NEW.publish_date * 2147483648 + NEW.id, NEW.title, NEW.reference_id,
    char(57344 + (NEW.employer_id >> 22), 57344 + ((NEW.employer_id >> 11) & 2047), 57344 + (NEW.employer_id & 2047)),
    char(59392 + (v >> 22), 59392 + ((v >> 11) & 2047), 59392 + (v & 2047))
  FROM (SELECT NEW.employer_id * 4 + CASE NEW.status WHEN 'active' THEN 0 WHEN 'draft' THEN 1 ELSE 2 END AS v);
END;
