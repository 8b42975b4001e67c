-- 005-ratings-checkpoint.sql: a checkpoint of the Elo ratings, so that a
-- start reads the ratings instead of replaying every rated game of the log
-- (issue 12 §4).  Applied by store.c inside one transaction; PRAGMA
-- user_version is set by the loader, never here.

-- The order in which the log rated its games: 1, 2, 3, ... in the order
-- their ends were committed (the order the live ratings took them in); NULL
-- for a game that does not count (unrated, abandoned, without a winner, or
-- its record incomplete).  The store's writer sets it in the transaction
-- that commits the game's end.  The rated games of earlier versions are
-- numbered in the order their replay took them: ended_at, then id.
ALTER TABLE games ADD COLUMN rating_seq INTEGER CHECK (rating_seq >= 1);

CREATE TEMP TABLE rating_order (id INTEGER PRIMARY KEY, k INTEGER NOT NULL);
INSERT INTO rating_order (id, k)
	SELECT id, ROW_NUMBER() OVER (ORDER BY ended_at, id) FROM games
	WHERE rated = 1 AND status = 'finished' AND result IS NOT NULL;
UPDATE games SET rating_seq =
	(SELECT k FROM rating_order WHERE rating_order.id = games.id)
	WHERE id IN (SELECT id FROM rating_order);
DROP TABLE rating_order;

-- The replays read the rated games by rating_seq.
CREATE UNIQUE INDEX games_rating_seq ON games (rating_seq)
	WHERE rating_seq IS NOT NULL;

-- The checkpoint: every rated player's Elo rating as computed (the exact
-- double) and its rated games, after the games with rating_seq <= seq of
-- ratings_checkpoint.  The writer updates both in the same transaction as
-- the games they cover, so they never disagree with the log; a start loads
-- them and replays only the games after seq.
CREATE TABLE ratings (
	name		TEXT PRIMARY KEY,
	rating		REAL NOT NULL,
	games		INTEGER NOT NULL CHECK (games >= 1)
);

-- One row: the last rating_seq the ratings cover (0: none yet, so the
-- next start replays every rated game and writes the checkpoint), and
-- that game's id.
CREATE TABLE ratings_checkpoint (
	id		INTEGER PRIMARY KEY CHECK (id = 1),
	seq		INTEGER NOT NULL CHECK (seq >= 0),
	game_id		INTEGER NOT NULL CHECK (game_id >= 0)
);
INSERT INTO ratings_checkpoint (id, seq, game_id) VALUES (1, 0, 0);
