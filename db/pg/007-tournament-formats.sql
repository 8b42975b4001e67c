-- pg/007-tournament-formats.sql: db/007-tournament-formats.sql for
-- PostgreSQL (issue 15): the Swiss and arena formats, a paused state, a
-- number of rounds, a forfeit deadline and an SPRT.  PostgreSQL changes a
-- CHECK constraint in place (the column checks of pg/002 carry
-- PostgreSQL's default names), so the table is not rebuilt.

ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check
	CHECK (format IN ('roundrobin', 'gauntlet', 'swiss', 'arena'));
ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check
	CHECK (status IN ('running', 'paused', 'finished', 'cancelled'));

-- The columns, their meaning and checks as in db/007.
ALTER TABLE tournaments ADD COLUMN rounds BIGINT NOT NULL DEFAULT 0
	CHECK (rounds >= 0);
ALTER TABLE tournaments ADD COLUMN forfeit_s BIGINT NOT NULL DEFAULT 0
	CHECK (forfeit_s >= 0);
ALTER TABLE tournaments ADD COLUMN sprt_elo0 DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN sprt_elo1 DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN sprt_alpha DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN sprt_beta DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN sprt_verdict TEXT
	CHECK (sprt_verdict IN ('H0', 'H1'));
ALTER TABLE tournaments ADD COLUMN nstart BIGINT NOT NULL DEFAULT 0
	CHECK (nstart >= 0);
ALTER TABLE tournaments ADD COLUMN withdrawn TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD CONSTRAINT tournaments_sprt_check
	CHECK ((sprt_elo0 IS NULL) = (sprt_elo1 IS NULL) AND
	    (sprt_elo0 IS NULL) = (sprt_alpha IS NULL) AND
	    (sprt_elo0 IS NULL) = (sprt_beta IS NULL));
