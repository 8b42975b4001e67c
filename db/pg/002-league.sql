-- pg/002-league.sql: db/002-league.sql for PostgreSQL (issue 15):
-- accounts, tournaments and the league columns of games.

CREATE TABLE accounts (
	name		TEXT PRIMARY KEY,
	hash		TEXT NOT NULL,
	created_at	TEXT NOT NULL
);

-- SQLite's INTEGER PRIMARY KEY numbers the rows the league inserts
-- without an id: a sequence here.
CREATE TABLE tournaments (
	id		BIGSERIAL PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	format		TEXT NOT NULL
			    CHECK (format IN ('roundrobin', 'gauntlet')),
	status		TEXT NOT NULL DEFAULT 'running'
			    CHECK (status IN ('running', 'finished',
			    'cancelled')),
	game		TEXT NOT NULL,
	random		BIGINT NOT NULL DEFAULT 0 CHECK (random IN (0, 1)),
	base_ms		BIGINT NOT NULL CHECK (base_ms >= 0),
	inc_ms		BIGINT NOT NULL CHECK (inc_ms >= 0),
	games_per_pair	BIGINT NOT NULL CHECK (games_per_pair >= 1),
	seed		BIGINT NOT NULL,
	players		TEXT NOT NULL,
	created_at	TEXT NOT NULL
);

ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0
    CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN tc TEXT;
ALTER TABLE games ADD COLUMN tournament_id BIGINT
    REFERENCES tournaments (id);
ALTER TABLE games ADD COLUMN slot BIGINT;

CREATE INDEX games_tournament ON games (tournament_id, slot)
    WHERE tournament_id IS NOT NULL;
-- SQLite's index ends with the rowid; here id says so.
CREATE INDEX games_rated ON games (ended_at, id)
    WHERE rated = 1 AND status = 'finished';
