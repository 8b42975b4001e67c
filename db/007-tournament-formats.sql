-- 007-tournament-formats.sql: tournaments that an organiser can run (issue
-- 14 §2): the Swiss and arena formats, a paused state, a number of rounds,
-- a forfeit deadline and an SPRT.  Applied by store.c inside one
-- transaction; PRAGMA user_version is set by the loader, never here.
--
-- SQLite cannot change a CHECK constraint, so the table is rebuilt.  The
-- games that name a tournament (games.tournament_id REFERENCES it) would
-- stop the DROP with foreign keys on, so their links are set aside in a
-- temporary table and put back once the new table has the old name; ids
-- are kept.

CREATE TEMP TABLE tournament_links (id INTEGER PRIMARY KEY, t INTEGER);
INSERT INTO tournament_links (id, t)
	SELECT id, tournament_id FROM games WHERE tournament_id IS NOT NULL;
UPDATE games SET tournament_id = NULL WHERE tournament_id IS NOT NULL;

-- rounds: a Swiss tournament's rounds, an arena's (0: until cancelled);
-- 0 for the other formats.  forfeit_s: seconds a player may be absent
-- once its game could start before it loses the game by forfeit (0:
-- none).  sprt_*: the SPRT of a gauntlet or a two-player match (all NULL:
-- none): elo0 < elo1, alpha and beta in (0, 1); sprt_verdict the
-- hypothesis it accepted when it stopped the match.
CREATE TABLE tournaments_new (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	format		TEXT NOT NULL
			    CHECK (format IN ('roundrobin', 'gauntlet',
			    'swiss', 'arena')),
	status		TEXT NOT NULL DEFAULT 'running'
			    CHECK (status IN ('running', 'paused',
			    'finished', 'cancelled')),
	game		TEXT NOT NULL,		-- start, or random=1 template
	random		INTEGER NOT NULL DEFAULT 0 CHECK (random IN (0, 1)),
	base_ms		INTEGER NOT NULL CHECK (base_ms >= 0),
	inc_ms		INTEGER NOT NULL CHECK (inc_ms >= 0),
	games_per_pair	INTEGER NOT NULL CHECK (games_per_pair >= 1),
	seed		INTEGER NOT NULL,	-- a uint64_t, stored as int64
	players		TEXT NOT NULL,
	created_at	TEXT NOT NULL,
	rounds		INTEGER NOT NULL DEFAULT 0 CHECK (rounds >= 0),
	forfeit_s	INTEGER NOT NULL DEFAULT 0 CHECK (forfeit_s >= 0),
	sprt_elo0	REAL,
	sprt_elo1	REAL,
	sprt_alpha	REAL,
	sprt_beta	REAL,
	-- 'H0' or 'H1' once the SPRT stopped the match; NULL before.
	sprt_verdict	TEXT CHECK (sprt_verdict IN ('H0', 'H1')),
	-- players: the first nstart were there at the start (0: all), the
	-- others added in order; withdrawn: "NAME:R,..." for each player
	-- withdrawn, R the Swiss rounds paired when it was (0 otherwise).
	nstart		INTEGER NOT NULL DEFAULT 0 CHECK (nstart >= 0),
	withdrawn	TEXT NOT NULL DEFAULT '',
	CHECK ((sprt_elo0 IS NULL) = (sprt_elo1 IS NULL) AND
	    (sprt_elo0 IS NULL) = (sprt_alpha IS NULL) AND
	    (sprt_elo0 IS NULL) = (sprt_beta IS NULL))
);
INSERT INTO tournaments_new (id, name, format, status, game, random,
    base_ms, inc_ms, games_per_pair, seed, players, created_at)
	SELECT id, name, format, status, game, random, base_ms, inc_ms,
	    games_per_pair, seed, players, created_at FROM tournaments;
DROP TABLE tournaments;
ALTER TABLE tournaments_new RENAME TO tournaments;

UPDATE games SET tournament_id =
	(SELECT t FROM tournament_links WHERE tournament_links.id = games.id)
	WHERE id IN (SELECT id FROM tournament_links);
DROP TABLE tournament_links;
