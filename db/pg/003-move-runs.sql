-- pg/003-move-runs.sql: db/003-move-runs.sql for PostgreSQL (issue 15):
-- moves in runs, one row per run of consecutive moves, and the view
-- "moves" with one row per move.  A run is a JSON array, as on SQLite:
--     [player, "move", "position after it", time_ms, mark]

-- SQLite's json_valid(): false for text that is not JSON (a cast alone
-- would raise 22P02 instead of the check's constraint violation).
CREATE FUNCTION grundy_json_valid(t TEXT) RETURNS BOOLEAN
    LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
	PERFORM t::jsonb;
	RETURN TRUE;
EXCEPTION WHEN others THEN
	RETURN FALSE;
END
$$;

CREATE TABLE move_runs (
	game_id		BIGINT NOT NULL
			    REFERENCES games (id) ON DELETE CASCADE,
	first_ply	BIGINT NOT NULL CHECK (first_ply >= 1),
	moves		TEXT NOT NULL CHECK (grundy_json_valid(moves)),
	PRIMARY KEY (game_id, first_ply)
);

INSERT INTO move_runs (game_id, first_ply, moves)
	SELECT game_id, ply, json_build_array(json_build_array(player, move,
	    position, time_ms, CASE mark WHEN 'kept-win' THEN 0
	    WHEN 'threw-win' THEN 1 ELSE 2 END))::text
	FROM moves;
DROP TABLE moves;

CREATE VIEW moves (game_id, ply, player, move, position, time_ms, mark) AS
	SELECT r.game_id, r.first_ply + m.k - 1,
	    (m.v ->> 0)::bigint, m.v ->> 1, m.v ->> 2, (m.v ->> 3)::bigint,
	    CASE (m.v ->> 4)::bigint WHEN 0 THEN 'kept-win'
	    WHEN 1 THEN 'threw-win' ELSE 'no-win' END
	FROM move_runs AS r,
	    jsonb_array_elements(r.moves::jsonb) WITH ORDINALITY AS m (v, k);
