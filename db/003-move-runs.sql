-- 003-move-runs.sql: moves are stored in runs, one row per run of
-- consecutive moves of a game, instead of one row (and one index entry)
-- per move: the writer inserts a game's moves a run at a time, which costs
-- far less CPU.  The view "moves" gives back one row per move with the
-- columns of version 1, so queries on moves keep working.

-- A run: the moves first_ply, first_ply + 1, ... of game game_id, as a
-- JSON array with one element per move in order:
--     [player, "move", "position after it", time_ms, mark]
-- player is 1 or 2 (1 moved first); mark is 0 kept-win, 1 threw-win,
-- 2 no-win.  store.c writes runs of up to 64 moves (see STORE_RUN_MAX).
-- A rowid table, not WITHOUT ROWID: a run is often over 1 KB, which a
-- WITHOUT ROWID row would spill to overflow pages (a 4 KB page each).
CREATE TABLE move_runs (
	game_id		INTEGER NOT NULL
			    REFERENCES games (id) ON DELETE CASCADE,
	first_ply	INTEGER NOT NULL CHECK (first_ply >= 1),
	moves		TEXT NOT NULL CHECK (json_valid(moves)),
	PRIMARY KEY (game_id, first_ply)
);

-- The moves of version 1, each as a run of one move.
INSERT INTO move_runs (game_id, first_ply, moves)
	SELECT game_id, ply, json_array(json_array(player, move, position,
	    time_ms, CASE mark WHEN 'kept-win' THEN 0
	    WHEN 'threw-win' THEN 1 ELSE 2 END))
	FROM moves;
DROP TABLE moves;

-- One row per move, as the moves table of version 1 had them.
CREATE VIEW moves (game_id, ply, player, move, position, time_ms, mark) AS
	SELECT r.game_id, r.first_ply + m.key,
	    json_extract(m.value, '$[0]'), json_extract(m.value, '$[1]'),
	    json_extract(m.value, '$[2]'), json_extract(m.value, '$[3]'),
	    CASE json_extract(m.value, '$[4]') WHEN 0 THEN 'kept-win'
	    WHEN 1 THEN 'threw-win' ELSE 'no-win' END
	FROM move_runs AS r, json_each(r.moves) AS m;
