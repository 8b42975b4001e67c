-- 001-init.sql: the first schema of grundyd's game log and table cache.
-- Applied by store.c inside one transaction; PRAGMA user_version is set by
-- the loader, never here.  Times are ISO-8601 UTC with milliseconds
-- ("2025-11-21T05:38:00.123Z"), so text order is time order.

-- One row per game, inserted when it starts ('live') and updated when it
-- ends ('finished') or is given up ('abandoned').
CREATE TABLE games (
	id		INTEGER PRIMARY KEY,
	family		TEXT NOT NULL,
	game		TEXT NOT NULL,		-- canonical start position
	player1		TEXT NOT NULL,		-- moves first: "conn:17"
	player2		TEXT NOT NULL,
	started_at	TEXT NOT NULL,
	ended_at	TEXT,			-- NULL while live or if unknown
	result		TEXT CHECK (result IN ('first', 'second')),
	reason		TEXT,
	status		TEXT NOT NULL DEFAULT 'live'
			    CHECK (status IN ('live', 'finished', 'abandoned'))
);
CREATE INDEX games_live ON games (status) WHERE status = 'live';
CREATE INDEX games_player1 ON games (player1);
CREATE INDEX games_player2 ON games (player2);

-- Every move of a game in order; ply 1 is the first move.  A rowid table,
-- not WITHOUT ROWID: positions can be long.
CREATE TABLE moves (
	game_id		INTEGER NOT NULL
			    REFERENCES games (id) ON DELETE CASCADE,
	ply		INTEGER NOT NULL CHECK (ply >= 1),
	player		INTEGER NOT NULL CHECK (player IN (1, 2)),
	move		TEXT NOT NULL,
	position	TEXT NOT NULL,		-- canonical position after it
	time_ms		INTEGER NOT NULL CHECK (time_ms >= 0),
	mark		TEXT NOT NULL
			    CHECK (mark IN ('kept-win', 'threw-win', 'no-win')),
	PRIMARY KEY (game_id, ply)
);

-- Precomputed tables, reused across restarts.  kind is 'wythoff-p',
-- 'subtraction', 'graph' or 'wythoff-sg' (checked by store.c); key is the
-- caller's canonical text key; meta is small text, data the table itself.
CREATE TABLE tables (
	kind		TEXT NOT NULL,
	key		TEXT NOT NULL,
	created_at	TEXT NOT NULL,
	meta		TEXT,
	data		BLOB,
	PRIMARY KEY (kind, key)
);
