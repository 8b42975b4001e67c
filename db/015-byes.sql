-- 015-byes.sql: a Swiss tournament's byes (issue 26; doc/STATS.md §4,
-- "What the log knows"), so that `export standings tournament=NAME`,
-- built from the log, counts them as `standings` does: "R:NAME,...", the
-- round (1-based) and the player given its bye, written when a round is
-- paired.  NULL or '' (every tournament made before, and every format
-- but Swiss): no bye stored.  Applied inside one transaction; PRAGMA
-- user_version is set by the loader.
ALTER TABLE tournaments ADD COLUMN byes TEXT;
