-- 004-accounts-timing.sql: account life cycle, per-move network delay,
-- refused moves and the detail of a game's end (issue 9).

-- An account is disabled when disabled is not NULL: it holds the admin's
-- reason.  A disabled account cannot log in.
ALTER TABLE accounts ADD COLUMN disabled TEXT;

-- Free text that explains a game's end beyond its reason word: the
-- refusal of an illegal move, an admin's reason for aborting or
-- adjudicating.  NULL if none.
ALTER TABLE games ADD COLUMN detail TEXT;

-- Every refused (illegal) move, under every illegal-move policy: ply is the
-- ply the move was meant to be; seq counts the refusals of one game; the
-- mover's thinking time by the server clock and the connection's round-trip
-- estimate (TCP_INFO tcpi_rtt, microseconds; NULL if unknown).
CREATE TABLE refused_moves (
	game_id		INTEGER NOT NULL
			    REFERENCES games (id) ON DELETE CASCADE,
	seq		INTEGER NOT NULL CHECK (seq >= 1),
	ply		INTEGER NOT NULL CHECK (ply >= 1),
	player		INTEGER NOT NULL CHECK (player IN (1, 2)),
	move		TEXT NOT NULL,
	reason		TEXT NOT NULL,
	time_ms		INTEGER NOT NULL CHECK (time_ms >= 0),
	delay_us	INTEGER CHECK (delay_us >= 0),
	PRIMARY KEY (game_id, seq)
);

-- One row per start of grundyd: its id names anonymous players
-- ("anon:START:CONN"), so that two runs never share a name.
CREATE TABLE daemon_starts (
	id		INTEGER PRIMARY KEY AUTOINCREMENT,
	started_at	TEXT NOT NULL
);

-- A move in a run may now have a sixth element, the network delay of its
-- turn in microseconds (the mover's round-trip estimate when its answer
-- was read; absent or null if unknown, as in runs written before):
--     [player, "move", "position after it", time_ms, mark, delay_us]
DROP VIEW moves;
CREATE VIEW moves (game_id, ply, player, move, position, time_ms, mark,
    delay_us) AS
	SELECT r.game_id, r.first_ply + m.key,
	    json_extract(m.value, '$[0]'), json_extract(m.value, '$[1]'),
	    json_extract(m.value, '$[2]'), json_extract(m.value, '$[3]'),
	    CASE json_extract(m.value, '$[4]') WHEN 0 THEN 'kept-win'
	    WHEN 1 THEN 'threw-win' ELSE 'no-win' END,
	    json_extract(m.value, '$[5]')
	FROM move_runs AS r, json_each(r.moves) AS m;
