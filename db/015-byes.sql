-- 015-byes.sql: a tournament's unplayed rounds that are not in the games
-- table (issue 26; doc/STATS.md §4, "What the log knows"), so that
-- `export standings tournament=NAME`, built from the log, counts them as
-- `standings` does.  byes: a Swiss tournament's, "R:NAME,...", the round
-- (1-based) and the player given its bye, written when a round is paired.
-- stopped: the games a withdrawal stopped before they were played,
-- "R:A:B,..." (the round, or the place in the schedule, and the two
-- players), written when one is stopped.  NULL or '': none stored (every
-- tournament made before; its byes are stored when it is next loaded).
-- Applied inside one transaction; PRAGMA user_version is set by the
-- loader.
ALTER TABLE tournaments ADD COLUMN byes TEXT;
ALTER TABLE tournaments ADD COLUMN stopped TEXT;
