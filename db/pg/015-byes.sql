-- pg/015-byes.sql: db/015-byes.sql for PostgreSQL (issue 26): a Swiss
-- tournament's byes "R:NAME,..." and the games a withdrawal stopped
-- "R:A:B,...", NULL or '' for none stored.
ALTER TABLE tournaments ADD COLUMN byes TEXT;
ALTER TABLE tournaments ADD COLUMN stopped TEXT;
