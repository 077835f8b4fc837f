-- Custom SQL drizzle cannot express (docs/decisions.md: "Conditional writes", "Places belong
-- to their creator", "q costs the caller's own jobs").

-- 1. Places created from job requests belong to their creator (DESIGN 3). Each such place
-- goes to the employer of the earliest job using it; every other employer using it gets a copy
-- of its own, and its jobs point at that copy. A place no job uses belongs to nobody: removed.
UPDATE locations SET owner_employer_id = (
  SELECT j.employer_id FROM job_locations jl JOIN jobs j ON j.id = jl.job_id
  WHERE jl.location_id = locations.id ORDER BY j.id LIMIT 1)
WHERE source = 'employer';
--> statement-breakpoint
INSERT INTO locations (name, description, type, province_code, name_key, population_rank, source, owner_employer_id)
SELECT DISTINCT l.name, l.description, l.type, l.province_code, l.name_key, NULL, 'employer', j.employer_id
FROM locations l JOIN job_locations jl ON jl.location_id = l.id JOIN jobs j ON j.id = jl.job_id
WHERE l.source = 'employer' AND j.employer_id <> l.owner_employer_id;
--> statement-breakpoint
UPDATE job_locations SET location_id = (
  SELECT c.id FROM locations o JOIN locations c
    ON c.name_key = o.name_key AND c.province_code = o.province_code AND c.type = o.type AND c.source = 'employer'
  WHERE o.id = job_locations.location_id
    AND c.owner_employer_id = (SELECT employer_id FROM jobs WHERE id = job_locations.job_id))
WHERE location_id IN (SELECT id FROM locations WHERE source = 'employer')
  AND (SELECT employer_id FROM jobs WHERE id = job_locations.job_id)
    <> (SELECT owner_employer_id FROM locations WHERE id = job_locations.location_id);
--> statement-breakpoint
DELETE FROM locations WHERE source = 'employer' AND owner_employer_id IS NULL;
--> statement-breakpoint

-- 2. Write guards. D1 has no BEGIN, so a batch cannot stop itself halfway on a condition;
-- inserting into this view can: `INSERT INTO write_guards VALUES (<condition>, '<reason>')`
-- aborts the whole batch (rolling back its earlier statements) when the condition is false,
-- and writes nothing when it is true. The abort message names the reason.
CREATE VIEW write_guards (passed, reason) AS SELECT 1, '';
--> statement-breakpoint
CREATE TRIGGER write_guard_revision INSTEAD OF INSERT ON write_guards
WHEN NOT NEW.passed AND NEW.reason = 'revision' BEGIN
  SELECT RAISE(ABORT, 'write_guard:revision');
END;
--> statement-breakpoint
CREATE TRIGGER write_guard_place_limit INSTEAD OF INSERT ON write_guards
WHEN NOT NEW.passed AND NEW.reason = 'place_limit' BEGIN
  SELECT RAISE(ABORT, 'write_guard:place_limit');
END;
--> statement-breakpoint

-- 3. The job list's `q` index, keyed by employer first: rowid = employer_id * 2^32 + job id, so
-- a search names its rowid range and FTS5 reads only the caller's part of each posting list
-- (DESIGN 6a), whatever other employers store. Trigram: case-insensitive substrings.
DROP TRIGGER jobs_search_insert;
--> statement-breakpoint
DROP TRIGGER jobs_search_delete;
--> statement-breakpoint
DROP TRIGGER jobs_search_update;
--> statement-breakpoint
DROP TABLE jobs_search;
--> statement-breakpoint
CREATE VIRTUAL TABLE job_search USING fts5(title, reference_id, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO job_search (rowid, title, reference_id)
SELECT employer_id * 4294967296 + id, title, reference_id FROM jobs;
--> statement-breakpoint
CREATE TRIGGER job_search_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO job_search (rowid, title, reference_id) VALUES (NEW.employer_id * 4294967296 + NEW.id, NEW.title, NEW.reference_id);
END;
--> statement-breakpoint
CREATE TRIGGER job_search_delete AFTER DELETE ON jobs BEGIN
  DELETE FROM job_search WHERE rowid = OLD.employer_id * 4294967296 + OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER job_search_update AFTER UPDATE OF title, reference_id ON jobs BEGIN
  UPDATE job_search SET title = NEW.title, reference_id = NEW.reference_id
  WHERE rowid = NEW.employer_id * 4294967296 + NEW.id;
END;
