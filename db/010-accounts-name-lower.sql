-- 010-accounts-name-lower.sql: an index on lower(name) of the accounts
-- (issue 15 §1).  The league refuses look-alikes (names that differ only
-- in case) with "WHERE lower(name) = lower(?)", which this index serves
-- instead of a scan of every account.  Not UNIQUE here: a log from before
-- the look-alike rule (issue 11) may hold look-alikes, and SQLite's one
-- writer makes the league's check enough.  PostgreSQL's twin is UNIQUE:
-- there two nodes may register at once.
CREATE INDEX accounts_name_lower ON accounts (lower(name));
