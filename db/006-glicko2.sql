-- 006-glicko2.sql: the ratings checkpoint holds Glicko-2 ratings (rating,
-- RD, volatility) instead of Elo ones (issue 14 §1; the model is
-- PROTOCOL.md §13.7's).  Applied by store.c inside one transaction; PRAGMA
-- user_version is set by the loader, never here.
--
-- The Elo rows cannot be converted: the checkpoint is emptied and set back
-- to seq 0, so the first start of this version replays every rated game
-- of the log (in rating_seq order, which is unchanged) and writes the
-- Glicko-2 checkpoint, as for a log without a checkpoint.

DROP TABLE ratings;

-- Every rated player's Glicko-2 rating as computed (the exact doubles, on
-- the Glicko scale: rating centred on 1500, RD and volatility) and its
-- rated games, after the games with rating_seq <= ratings_checkpoint.seq.
CREATE TABLE ratings (
	name		TEXT PRIMARY KEY,
	rating		REAL NOT NULL,
	rd		REAL NOT NULL CHECK (rd > 0),
	volatility	REAL NOT NULL CHECK (volatility > 0),
	games		INTEGER NOT NULL CHECK (games >= 1)
);

UPDATE ratings_checkpoint SET seq = 0, game_id = 0 WHERE id = 1;
