-- pg/010-league-nodes.sql: db/010-league-nodes.sql for PostgreSQL
-- (issue 15 §1).  The index on lower(name) is UNIQUE here: two nodes that
-- register look-alikes (names that differ only in case) at the same
-- moment both pass the league's "NOT EXISTS (... lower(name) =
-- lower(?))", and this index stops the second.  Names are ASCII
-- (league_name_ok), where lower() is the same on both back ends.
CREATE UNIQUE INDEX accounts_name_lower ON accounts (lower(name));

-- Failed-login locks shared by the nodes (src/league-locks.c; the table
-- of db/010, where SQLite leaves it empty).
CREATE TABLE login_locks (
	name		TEXT NOT NULL,
	addr		TEXT NOT NULL,
	node		TEXT NOT NULL,
	until_ms	BIGINT NOT NULL,
	PRIMARY KEY (name, addr)
);
