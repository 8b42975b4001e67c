-- pg/004-accounts-timing.sql: db/004-accounts-timing.sql for PostgreSQL
-- (issue 15): account life cycle, refused moves, daemon starts, and the
-- network delay as a run's sixth element.

ALTER TABLE accounts ADD COLUMN disabled TEXT;

ALTER TABLE games ADD COLUMN detail TEXT;

CREATE TABLE refused_moves (
	game_id		BIGINT NOT NULL
			    REFERENCES games (id) ON DELETE CASCADE,
	seq		BIGINT NOT NULL CHECK (seq >= 1),
	ply		BIGINT NOT NULL CHECK (ply >= 1),
	player		BIGINT NOT NULL CHECK (player IN (1, 2)),
	move		TEXT NOT NULL,
	reason		TEXT NOT NULL,
	time_ms		BIGINT NOT NULL CHECK (time_ms >= 0),
	delay_us	BIGINT CHECK (delay_us >= 0),
	PRIMARY KEY (game_id, seq)
);

-- AUTOINCREMENT: ids never reused, as a sequence's.
CREATE TABLE daemon_starts (
	id		BIGSERIAL PRIMARY KEY,
	started_at	TEXT NOT NULL
);

DROP VIEW moves;
CREATE VIEW moves (game_id, ply, player, move, position, time_ms, mark,
    delay_us) AS
	SELECT r.game_id, r.first_ply + m.k - 1,
	    (m.v ->> 0)::bigint, m.v ->> 1, m.v ->> 2, (m.v ->> 3)::bigint,
	    CASE (m.v ->> 4)::bigint WHEN 0 THEN 'kept-win'
	    WHEN 1 THEN 'threw-win' ELSE 'no-win' END,
	    (m.v ->> 5)::bigint
	FROM move_runs AS r,
	    jsonb_array_elements(r.moves::jsonb) WITH ORDINALITY AS m (v, k);
