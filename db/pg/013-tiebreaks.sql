-- pg/013-tiebreaks.sql: db/013-tiebreaks.sql for PostgreSQL (issue 26
-- §3): a tournament's list of tie-breaks, NULL for its format's default.
ALTER TABLE tournaments ADD COLUMN tiebreaks TEXT;
