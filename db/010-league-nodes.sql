-- 010-league-nodes.sql: the league on several nodes (issue 15 §1): an
-- index on lower(name) of the accounts, and the shared login locks.
--
-- The league refuses look-alikes (names that differ only
-- in case) with "WHERE lower(name) = lower(?)", which this index serves
-- instead of a scan of every account.  Not UNIQUE here: a log from before
-- the look-alike rule (issue 11) may hold look-alikes, and SQLite's one
-- writer makes the league's check enough.  PostgreSQL's twin is UNIQUE:
-- there two nodes may register at once.
CREATE INDEX accounts_name_lower ON accounts (lower(name));

-- Failed-login locks that the nodes of one PostgreSQL database share
-- (src/league-locks.c): a (name, address) pair locked, or an address
-- (name ''), by which node, until when (ms since the epoch, the
-- database's clock).  Unused on SQLite (one daemon: its locks are in its
-- memory); here for the same schema on both back ends.
CREATE TABLE login_locks (
	name		TEXT NOT NULL,
	addr		TEXT NOT NULL,
	node		TEXT NOT NULL,
	until_ms	INTEGER NOT NULL,
	PRIMARY KEY (name, addr)
);
