-- pg/005-ratings-checkpoint.sql: db/005-ratings-checkpoint.sql for
-- PostgreSQL (issue 15): the order in which the log rated its games, and
-- the checkpoint of the Elo ratings.

ALTER TABLE games ADD COLUMN rating_seq BIGINT CHECK (rating_seq >= 1);

UPDATE games SET rating_seq = o.k
	FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY ended_at, id) AS k
	    FROM games WHERE rated = 1 AND status = 'finished' AND
	    result IS NOT NULL) AS o
	WHERE games.id = o.id;

CREATE UNIQUE INDEX games_rating_seq ON games (rating_seq)
	WHERE rating_seq IS NOT NULL;

-- rating: the exact double, as SQLite's REAL.
CREATE TABLE ratings (
	name		TEXT PRIMARY KEY,
	rating		DOUBLE PRECISION NOT NULL,
	games		BIGINT NOT NULL CHECK (games >= 1)
);

CREATE TABLE ratings_checkpoint (
	id		BIGINT PRIMARY KEY CHECK (id = 1),
	seq		BIGINT NOT NULL CHECK (seq >= 0),
	game_id		BIGINT NOT NULL CHECK (game_id >= 0)
);
INSERT INTO ratings_checkpoint (id, seq, game_id) VALUES (1, 0, 0);
