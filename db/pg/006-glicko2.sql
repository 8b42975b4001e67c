-- pg/006-glicko2.sql: db/006-glicko2.sql for PostgreSQL (issue 15): the
-- ratings checkpoint holds Glicko-2 ratings (rating, RD, volatility)
-- instead of Elo ones.  The Elo rows cannot be converted: the checkpoint is
-- emptied and set back to seq 0, so the first start replays every rated
-- game in rating_seq order and writes the Glicko-2 checkpoint.

DROP TABLE ratings;

-- rating, rd, volatility: the exact doubles, as SQLite's REAL.
CREATE TABLE ratings (
	name		TEXT PRIMARY KEY,
	rating		DOUBLE PRECISION NOT NULL,
	rd		DOUBLE PRECISION NOT NULL CHECK (rd > 0),
	volatility	DOUBLE PRECISION NOT NULL CHECK (volatility > 0),
	games		BIGINT NOT NULL CHECK (games >= 1)
);

UPDATE ratings_checkpoint SET seq = 0, game_id = 0 WHERE id = 1;
