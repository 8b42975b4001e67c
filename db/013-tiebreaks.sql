-- 013-tiebreaks.sql: a tournament's list of tie-breaks (issue 26 §3;
-- doc/STATS.md, "Tie-breaks"): FIDE's abbreviations separated by commas,
-- "de,sb,win".  NULL (every tournament made before): its format's
-- default.  Applied by store.c inside one transaction; PRAGMA
-- user_version is set by the loader, never here.
ALTER TABLE tournaments ADD COLUMN tiebreaks TEXT;
