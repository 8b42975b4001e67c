-- pg/010-accounts-name-lower.sql: db/010-accounts-name-lower.sql for
-- PostgreSQL (issue 15 §1), UNIQUE: two nodes that register look-alikes
-- (names that differ only in case) at the same moment both pass the
-- league's "NOT EXISTS (... lower(name) = lower(?))", and this index stops
-- the second.  Names are ASCII (league_name_ok), where lower() is the same
-- on both back ends.
CREATE UNIQUE INDEX accounts_name_lower ON accounts (lower(name));
