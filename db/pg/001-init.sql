-- pg/001-init.sql: db/001-init.sql for PostgreSQL (issue 15).  The same
-- tables, columns, indexes and constraints, in PostgreSQL's types; see
-- the SQLite file for what each holds.  Applied by sqldb's migration
-- runner inside one transaction; the version is kept in schema_version by
-- the runner, never here.  tests/test-sqldb.c checks that both back ends
-- end with the same tables and columns.

-- The store gives every game its id (MAX(id) + 1 at start).
CREATE TABLE games (
	id		BIGINT PRIMARY KEY,
	family		TEXT NOT NULL,
	game		TEXT NOT NULL,
	player1		TEXT NOT NULL,
	player2		TEXT NOT NULL,
	started_at	TEXT NOT NULL,
	ended_at	TEXT,
	result		TEXT CHECK (result IN ('first', 'second')),
	reason		TEXT,
	status		TEXT NOT NULL DEFAULT 'live'
			    CHECK (status IN ('live', 'finished', 'abandoned'))
);
CREATE INDEX games_live ON games (status) WHERE status = 'live';
CREATE INDEX games_player1 ON games (player1);
CREATE INDEX games_player2 ON games (player2);

CREATE TABLE moves (
	game_id		BIGINT NOT NULL
			    REFERENCES games (id) ON DELETE CASCADE,
	ply		BIGINT NOT NULL CHECK (ply >= 1),
	player		BIGINT NOT NULL CHECK (player IN (1, 2)),
	move		TEXT NOT NULL,
	position	TEXT NOT NULL,
	time_ms		BIGINT NOT NULL CHECK (time_ms >= 0),
	mark		TEXT NOT NULL
			    CHECK (mark IN ('kept-win', 'threw-win', 'no-win')),
	PRIMARY KEY (game_id, ply)
);

CREATE TABLE tables (
	kind		TEXT NOT NULL,
	key		TEXT NOT NULL,
	created_at	TEXT NOT NULL,
	meta		TEXT,
	data		BYTEA,
	PRIMARY KEY (kind, key)
);
