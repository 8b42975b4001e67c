-- 002-league.sql: accounts, tournaments and the league columns of games
-- (league.c).  Applied by store.c inside one transaction; PRAGMA
-- user_version is set by the loader, never here.  Players in games are an
-- account name as-is ("alice"), "engine", or "conn:ID" for a connection
-- without an account.

-- One row per account.  hash is a salted yescrypt hash ("$y$..."), never
-- the password.
CREATE TABLE accounts (
	name		TEXT PRIMARY KEY,
	hash		TEXT NOT NULL,
	created_at	TEXT NOT NULL
);

-- One row per tournament; its games are the games rows that name it.
-- players is the comma-separated account names in the given order.
CREATE TABLE tournaments (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	format		TEXT NOT NULL
			    CHECK (format IN ('roundrobin', 'gauntlet')),
	status		TEXT NOT NULL DEFAULT 'running'
			    CHECK (status IN ('running', 'finished',
			    'cancelled')),
	game		TEXT NOT NULL,		-- start, or random=1 template
	random		INTEGER NOT NULL DEFAULT 0 CHECK (random IN (0, 1)),
	base_ms		INTEGER NOT NULL CHECK (base_ms >= 0),
	inc_ms		INTEGER NOT NULL CHECK (inc_ms >= 0),
	games_per_pair	INTEGER NOT NULL CHECK (games_per_pair >= 1),
	seed		INTEGER NOT NULL,	-- a uint64_t, stored as int64
	players		TEXT NOT NULL,
	created_at	TEXT NOT NULL
);

-- What a game counts for: rated or not, its time control ("60000+0", NULL
-- if none) and its tournament and slot in the tournament's schedule (both
-- NULL outside tournaments).  Older games get the defaults: unrated.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0
    CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN tc TEXT;
ALTER TABLE games ADD COLUMN tournament_id INTEGER
    REFERENCES tournaments (id);
ALTER TABLE games ADD COLUMN slot INTEGER;

-- A tournament's games, to resume it.
CREATE INDEX games_tournament ON games (tournament_id, slot)
    WHERE tournament_id IS NOT NULL;
-- The rated finished games in replay order (ended_at, then id: the rowid
-- every index ends with), without a sort.
CREATE INDEX games_rated ON games (ended_at)
    WHERE rated = 1 AND status = 'finished';
