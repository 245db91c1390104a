-- Migration 5: most appends update a Run's row without new index entries.
--
-- An append always changes update_time, which keyed runs_runnable, so no
-- append could be a HOT update: each wrote a new entry into every index
-- of runs (about 4 per append, 7 appends a Run). Claims now take the
-- longest waiting runnable Run by when it became runnable: runnable_since,
-- set when runnable turns true, or create_time for a Run created runnable.
-- Neither changes on an ordinary append, and free space left in each page
-- lets the new row version stay on its page.
ALTER TABLE runs ADD COLUMN IF NOT EXISTS runnable_since BIGINT NOT NULL DEFAULT 0;
-- The Runs waiting now keep their place in the queue.
UPDATE runs SET runnable_since = update_time WHERE runnable;
DROP INDEX IF EXISTS runs_runnable;
CREATE INDEX runs_runnable ON runs (GREATEST(create_time, runnable_since)) WHERE runnable;
ALTER TABLE runs SET (fillfactor = 70);
